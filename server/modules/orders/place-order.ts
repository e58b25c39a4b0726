import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { z } from "zod";
import { messages } from "#common/shared/messages.ts";
import { ERROR_CODES } from "#common/shared/user-facing-error.ts";
import type { OrderDetail } from "#common/orders/order-types.ts";
import { checkoutSchema, giftOf } from "#common/cart/cart-schemas.ts";
import { shopClock } from "../../platform/clock.ts";
import type { DB } from "../../platform/db/schema.ts";
import { inShopperTransaction, isUniqueViolation } from "../../platform/db/write-transaction.ts";
import { ConflictError, ForbiddenError, InvalidInputError, parseInput } from "../../platform/errors.ts";
import type { RateRule } from "../../platform/rate-limit/rate-limit.ts";
import { shopDay } from "../../platform/shop-day.ts";
import { requireSignedIn, type SessionUser } from "../../platform/session-user.ts";
import { saveDeliveryDetails } from "../accounts/index.ts";
import { cartFingerprint, cartLines, deleteOrderedLines, lineProblem, type CartRow } from "../cart/index.ts";
import { linePriceAt, readStock } from "../catalog/index.ts";
import {
  keyPendingAndCart,
  storeOrderRows,
  takeLineStock,
  takeLineStockAndCountDay,
  takeLineStockCountDayAndClaimCode,
  takeProductStock,
  takeVariantStock,
  orderIdWithKey,
} from "./checkout-statements.ts";
import { sellableName } from "#common/catalog/variant-names.ts";
import { countPlacedOrder } from "./daily-totals.ts";
import { orderMail } from "./order-mails.ts";
import { isOrderNumberTaken } from "./order-numbers.ts";
import { loadOrder, toDetail, type OrderRow } from "./order-records.ts";
import type { OrdersContext } from "./orders-context.ts";
import { type PaymentHold, type PaymentMethod } from "./payments.ts";
import { codRefusalFor, withUpiOffered } from "./cod-rules.ts";
import { refusalReason } from "./checkout-metrics.ts";
import { shippingFor } from "#common/shared/discount.ts";
import { codRefusal, deliveryZoneFor } from "../delivery/index.ts";
import type { DeliveryZone } from "#common/delivery/delivery-schemas.ts";
import { formatPriceExact } from "#common/shared/money.ts";
import { appliedCoupon, claimCouponUse, couponUseRefusal, judgeAppliedCoupon, type CouponUse, type Judgement, type LineToDiscount } from "../coupons/index.ts";

/** What the checkout uses of the orders service's dependencies. */
export type CheckoutContext = Pick<
  OrdersContext,
  | "database"
  | "db"
  | "outbox"
  | "logger"
  | "rateLimiter"
  | "events"
  | "payments"
  | "drawNumber"
  | "shippingFeePaise"
  | "freeShippingAbovePaise"
  | "maxPendingOrders"
  | "changes"
  | "timeZone"
  | "shopName"
  | "publicUrl"
  | "announceProfileChange"
  | "metrics"
>;

/**
 * Checkouts per account, an abuse limit: every attempt counts, placed or refused, except a repeat of
 * an order already placed with the same key (a double click). A shopper places a few orders a day.
 */
export const checkoutRateRule: RateRule = { name: "checkout", limit: 10, windowMs: 60 * 60_000, message: "Too many orders in a short time." };
const checkoutKeyRule: RateRule = { name: "checkout-key", limit: 1, windowMs: 60 * 60_000, message: "", fixed: true };

/** How many order numbers a checkout draws before it gives up: one is taken about never, three in a row never. */
const NUMBER_DRAWS = 3;

/**
 * A line's size and its product. `price_paise`: the unit price charged (the sale rule's, decision 047);
 * `listed_price_paise`: the variant's price column, checked under the lock. `label` is empty for a product's only size.
 */
