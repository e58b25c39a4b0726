import { ERROR_CODES } from "#common/shared/user-facing-error.ts";
import { ServiceError } from "../../platform/errors.ts";

/** Why a checkout was refused, as the metrics count it: a few fixed reasons, read off the error it threw. */
export const REFUSAL_REASONS = ["signed_out", "unverified", "invalid", "rate_limited", "stock_or_cart", "cart_changed", "delivery", "payment", "conflict", "unavailable", "error"] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

/** What the checkout counts (the composition root makes it from the platform's metrics; none in most tests). */
export interface CheckoutMetrics {
  /** A new order was stored (a repeat of one idempotency key is not counted again). */
  placed(): void;
  refused(reason: RefusalReason): void;
  /** How long placeOrder took, whatever its outcome. */
  took(seconds: number, outcome: "placed" | "refused"): void;
}

export const NO_CHECKOUT_METRICS: CheckoutMetrics = { placed: () => {}, refused: () => {}, took: () => {} };

export function refusalReason(error: unknown): RefusalReason {
  if (!(error instanceof ServiceError)) return "error";
  if (error.code === ERROR_CODES.cartChanged) return "cart_changed";
  switch (error.status) {
    case 401:
      return "signed_out";
    case 403:
      return "unverified";
    case 429:
      return "rate_limited";
    case 503:
      return "unavailable";
    case 409: {
      const fields = Object.keys(error.fieldErrors ?? {});
      if (fields.includes("cart")) return "stock_or_cart";
      if (fields.includes("pin")) return "delivery";
      if (fields.includes("payment")) return "payment";
      return "conflict";
    }
    default:
      return "invalid";
  }
}
