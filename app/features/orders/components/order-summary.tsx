import type { ReactNode } from "react";
import type { Cart } from "#common/cart/cart-types.ts";
import type { OrderDetail } from "#common/orders/order-types.ts";
import { couponMessages } from "#common/coupons/coupon-messages.ts";
import { messages } from "#common/shared/messages.ts";
import { formatPriceExact } from "#common/shared/money.ts";

/**
 * Items, the discount of a code, shipping ('Free' when nothing is charged for it) and total (the cart, checkout and
 * order pages), amounts with two decimals; below the threshold, how much more ships free.
 */
export function OrderSummary({
  itemCount,
  subtotalPaise,
  shippingPaise,
  totalPaise,
  discountPaise = 0,
  couponCode = null,
  freeShippingMorePaise = null,
  children,
}: {
  itemCount: number;
  subtotalPaise: number;
  shippingPaise: number;
  totalPaise: number;
  discountPaise?: number;
  couponCode?: string | null;
  freeShippingMorePaise?: number | null;
  children?: ReactNode;
}) {
  return (
    <section aria-label="Order summary" className="rounded-2xl border border-stone-200 bg-leaf-50 p-6">
      <dl className="grid grid-cols-[1fr_auto] gap-y-3 text-stone-800">
        <dt>{messages.cart.items(itemCount)}</dt>
        <dd>{formatPriceExact(subtotalPaise)}</dd>
        {discountPaise > 0 ? (
          <>
            <dt>
              {couponMessages.discount}
              {couponCode ? <span className="ml-1 font-mono text-sm">({couponCode})</span> : null}
            </dt>
            <dd data-testid="order-discount">{`−${formatPriceExact(discountPaise)}`}</dd>
          </>
        ) : null}
        <dt>{messages.cart.shipping}</dt>
        <dd data-testid="order-shipping">{shippingPaise === 0 && itemCount > 0 ? couponMessages.free : formatPriceExact(shippingPaise)}</dd>
        <dt className="border-t border-stone-300 pt-3 text-lg font-bold">{messages.cart.total}</dt>
        <dd className="border-t border-stone-300 pt-3 text-lg font-bold" data-testid="order-total">
          {formatPriceExact(totalPaise)}
        </dd>
      </dl>
      {freeShippingMorePaise !== null ? <p className="mt-3 text-sm text-leaf-900">{couponMessages.freeShippingIn(freeShippingMorePaise)}</p> : null}
      {children}
    </section>
  );
}

/** The summary's figures of a cart, as the cart and checkout pages show them. */
export function cartSummary(cart: Cart) {
  return {
    itemCount: cart.itemCount,
    subtotalPaise: cart.subtotalPaise,
    shippingPaise: cart.shippingPaise,
    totalPaise: cart.totalPaise,
    discountPaise: cart.discountPaise,
    couponCode: cart.coupon?.code ?? null,
    freeShippingMorePaise: cart.freeShippingMorePaise,
  };
}

/** The summary's figures of a placed order, as its pages and its packing slip show them. */
export function orderSummary(order: OrderDetail) {
  return {
    itemCount: order.itemCount,
    subtotalPaise: order.subtotalPaise,
    shippingPaise: order.shippingPaise,
    totalPaise: order.totalPaise,
    discountPaise: order.discountPaise,
    couponCode: order.couponCode,
  };
}