type Product = {
  id: string;
  variantId: string;
  name: string;
  label: string;
  sku: string;
  price_paise: number;
  listed_price_paise: number;
  stock: number;
  category_id: string | null;
};
type PricedLine = { id: string; quantity: number; product: Product };
type PricedLines = { lines: PricedLine[]; subtotalPaise: number };
/** The lines priced, with the applied discount code as judged now, the shipping and the total. */
type PricedCart = PricedLines & { coupon: Judgement | null; discountPaise: number; shippingPaise: number; totalPaise: number };

/** What was priced: the lines, their quantities and prices, and the discount, as the cart's summary fingerprints them (the page sends that). */
const fingerprint = (cart: PricedCart) =>
  cartFingerprint(
    cart.lines.map((line) => ({ id: line.id, quantity: line.quantity, unitPricePaise: line.product.price_paise })),
    cart.coupon ? { code: cart.coupon.code, discountPaise: cart.discountPaise } : null,
  );
/** The order would not be what the shopper saw (or the payment holds): nothing is ordered, and they look again. */
const cartChanged = () => new ConflictError(messages.checkout.cartChanged, { cart: messages.checkout.cartChanged }, ERROR_CODES.cartChanged);

/**
 * Prices the cart and holds the payment for it (outside any transaction: a payment provider is a network
 * call), then one transaction under the shopper's lock checks and decrements the stock of every line (rows
 * locked in product-id order on PostgreSQL, a conditional decrement on both), stores the order with names
 * and prices copied and empties the cart. If any line lacks stock, or the cart is not the one whose
 * fingerprint the checkout page sent, nothing changes and the hold is let go.
 * The same idempotency key never makes a second order. See docs/decisions/009.
 */
export async function placeOrder(ctx: CheckoutContext, viewer: SessionUser | null, input: unknown): Promise<OrderDetail> {
  const started = performance.now();
  try {
    const order = await placeOrderOnce(ctx, viewer, input);
    ctx.metrics.took((performance.now() - started) / 1000, "placed");
    return order;
  } catch (error) {
    ctx.metrics.refused(refusalReason(error));
    ctx.metrics.took((performance.now() - started) / 1000, "refused");
    throw error;
  }
}

async function placeOrderOnce(ctx: CheckoutContext, viewer: SessionUser | null, input: unknown): Promise<OrderDetail> {
  const { db } = ctx;
  const user = requireSignedIn(viewer);
  if (!user.emailVerified) throw new ForbiddenError(messages.checkout.verifyFirst);
  const details = parseInput(checkoutSchema, input);
  const payment = await chosenMethod(ctx, user.id, details.payment);
  const orderMadeByKey = async () => {
    const row = await orderIdWithKey(db, user.id, details.idempotencyKey).executeTakeFirst();
    return row ? loadOrder(db, row.id) : undefined;
  };
  // Counted once per idempotency key: a double click or a retry of one checkout is one attempt. The first
  // request with a key claims it (atomically), and only that one counts against the limit. (A repeat of a
  // placed order is answered by the transaction below, which looks for the key first.)
  await ctx.rateLimiter.hitFirstTime(checkoutKeyRule, `${user.id} ${details.idempotencyKey}`, checkoutRateRule, user.id);

  // A method that holds money is asked to hold the priced amount before the transaction. One that holds
  // nothing (Cash on Delivery) needs no price beforehand: the cart is priced once, under the shopper's lock.
  let quote: PricedCart | undefined;
  let hold: PaymentHold;
  if (payment.holdsNothing) {
    hold = { orderId: randomUUID(), reference: null };
  } else {
    try {
      quote = await priceCart(ctx, db, user.id, await zoneOf(ctx, db, details.pin));
    } catch (error) {
      // A request with the same key may have placed the order, and emptied the cart, a moment ago.
      const winner = await orderMadeByKey();
      if (winner) return winner;
      throw error;
    }
    // Not what the page showed: refused before any money is held (the transaction checks it again), unless
    // this key placed its order already (a retry; the cart may have changed since).
    if (details.cartFingerprint !== undefined && fingerprint(quote) !== details.cartFingerprint) {
      const winner = await orderMadeByKey();
      if (winner) return winner;
      throw cartChanged();
    }
    hold = await payment.authorize({ id: randomUUID(), totalPaise: quote.totalPaise });
  }
  let orderId: string;
  let placed: OrderDetail | undefined;
  try {
    ({ orderId, placed } = await withUniqueNumber(ctx, (number) =>
      inShopperTransaction(ctx.database, user.id, (trx) => storeOrder(ctx, trx, user, details, { method: payment, hold }, quote, number)),
    ));
  } catch (error) {
    await release(ctx, payment, hold);
    // Cannot happen under the shopper's lock; kept so that a racing duplicate is answered with the first order.
    const winner = isUniqueViolation(error) ? await orderMadeByKey() : undefined;
    if (winner) return winner;
    throw error;
  }
  if (orderId !== hold.orderId) await release(ctx, payment, hold);
  const order = placed ?? (await loadOrder(db, orderId))!;
  if (orderId === hold.orderId) {
    ctx.events.info("order.placed", { accountId: user.id, orderId, totalPaise: order.totalPaise, paymentMethod: payment.label });
    ctx.metrics.placed();
  }
  return order;
}

