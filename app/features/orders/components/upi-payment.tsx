import { Form, useNavigation } from "react-router";
import type { ViewedOrder } from "#common/orders/order-types.ts";
import { formatDateTime } from "#common/shared/dates.ts";
import { formatPriceExact } from "#common/shared/money.ts";
import { messages } from "#common/shared/messages.ts";
import { FormField } from "../../../shared/ui/form-field.tsx";
import { SubmitButton } from "../../../shared/ui/submit-button.tsx";
import { useShopTimeZone } from "../../../shared/lib/shop-time-zone.ts";

const m = messages.payments;

/** The QR code's SVG as an image source: drawn by the browser as a picture, never as markup in the page. */
const svgSource = (svg: string) => `data:image/svg+xml;base64,${btoa(svg)}`;

/**
 * How to pay an order awaiting its UPI payment: the amount and the time it must be paid by, the QR code any UPI app
 * scans, on a phone the link that opens one, and a form for the reference (UTR) the app showed once paid.
 */
export function UpiPayment({ order, upi, referenceError, referenceSaved }: { order: ViewedOrder; upi: NonNullable<ViewedOrder["upi"]>; referenceError?: string | undefined; referenceSaved: boolean }) {
  const timeZone = useShopTimeZone();
  const navigation = useNavigation();
  const amount = formatPriceExact(order.totalPaise);
  return (
    <section aria-labelledby="upi-heading" className="mb-8 grid gap-6 rounded-lg border border-orange-200 bg-orange-50 p-6 sm:grid-cols-[auto_1fr]">
      <img src={svgSource(upi.qrSvg)} alt={m.qrAlt(amount, order.number)} width={220} height={220} className="rounded bg-white" data-testid="upi-qr" />
      <div className="grid content-start gap-3">
        <h2 id="upi-heading" className="text-xl font-semibold text-stone-900">
          {m.heading}
        </h2>
        <p className="text-stone-800">{m.payBy(amount, order.payment.payBy ? formatDateTime(order.payment.payBy, timeZone) : "")}</p>
        <p className="text-stone-700">{m.scan}</p>
        {/* Only a phone has a UPI app to open; on a computer the QR code is the way. */}
        <a href={upi.link} className="btn-primary justify-self-start md:hidden">
          {m.payWithApp}
        </a>
        <Form method="post" className="grid max-w-sm gap-3">
          <input type="hidden" name="intent" value="upi-reference" />
          <FormField label={m.referenceLabel} name="reference" inputMode="numeric" autoComplete="off" defaultValue={order.payment.reference ?? ""} error={referenceError} />
          <p className="text-sm text-stone-600">{m.referenceHint}</p>
          {referenceSaved ? (
            <p role="status" className="text-leaf-800">
              {m.referenceSaved}
            </p>
          ) : null}
          <SubmitButton busy={navigation.state === "submitting" && navigation.formData?.get("intent") === "upi-reference"} busyLabel="Sending" className="btn-outline justify-self-start">
            {m.referenceSend}
          </SubmitButton>
        </Form>
      </div>
    </section>
  );
}
