import { useEffect, useState } from "react";
import { data, Form, Link, redirect, useNavigate, useNavigation, type ShouldRevalidateFunctionArgs } from "react-router";
import { codRefusal } from "#common/delivery/cod-refusal.ts";
import { PIN_PATTERN } from "#common/delivery/pin-areas.ts";
import { sellableName } from "#common/catalog/variant-names.ts";
import type { CartLine } from "#common/cart/cart-types.ts";
import type { PaymentOption } from "#common/orders/order-types.ts";
import { ERROR_CODES } from "#common/shared/user-facing-error.ts";
import { messages } from "#common/shared/messages.ts";
import { FieldError, fieldErrorProps, FormField } from "../../../shared/ui/form-field.tsx";
import { FormMessage } from "../../../shared/ui/form-message.tsx";
import { cartSummary, OrderSummary } from "../components/order-summary.tsx";
import { CouponForm, type CouponOutcome } from "../components/coupon-form.tsx";
import { SubmitButton } from "../../../shared/ui/submit-button.tsx";
import { actionResult, formLevelMessage, loadOrRefuse } from "../../../shared/lib/service-errors.ts";
import { redirectWithCookies, requireUser } from "../../../shared/lib/session.ts";
import { useFormErrors } from "../../../shared/lib/use-form-errors.ts";
import type { Route } from "./+types/checkout";
import { privatePageMeta } from "../../../shared/lib/seo.ts";
import { readFormFields } from "../../../shared/lib/forms.ts";
import { rememberedPin, rememberPin } from "../../../shared/lib/pin-cookie.ts";

export const meta: Route.MetaFunction = ({ matches }) => privatePageMeta(matches, "Checkout");

/**
 * The PIN code's delivery zone prices the summary (docs/decisions/053): the code typed on this page (`?pin=`, which
 * the page sets as the shopper types), else the one remembered from a delivery check or an earlier checkout, else
 * the profile's. Without one the summary shows the shop's flat fee, and the order sends what it showed.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const [profile, paymentOptions] = await Promise.all([
    loadOrRefuse(() => context.services.profiles.getProfile(user, user.id)),
    loadOrRefuse(() => context.services.orders.paymentOptions(user)),
  ]);
  const typed = new URL(request.url).searchParams.get("pin")?.trim() ?? "";
  const savedPin = "pin" in profile ? profile.pin : "";
  const pin = PIN_PATTERN.test(typed) ? typed : (rememberedPin(request) ?? (PIN_PATTERN.test(savedPin) ? savedPin : null));
  const delivery = pin ? await loadOrRefuse(() => context.services.delivery.checkDelivery({ pin })) : null;
  const zone = delivery?.delivers ? delivery.zone : null;
  const cart = await loadOrRefuse(() => context.services.cart.getCart(user, zone ? { feePaise: zone.feePaise, freeAbovePaise: zone.freeAbovePaise } : undefined));
  if (!cart.lines.length) throw redirect("/cart");
  return {
    cart,
    paymentOptions,
    verified: user.emailVerified,
    // One key per visit of this page: a double click, a retry or a resent form makes one order.
    idempotencyKey: crypto.randomUUID(),
    prefill: { name: profile.name, phone: "phone" in profile ? profile.phone : "", address: "address" in profile ? profile.address : "", pin: pin ?? "" },
    delivery,
  };
}

export async function action({ context, request }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const form = await readFormFields(request);
  if (form.intent === "apply-coupon" || form.intent === "remove-coupon") {
    const intent = form.intent;
    const { cart } = context.services;
    return actionResult(() => (intent === "apply-coupon" ? cart.applyCoupon(user, form) : cart.removeCoupon(user)).then(() => ({})), { intent });
  }
  const result = await actionResult(() => context.services.orders.placeOrder(user, form));
  // The PIN code shipped to (or tried) is remembered: the page made again after a refusal prices its zone.
  const pin = typeof form.pin === "string" ? form.pin.trim() : "";
  const cookies = PIN_PATTERN.test(pin) ? [rememberPin(pin, request)] : [];
  if (!("ok" in result) || !result.ok) {
    if (!cookies.length || !("data" in result)) return result;
    return data(result.data, { status: result.init?.status ?? 400, headers: { "Set-Cookie": cookies[0]! } });
  }
  return redirectWithCookies(context, `/orders/${result.id}`, cookies, "orderPlaced");
}

/**
 * A refusal because the cart changed since this page showed it (a 409, after which React Router would keep the
 * old summary) reloads the page's data: the shopper sees the fresh summary beside the message, and its
 * fingerprint, and places that. A page sent without JavaScript gets both from the server's answer anyway.
 */