/**
 * The method the shopper chose, if they may use it: UPI only where the shop takes it, Cash on Delivery only where
 * its rules allow (docs/decisions/054). Read before the transaction: the owner turning COD off for this shopper a
 * moment later would not have stopped an order placed a moment earlier either.
 */
async function chosenMethod(ctx: CheckoutContext, userId: string, chosen: "cod" | "upi"): Promise<PaymentMethod> {
  if (chosen === "upi") {
    if (!ctx.payments.upi) throw new InvalidInputError(messages.checkout.upiUnavailable, { payment: messages.checkout.upiUnavailable });
    return ctx.payments.upi;
  }
  const refusal = await codRefusalFor(ctx, userId);
  if (refusal) throw new ConflictError(refusal, { payment: refusal });
  return ctx.payments.cod;
}

/**
 * Runs `store` with a newly drawn order number, and again with another should the number be taken already: the
 * unique index refuses the second order with a number. With 60 bits, one shop in about two million ever sees
 * that happen in a million orders (docs/decisions/036), so a few draws are never all taken.
 */
async function withUniqueNumber<T>(ctx: Pick<CheckoutContext, "drawNumber" | "logger">, store: (number: string) => Promise<T>): Promise<T> {
  for (let draw = 1; ; draw++) {
    const number = ctx.drawNumber();
    try {
      return await store(number);
    } catch (error) {
      if (draw >= NUMBER_DRAWS || !isOrderNumberTaken(error)) throw error;
      ctx.logger.warn({ orderNumber: number }, "order number taken already; drawing another");
    }
  }
}

/**
 * The shopper's cart priced at today's prices; refused when it is empty or any line cannot be ordered as it
 * stands (each such line named). Takes no row lock: see takeStock.
 */
async function priceCart(ctx: PricingContext, from: Kysely<DB>, userId: string, zone: DeliveryZone): Promise<PricedCart> {
  const priced = priceLines(await cartLines(from, userId).orderBy("v.product_id").orderBy("v.id").execute());
  return withDiscount(zone, priced, await appliedCoupon(from, userId, linesToDiscount(priced), ctx.timeZone));
}

type PricingContext = Pick<CheckoutContext, "timeZone">;

/**
 * The delivery zone of the order's PIN code (docs/decisions/053): its fee and free-shipping threshold price the
 * order. A PIN code no zone covers refuses the order (the checkout page said so as soon as the code was known).
 */
