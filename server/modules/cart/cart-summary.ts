import { createHash } from "node:crypto";
import type { Cart, CartLine } from "#common/cart/cart-types.ts";
import { messages } from "#common/shared/messages.ts";
import { sumPaise } from "#common/shared/money.ts";
import { shopClock } from "../../platform/clock.ts";
import { linePriceAt, type LineSaleColumns } from "../catalog/index.ts";
import { sellableName } from "#common/catalog/variant-names.ts";
import { shippingFor } from "#common/shared/discount.ts";

// What a cart shows, whoever's it is (an account's, cart.ts, or a visitor's, visitor-cart.ts): its lines and summary.

const c = messages.cart;

/**
 * What a cart line reads of its size (`v`, variantsForLines) and product (`p`, productsForLines), in an account's cart
 * and a visitor's alike.
 */
export const SIZE_AND_PRODUCT_COLUMNS = [
  "v.product_id as product_id",
  "v.id as variant_id",
  "v.label as variant_label",
  "v.sku",
  "p.name",
  "v.price_paise",
  "v.compare_at_paise",
  "p.sale_starts_at",
  "p.sale_ends_at",
  "v.stock",
  "p.category_id",
] as const;

/** Why a cart line cannot be ordered as it stands, in checkout's words (cart and checkout agree); null when it can. */
export function lineProblem(product: { name: string; stock: number } | null | undefined, quantity: number): string | null {
  if (!product) return messages.checkout.noLongerSold;
  return product.stock >= quantity ? null : messages.checkout.shortage(product.name, product.stock);
}

/**
 * What an order is checked against (docs/decisions/009): the lines, their quantities and prices, in any order.
 * The checkout page sends the one of the summary it showed; the order is refused if the cart's differs now.
 */
export function cartFingerprint(
  lines: Iterable<{ id: string; quantity: number; unitPricePaise: number }>,
  discount?: { code: string; discountPaise: number } | null,
): string {
  const parts = Array.from(lines, (line) => `${line.id}:${line.quantity}:${line.unitPricePaise}`).sort();
  // The discount too (docs/decisions/046): a code used up, paused or no longer applying changes what is charged.
  const coupon = discount ? `|${discount.code}:${discount.discountPaise}` : "";
  return createHash("sha256").update(parts.join(",") + coupon).digest("base64url");
}

/** A stored line with its product (null columns once the product is gone), as the cart shows it. */
export interface StoredLineRow extends LineSaleColumns {
  id: string;
  quantity: number;
  product_id: string | null;
  variant_id: string | null;
  variant_label: string | null;
  name: string | null;
  stock: number | null;
  url: string | null;
  width: number | null;
  height: number | null;
  media_key: string | null;
}

/** One line as the cart shows it, whoever's cart it is (an account's or a visitor's). */
export function toCartLine(row: StoredLineRow, now: number = shopClock.now()): CartLine {
  const product = row.product_id ? { name: sellableName(row.name ?? "", row.variant_label), stock: row.stock ?? 0 } : null;
  const name = row.product_id ? (row.name ?? "") : c.productGone;
  const problem = lineProblem(product, row.quantity);
  // Sale prices: the unit price is the one price rule's (decision 047), the same the checkout charges.
  const price = linePriceAt(row, now);
  const unitPricePaise = price.chargedPaise;
  return {
    id: row.id,
    productId: row.product_id,
    variantId: row.variant_id,
    variantLabel: row.variant_label || null,
    name,
    image: row.url ? { url: row.url, width: row.width ?? 800, height: row.height ?? 800, alt: name, mediaKey: row.media_key } : null,
    unitPricePaise,
    sale: price.regularPaise === null ? null : { regularPaise: price.regularPaise, savingPaise: price.savingPaise, savingPercent: price.savingPercent },
    quantity: row.quantity,
    stock: product?.stock ?? 0,
    available: problem === null,
    problem,
    lineTotalPaise: problem === null ? unitPricePaise * row.quantity : 0,
  };
}

/** What the summary takes besides the lines: the applied code as judged, and the free-shipping threshold. */
export interface CartPricing {
  coupon?: { code: string; discountPaise: number; problem: string | null } | null;
  freeShippingAbovePaise?: number | null;
}

/**
 * The summary rule, in one place: only available lines count, the applied code's discount comes off the subtotal,
 * and shipping is charged when something can be ordered, unless what is left reaches the free-shipping threshold.
 */
export function summariseCart(lines: CartLine[], shippingFeePaise: number, { coupon = null, freeShippingAbovePaise = null }: CartPricing = {}): Cart {
  const counted = lines.filter((line) => line.available);
  const itemCount = counted.reduce((n, line) => n + line.quantity, 0);
  const subtotalPaise = sumPaise(counted.map((line) => line.lineTotalPaise));
  const discountPaise = coupon && !coupon.problem ? Math.min(coupon.discountPaise, subtotalPaise) : 0;
  const shipping = shippingFor(shippingFeePaise, subtotalPaise - discountPaise, freeShippingAbovePaise);
  const shippingPaise = itemCount > 0 ? shipping.shippingPaise : 0;
  return {
    lines,
    itemCount,
    subtotalPaise,
    shippingPaise,
    totalPaise: subtotalPaise - discountPaise + shippingPaise,
    coupon: coupon ? { code: coupon.code, problem: coupon.problem } : null,
    discountPaise,
    freeShippingMorePaise: itemCount > 0 ? shipping.freeShippingMorePaise : null,
    canCheckOut: lines.length > 0 && counted.length === lines.length,
    fingerprint: cartFingerprint(lines, coupon ? { code: coupon.code, discountPaise } : null),
  };
}
