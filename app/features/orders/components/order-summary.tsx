import type { ReactNode } from "react";
import { messages } from "#common/shared/messages.ts";
import { formatPriceExact } from "#common/shared/money.ts";

/** Items, shipping and total (the cart, checkout and order pages), amounts with two decimals. */
export function OrderSummary({
  itemCount,
  subtotalPaise,
  shippingPaise,
  totalPaise,
  children,
}: {
  itemCount: number;
  subtotalPaise: number;
  shippingPaise: number;
  totalPaise: number;
  children?: ReactNode;
}) {
  return (
    <section aria-label="Order summary" className="rounded-2xl border border-stone-200 bg-leaf-50 p-6">
      <dl className="grid grid-cols-[1fr_auto] gap-y-3 text-stone-800">
        <dt>{messages.cart.items(itemCount)}</dt>
        <dd>{formatPriceExact(subtotalPaise)}</dd>
        <dt>{messages.cart.shipping}</dt>
        <dd>{formatPriceExact(shippingPaise)}</dd>
        <dt className="border-t border-stone-300 pt-3 text-lg font-bold">{messages.cart.total}</dt>
        <dd className="border-t border-stone-300 pt-3 text-lg font-bold" data-testid="order-total">
          {formatPriceExact(totalPaise)}
        </dd>
      </dl>
      {children}
    </section>
  );
}