async function zoneOf(ctx: Pick<CheckoutContext, "shippingFeePaise" | "freeShippingAbovePaise">, from: Kysely<DB>, pin: string): Promise<DeliveryZone> {
  const zone = await deliveryZoneFor(from, pin, ctx);
  if (!zone) throw new ConflictError(messages.delivery.notDelivered(pin), { pin: messages.delivery.notDelivered(pin) });
  return zone;
}

/** The lines as a discount code sees them: their categories and totals at the prices charged. */
const linesToDiscount = (priced: PricedLines): LineToDiscount[] =>
  priced.lines.map((line) => ({ categoryId: line.product.category_id, lineTotalPaise: line.product.price_paise * line.quantity }));

/**
 * The discount of the code applied to the cart, judged now (the cart's summary judges it the same way), the
 * shipping and the total. A code that no longer gives a discount (expired, used up meanwhile, minimum no longer
 * reached) refuses the order with its reason: the shopper removes it or changes the cart, and sees the new total.
 */
function withDiscount(zone: DeliveryZone, priced: PricedLines, coupon: Judgement | null): PricedCart {
  if (coupon?.problem) throw new ConflictError(coupon.problem, { cart: coupon.problem });
  const discountPaise = Math.min(coupon?.discountPaise ?? 0, priced.subtotalPaise);
  const { shippingPaise } = shippingFor(zone.feePaise, priced.subtotalPaise - discountPaise, zone.freeAbovePaise);
  return { ...priced, coupon, discountPaise, shippingPaise, totalPaise: priced.subtotalPaise - discountPaise + shippingPaise };
}

/** Prices the rows of cartLines (an empty cart has none, or one without a line: see storeOrder). */
function priceLines(rows: CartRow[]): PricedLines {
  // Sale prices: each line's unit price is the one price rule's at this moment (decision 047), as the cart showed it.
  const now = shopClock.now();
  const lines = rows.flatMap((row) => {
    const { id, quantity, product_id, variant_id, variant_label, sku, name, price_paise, stock, category_id } = row;
    if (id === null) return [];
    const product =
      product_id === null
        ? undefined
        : {
            id: product_id,
            variantId: variant_id!,
            name: name!,
            label: variant_label ?? "",
            sku: sku!,
            price_paise: linePriceAt(row, now).chargedPaise,
            listed_price_paise: price_paise!,
            stock: stock!,
            category_id,
          };
    return [{ id, quantity: quantity!, product }];
  });
  if (!lines.length) throw new InvalidInputError(messages.checkout.emptyCart);
  const problems = lines.flatMap((line) => lineProblem(line.product && { name: sellableName(line.product.name, line.product.label), stock: line.product.stock }, line.quantity) ?? []);
  if (problems.length) throw new ConflictError(problems.join(" "), { cart: problems.join(" ") });
  const priced = lines as PricedLine[]; // every product is there: a missing one is a problem above
  const subtotalPaise = priced.reduce((sum, line) => sum + line.product.price_paise * line.quantity, 0);
  return { lines: priced, subtotalPaise };
}

/**
 * Inside the shopper's transaction: stores the order with its lines (names and prices copied), removes the lines
 * it ordered, queues its mail and, if asked, saves the details on the profile; then, last, checks and decrements
 * every line's stock and counts the order on its day. Answers the id of the order this key made, which is an
 * earlier one when the key was used before, and the new order itself when it made one.
 *
 * The products' rows and the day's totals are the rows every checkout shares; they are locked last, by the
 * statements that change them, so each stays locked for those few statements and the commit, not for the whole
 * order (docs/decisions/009: what limits checkouts per second on PostgreSQL is how long the hot rows are held).
 */
