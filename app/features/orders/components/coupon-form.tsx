import { Form, Link } from "react-router";
import { couponMessages as m } from "#common/coupons/coupon-messages.ts";
import { FieldError, fieldErrorProps } from "../../../shared/ui/form-field.tsx";

/** What a coupon form's action answered: the page passes its action data when it was one of these forms. */
export type CouponOutcome = { ok: boolean; intent: "apply-coupon" | "remove-coupon"; message?: string; fieldErrors?: Record<string, string> } | undefined;

/**
 * The discount code of the cart's summary (cart and checkout): a code to apply, or the applied one with its
 * problem, if any, and a Remove button. Plain forms posted to the page's action, so they work without JavaScript.
 * Visitors are asked to log in (docs/decisions/046).
 */
export function CouponForm({ coupon, visitor, outcome, loginTo }: { coupon: { code: string; problem: string | null } | null; visitor: boolean; outcome: CouponOutcome; loginTo: string }) {
  if (visitor) {
    return (
      <p className="mt-4 text-sm text-stone-700">
        <Link to={`/login?redirectTo=${encodeURIComponent(loginTo)}`} className="font-semibold text-leaf-800 underline">
          {m.loginToApply}
        </Link>
      </p>
    );
  }
  const refusal = outcome && !outcome.ok ? (outcome.fieldErrors?.code ?? outcome.message) : undefined;
  if (coupon) {
    return (
      <Form method="post" className="mt-4 grid gap-1" aria-label={m.codeLabel}>
        <p className="text-sm text-stone-800">
          {m.codeLabel}: <span className="font-mono font-semibold">{coupon.code}</span>
        </p>
        {coupon.problem ? (
          <p role="alert" className="text-sm font-medium text-red-700">
            {coupon.problem}
          </p>
        ) : null}
        <button type="submit" name="intent" value="remove-coupon" className="btn-outline justify-self-start">
          {`${m.remove} ${coupon.code}`}
        </button>
      </Form>
    );
  }
  return (
    <Form method="post" className="mt-4 grid gap-2" aria-label={m.codeLabel}>
      <label htmlFor="coupon-code" className="field-label">
        {m.codeLabel}
      </label>
      <div className="flex gap-2">
        <input
          id="coupon-code"
          name="code"
          autoComplete="off"
          className="field-input min-w-0 flex-1"
          {...fieldErrorProps("coupon-code", refusal)}
        />
        <button type="submit" name="intent" value="apply-coupon" className="btn-outline">
          {m.apply}
        </button>
      </div>
      <FieldError controlId="coupon-code" error={refusal} alert />
    </Form>
  );
}
