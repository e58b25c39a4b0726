// How a discount is worked out, in one place: the cart's summary, the checkout, the order and its mails all
// use this, so a shopper is charged the discount the page showed (docs/decisions/046).

export type DiscountRule = { kind: "percent" | "amount"; amount: number };

/**
 * The discount on `eligiblePaise` (the subtotal of the lines the code applies to): a percentage is taken of that
 * subtotal once (not line by line) and rounded half-up to the paisa; a fixed amount is taken whole. Either way it
 * never exceeds what it applies to, so no total goes below the shipping.
 */
export function discountPaise(rule: DiscountRule, eligiblePaise: number): number {
  if (!Number.isSafeInteger(eligiblePaise) || eligiblePaise <= 0) return 0;
  const raw = rule.kind === "percent" ? halfUpPercent(eligiblePaise, rule.amount) : rule.amount;
  return Math.min(raw, eligiblePaise);
}

/** `percent`% of `paise`, half a paisa and above rounded up; exact in integers (no float can shift a paisa). */
function halfUpPercent(paise: number, percent: number): number {
  const hundredths = paise * percent;
  if (Number.isSafeInteger(hundredths)) return Math.floor((hundredths + 50) / 100);
  const exact = (BigInt(paise) * BigInt(percent) + 50n) / 100n;
  return Number(exact);
}

/** Shipping with a free-shipping threshold (null: never free), compared with the subtotal after the discount. */
export function shippingFor(feePaise: number, afterDiscountPaise: number, freeAbovePaise: number | null): { shippingPaise: number; freeShippingMorePaise: number | null } {
  if (freeAbovePaise === null) return { shippingPaise: feePaise, freeShippingMorePaise: null };
  if (afterDiscountPaise >= freeAbovePaise) return { shippingPaise: 0, freeShippingMorePaise: null };
  return { shippingPaise: feePaise, freeShippingMorePaise: freeAbovePaise - afterDiscountPaise };
}