async function storeOrder(
  ctx: CheckoutContext,
  trx: Kysely<DB>,
  user: SessionUser,
  details: z.output<typeof checkoutSchema>,
  { method, hold }: { method: PaymentMethod; hold: PaymentHold },
  quote: PricedCart | undefined,
  number: string,
): Promise<{ orderId: string; placed?: OrderDetail }> {
  const { outbox } = ctx;
  // The earlier order with this key, the pending orders and the cart, in one statement: one row of the first
  // two, beside each cart line (or beside none, for an empty cart). The cart is read without row locks: the
  // shopper's lock keeps it still; the stock and prices are checked again below by the statements that lock
  // the products.
  const rows = await keyPendingAndCart.execute(trx, { userId: user.id, key: details.idempotencyKey, maxPending: ctx.maxPendingOrders });
  const { earlier, pending } = rows[0]!;
  if (earlier) return { orderId: earlier };
  refuseTooManyUnpaid(ctx, user.id, Number(pending));
  // The applied code came with the first row (the same on every row), read in the same statement as the lines.
  const lines = priceLines(rows);
  const zone = await zoneOf(ctx, trx, details.pin);
  const cart = withDiscount(zone, lines, judgeAppliedCoupon(rows[0], linesToDiscount(lines), ctx.timeZone));
  // A line added or changed (another tab) or a new price since the checkout page showed its summary, or since
  // the payment was held: the shopper looks again. For every method, Cash on Delivery too; from the rows read above.
  const ordering = fingerprint(cart);
  if (details.cartFingerprint !== undefined && details.cartFingerprint !== ordering) throw cartChanged();
  if (quote && fingerprint(quote) !== ordering) throw cartChanged();
  // The shipping the page showed was for another zone (the PIN code typed without the page seeing it): look again.
  if (details.shippingPaise !== undefined && details.shippingPaise !== cart.shippingPaise) {
    const changed = messages.delivery.shippingChanged(details.pin, formatPriceExact(cart.shippingPaise));
    throw new ConflictError(changed, { cart: changed }, ERROR_CODES.cartChanged);
  }
  // Cash on Delivery where the zone does not take it, or above its limit: refused with the reason.
  const codRefused = method === ctx.payments.cod ? codRefusal(zone, cart.totalPaise, details.pin) : null;
  if (codRefused) {
    const offered = withUpiOffered(ctx, codRefused);
    throw new ConflictError(offered, { payment: offered });
  }
  const now = new Date().toISOString();
  // The day of the daily totals this order counts on (docs/decisions/024), kept with it for a cancellation.
  const countedOn = shopDay(now, ctx.timeZone);
  const columns = {
    id: hold.orderId,
    user_id: user.id,
    status: method.placesAs,
    subtotal_paise: cart.subtotalPaise,
    discount_paise: cart.discountPaise,
    coupon_code: cart.coupon?.code ?? null,
    shipping_paise: cart.shippingPaise,
    total_paise: cart.totalPaise,
    ship_name: details.name,
    ship_phone: details.phone,
    ship_address: details.address,
    ship_pin: details.pin,
    payment_method: method.label,
    idempotency_key: details.idempotencyKey,
    number,
    counted_on: countedOn,
    created_at: now,
    updated_at: now,
  };
  const order: OrderRow = { ...columns, customer_name: details.saveToProfile ? details.name : user.name, customer_email: user.email };
  const orderLines = cart.lines.map(({ product, quantity }, position) => ({
    id: randomUUID(),
    order_id: hold.orderId,
    position,
    product_id: product.id,
    // The size as it was sold (decision 048): kept with the order, whatever becomes of the variant.
    variant_id: product.variantId,
    variant_label: product.label || null,
    sku: product.sku,
    name: product.name,
    unit_price_paise: product.price_paise,
    quantity,
  }));
  const ordered = cart.lines.map((line) => line.id);
  // A gift's row, stored in this transaction with the order; an order that is no gift stores none (decision 052).
  const gift = giftOf(details);
  const giftRow = gift && { order_id: hold.orderId, recipient_name: gift.recipientName, recipient_phone: gift.recipientPhone, message: gift.message, hide_prices: gift.hidePrices ? 1 : 0 };
  // A method whose money must arrive first (UPI): its payment's row, awaiting until the time it is due (docs/decisions/054).
  const paymentRow =
    method.placesAs === "awaiting_payment"
      ? { order_id: hold.orderId, method: method.id, state: "awaiting", reference: null, pay_by: new Date(shopClock.now() + (method.payWithinMinutes ?? 30) * 60_000).toISOString(), updated_at: now }
      : null;
  // Built from the rows about to be written, not read back: the same detail, two statements fewer.
  const placed = toDetail(order, orderLines, giftRow, paymentRow);
  // The confirmation commits with the order: no order without its mail, no mail for an order that never was.
  const confirmation = orderMail(ctx, placed.status === "awaiting_payment" ? "awaiting" : "placed", { ...placed, customer: { ...placed.customer, email: user.email } });
  const use = cart.coupon ? { couponId: cart.coupon.couponId, orderId: hold.orderId, userId: user.id, now } : null;
  if (ctx.database.dialect === "postgres") {
    const mail = outbox.enqueueWithin(trx, confirmation);
    await storeOrderRows.execute(trx, {
      ...columns,
      lineIds: orderLines.map((line) => line.id),
      lineProductIds: orderLines.map((line) => line.product_id),
      lineVariantIds: orderLines.map((line) => line.variant_id),
      lineVariantLabels: orderLines.map((line) => line.variant_label),
      lineSkus: orderLines.map((line) => line.sku),
      lineNames: orderLines.map((line) => line.name),
      linePrices: orderLines.map((line) => line.unit_price_paise),
      lineQuantities: orderLines.map((line) => line.quantity),
      ordered,
      mailId: mail.id,
      mailKind: mail.kind,
      mailReference: mail.reference,
      mailRecipient: mail.recipient,
      mailSubject: mail.subject,
      mailTextBody: mail.textBody,
      mailHtmlBody: mail.htmlBody,
      mailHeaders: mail.headers,
      mailQueuedAt: mail.queuedAt,
    });
  } else {
    await trx.insertInto("orders").values(columns).execute();
    await trx.insertInto("order_lines").values(orderLines).execute();
    await outbox.enqueue(trx, confirmation);
    await deleteOrderedLines(trx, ordered);
    // The code's row is shared by every checkout using it: counted late (on PostgreSQL by the last statement, with the stock).
    if (use) refuseCode(await claimCouponUse(trx, use, ctx.database.dialect));
  }
  // After the order's row (on PostgreSQL written by the statement above), which it references.
  if (giftRow) await trx.insertInto("order_gifts").values(giftRow).execute();
  if (paymentRow) await trx.insertInto("order_payments").values(paymentRow).execute();
  if (details.saveToProfile) {
    await saveDeliveryDetails(trx, user.id, details, now);
    // The name is public (the profile page, the person's reviews): announced once the order commits.
    if (details.name !== user.name) await ctx.announceProfileChange(trx, user.id, { renamed: true });
  }
  // Last, so the day's row (one for every checkout of the day) stays locked only until commit; on PostgreSQL
  // counted by the statement that takes the last line's stock, one round trip less while both rows are held.
  await takeStock(ctx, trx, cart, now, { day: countedOn, totalPaise: cart.totalPaise }, use);
  return { orderId: hold.orderId, placed };
}