export function shouldRevalidate({ actionResult, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  const failure = actionResult as { code?: string } | undefined;
  return failure?.code === ERROR_CODES.cartChanged || defaultShouldRevalidate;
}

export default function Checkout({ loaderData, actionData }: Route.ComponentProps) {
  const { cart, prefill, verified, idempotencyKey, delivery, paymentOptions } = loaderData;
  const navigation = useNavigation();
  const navigate = useNavigate();
  // Once the page runs, a PIN code typed in prices the summary with its zone at once (the loader reads `?pin=`).
  const pinTyped = (value: string) => {
    const pin = value.trim();
    if (PIN_PATTERN.test(pin) && pin !== prefill.pin) void navigate(`?pin=${pin}`, { replace: true, preventScrollReset: true });
  };
  const notDelivered = delivery && !delivery.delivers ? delivery.text : null;
  const codProblem = delivery?.delivers ? codRefusal(delivery.zone, cart.totalPaise, delivery.pin) : null;
  const couponOutcome = actionData && "intent" in actionData ? (actionData as CouponOutcome) : undefined;
  const failure = actionData && !actionData.ok && !couponOutcome ? actionData : undefined;
  const { errors, onSubmit, prepare } = useFormErrors(() => import("#common/cart/cart-schemas.ts").then((m) => m.checkoutSchema), failure?.fieldErrors);
  // Place Order is offered only when it can succeed: a verified e-mail and every line orderable as it stands.
  const orderable = verified && cart.canCheckOut;
  return (
    <section className="container-page py-10">
      <h1 className="mb-8 text-3xl font-bold text-stone-900">{messages.checkout.heading}</h1>
      {verified ? null : (
        <div className="mb-6">
          <FormMessage message={messages.checkout.verifyFirst} />
          <Link to="/verify" className="mt-2 inline-block font-semibold text-leaf-800 underline underline-offset-4">
            {messages.auth.resendVerification}
          </Link>
        </div>
      )}
      {cart.canCheckOut ? null : <UnorderableLines lines={cart.lines} />}
      <div className="grid items-start gap-8 lg:grid-cols-[1fr_22rem]">
        {orderable ? (
          <Form method="post" noValidate onSubmit={onSubmit} onFocus={prepare} className="grid content-start gap-4" id="checkout-form">
            <FormMessage message={formLevelMessage(failure) ?? failure?.fieldErrors.cart ?? null} />
            <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
            {/* What the summary beside the form shows: the order is refused if the cart differs (docs/decisions/009). */}
            <input type="hidden" name="cartFingerprint" value={cart.fingerprint} />
            <h2 className="text-xl font-semibold text-stone-900">Shipping</h2>
            <FormField label="Full Name" name="name" defaultValue={prefill.name} autoComplete="name" error={errors.name} />
            <FormField label="Phone Number" name="phone" type="tel" defaultValue={prefill.phone} autoComplete="tel" error={errors.phone} />
            <FormField label="Address" name="address" multiline rows={3} defaultValue={prefill.address} autoComplete="street-address" error={errors.address} />
            <FormField
              label={messages.delivery.pinLabel}
              name="pin"
              inputMode="numeric"
              maxLength={6}
              autoComplete="postal-code"
              defaultValue={prefill.pin}
              onChange={(event) => pinTyped(event.currentTarget.value)}
              error={errors.pin ?? notDelivered ?? undefined}
            />
            {delivery?.delivers ? (
              <p role="status" data-testid="checkout-delivery" className="text-sm text-stone-700">
                {delivery.text}
              </p>
            ) : null}
            {/* The shipping the summary shows: the order is refused if the PIN code's zone charges otherwise. */}
            <input type="hidden" name="shippingPaise" value={cart.shippingPaise} />
            <label className="flex items-center gap-2 text-stone-800">
              <input type="checkbox" name="saveToProfile" className="size-4 accent-leaf-700" /> Remember these details on my profile
            </label>
            <GiftFields errors={errors} />
            <PaymentChoice options={paymentOptions} zoneRefusal={codProblem} error={errors.payment} />
            <SubmitButton busy={navigation.state === "submitting"} busyLabel="Placing your order" className="btn-primary mt-4 justify-self-start">
              {messages.checkout.placeOrder}
            </SubmitButton>
          </Form>
        ) : null}
        {cart.itemCount > 0 ? (
          <OrderSummary {...cartSummary(cart)}>
            <ul className="mt-4 space-y-1 text-sm text-stone-700">
              {cart.lines
                .filter((line) => line.available)
                .map((line) => (
                  <li key={line.id}>
                    {line.quantity} × {sellableName(line.name, line.variantLabel)}
                  </li>
                ))}
            </ul>
            <CouponForm coupon={cart.coupon} visitor={false} outcome={couponOutcome} loginTo="/checkout" />
          </OrderSummary>
        ) : null}
      </div>
    </section>
  );
}

/**
 * The ways to pay. One this shopper may not use shows, disabled, with the reason, so they learn it before pressing
 * Place Order: Cash on Delivery turned off for them, or not taken in their PIN code's zone or above its limit
 * (`zoneRefusal`, from the zone the page priced), pointing to UPI when the shop takes it. The first they may use is
 * chosen; the choice is made again when the reason changes (another PIN code typed).
 */
function PaymentChoice({ options, zoneRefusal, error }: { options: PaymentOption[]; zoneRefusal: string | null; error: string | undefined }) {
  const upiOffered = options.some((option) => option.id === "upi" && option.refusal === null);
  const shown = options.map((option) =>
    option.id === "cod" && option.refusal === null && zoneRefusal ? { ...option, refusal: upiOffered ? messages.checkout.payByUpiInstead(zoneRefusal) : zoneRefusal } : option,
  );
  const chosen = shown.find((option) => option.refusal === null)?.id;
  return (
    <fieldset key={`${zoneRefusal}`} className="mt-4" {...fieldErrorProps("payment", error)}>
      <legend className="text-xl font-semibold text-stone-900">Payment</legend>
      {shown.map((option) => (
        <div key={option.id} className="mt-2">
          <label className={`flex items-center gap-2 ${option.refusal ? "text-stone-500" : "text-stone-800"}`}>
            <input type="radio" name="payment" value={option.id} defaultChecked={option.id === chosen} disabled={option.refusal !== null} className="size-4 accent-leaf-700" />{" "}
            {option.label}
          </label>
          {option.refusal ? (
            <p data-testid={`${option.id}-refusal`} className="ml-6 text-sm text-red-800">
              {option.refusal}
            </p>
          ) : null}
          {option.id === "upi" && !option.refusal ? <p className="ml-6 text-sm text-stone-600">{messages.checkout.paymentUpiHint}</p> : null}
        </div>
      ))}
      <FieldError controlId="payment" error={error} alert />
    </fieldset>
  );
}

/**
 * 'This is a gift' and the recipient's details. Without JavaScript every field shows (the server ignores them unless
 * the box is ticked); once the page runs, the details show only while the box is ticked.
 */
function GiftFields({ errors }: { errors: Record<string, string | undefined> }) {
  const [running, setRunning] = useState(false);
  const [isGift, setIsGift] = useState(false);
  useEffect(() => setRunning(true), []);
  const c = messages.checkout;
  return (
    <fieldset className="mt-4 grid gap-4 rounded-lg border border-stone-200 p-4">
      <legend className="px-1 text-lg font-semibold text-stone-900">Gift</legend>
      <label className="flex items-center gap-2 text-stone-800">
        <input type="checkbox" name="gift" checked={isGift} onChange={(event) => setIsGift(event.currentTarget.checked)} className="size-4 accent-leaf-700" /> {c.isGift}
      </label>
      <div className="grid gap-4" hidden={running && !isGift}>
        <p className="text-sm text-stone-600">{c.giftHint}</p>
        <FormField label={c.giftName} name="giftName" autoComplete="off" error={errors.giftName} />
        <FormField label={c.giftPhone} name="giftPhone" type="tel" autoComplete="off" error={errors.giftPhone} />
        <FormField label={c.giftMessage} name="giftMessage" multiline rows={3} error={errors.giftMessage} />
        <label className="flex items-center gap-2 text-stone-800">
          <input type="checkbox" name="giftHidePrices" className="size-4 accent-leaf-700" /> {c.hidePrices}
        </label>
      </div>
    </fieldset>
  );
}

/** Lines that would make the order fail, each with the reason the server would give, and the way back to the cart. */
function UnorderableLines({ lines }: { lines: CartLine[] }) {
  return (
    <div role="alert" className="mb-6 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-red-800">
      <p className="font-semibold">{messages.checkout.cannotOrderYet}</p>
      <ul className="mt-2 list-disc pl-5">
        {lines.flatMap((line) => (line.problem ? [<li key={line.id}>{line.problem}</li>] : []))}
      </ul>
      <Link to="/cart" className="mt-2 inline-block font-semibold underline underline-offset-4">
        {messages.checkout.fixCart}
      </Link>
    </div>
  );
}