/**
 * Decrements every line's stock in product-id order (so two checkouts cannot deadlock), each by one conditional
 * update that locks the row: it changes nothing unless the stock covers the line, and it answers the price it
 * found, so a price changed since the cart was read is caught here, under the lock. Never oversells.
 */
async function takeStock(
  ctx: Pick<CheckoutContext, "database" | "changes">,
  trx: Kysely<DB>,
  cart: PricedCart,
  now: string,
  count: { day: string; totalPaise: number },
  use: CouponUse | null,
) {
  const postgres = ctx.database.dialect === "postgres";
  const last = cart.lines.at(-1);
  for (const line of cart.lines) {
    const values = { productId: line.product.id, variantId: line.product.variantId, quantity: line.quantity, now, day: count.day, totalPaise: count.totalPaise };
    // On PostgreSQL the day is counted, and the code's use (SQLite's was counted in storeOrder), by the statement
    // that takes the last line's stock: the rows every checkout shares are locked together, for that statement and the commit.
    const countsTheDay = line === last && postgres;
    let taken: { price_paise: number; stock: number; product_stock: number; claimed?: string | null } | undefined;
    if (!postgres) {
      // SQLite has no writing CTE: the variant's stock, then (only if taken) its product's total, one statement each.
      const variant = await takeVariantStock.executeTakeFirst(trx, values);
      const product = variant && (await takeProductStock.executeTakeFirstOrThrow(trx, values));
      taken = variant && product && { price_paise: variant.price_paise, stock: variant.stock, product_stock: product.stock };
    } else if (countsTheDay && use) {
      taken = await takeLineStockCountDayAndClaimCode.executeTakeFirst(trx, { ...values, couponId: use.couponId, orderId: use.orderId, userId: use.userId });
    } else {
      taken = await (countsTheDay ? takeLineStockAndCountDay : takeLineStock).executeTakeFirst(trx, values);
    }
    if (!taken) {
      // Bought by somebody else since the cart was read (or deleted): the same message the cart would show.
      const variant = await readStock(trx, line.product.variantId);
      const name = sellableName(line.product.name, line.product.label);
      const problem = lineProblem(variant && { name, stock: variant.stock }, line.quantity) ?? messages.checkout.shortage(name, variant?.stock ?? 0);
      throw new ConflictError(problem, { cart: problem });
    }
    if (taken.price_paise !== line.product.listed_price_paise) throw cartChanged();
    if (countsTheDay && use && !taken.claimed) refuseCode(await couponUseRefusal(trx, use.couponId));
    // The last one taken: lists show the plant as no longer for sale (docs/decisions/044); the last of a size: its
    // product page at that size says 'Not in Stock' from now on, not after the page is next made again.
    ctx.changes.publish(trx, { type: "product", productId: line.product.id, aspects: taken.stock === 0 || taken.product_stock === 0 ? ["stock", "availability"] : ["stock"] });
  }
  if (!postgres) await countPlacedOrder(trx, count.day, count.totalPaise);
}

/**
 * An order placed without paying (Cash on Delivery, or UPI not yet paid) costs nothing, so without a cap one
 * account could hold the whole stock with orders it never means to pay. Checked under the shopper's lock (inside
 * storeOrder), so parallel checkouts of one account cannot all pass it. Only unpaid orders nobody has started on
 * count: a processing or shipped order was seen by the shop, and a paid one is paid.
 */
function refuseTooManyUnpaid(ctx: Pick<CheckoutContext, "maxPendingOrders" | "events">, userId: string, pending: number) {
  if (pending >= ctx.maxPendingOrders) {
    ctx.events.warn("limit.hit", { limit: "pending-orders", subject: userId, max: ctx.maxPendingOrders });
    throw new ConflictError(messages.checkout.tooManyPending(ctx.maxPendingOrders));
  }
}

/** A code whose use was not counted (used up, paused or deleted meanwhile) refuses the order, which rolls back whole. */
function refuseCode(refused: string | null): void {
  if (refused) throw new ConflictError(refused, { cart: refused });
}

/** A hold whose order was not stored is let go; a failure to do so is logged (money may stay held), never thrown. */
async function release(ctx: Pick<CheckoutContext, "logger">, payment: PaymentMethod, hold: PaymentHold) {
  await payment.release(hold).catch((error: unknown) => ctx.logger.error({ err: error, orderId: hold.orderId }, "payment hold could not be released"));
}
