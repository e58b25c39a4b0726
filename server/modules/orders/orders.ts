import { randomUUID } from "node:crypto";
import { sql, type InferResult, type Insertable, type Kysely, type Nullable, type QueryCreator, type Selectable } from "kysely";
import type { Logger } from "pino";
import { messages } from "#common/shared/messages.ts";
import { ERROR_CODES } from "#common/shared/user-facing-error.ts";
import { formatPriceExact } from "#common/shared/money.ts";
import { NEXT_STATUSES, legacyOrderNumber, type AdminOrderPage, type OrderDetail, type OrderStatus, type OrderSummary, type ViewedOrder } from "#common/orders/order-types.ts";
import { checkoutSchema } from "#common/cart/cart-schemas.ts";
import { adminOrdersQuerySchema, orderStatusSchema, setOrderStatusSchema } from "#common/orders/order-schemas.ts";
import { idSchema } from "#common/shared/fields.ts";
import type { z } from "zod";
import type { Database } from "../../platform/db/client.ts";
import type { DB, OrderLineTable, OrderTable } from "../../platform/db/schema.ts";
import { toIsoString } from "../../platform/db/values.ts";
import { compiledOnce } from "../../platform/db/compiled-once.ts";
import { inShopperTransaction, inWriteTransaction, isUniqueViolation } from "../../platform/db/write-transaction.ts";
import { announceProfileChange } from "../accounts/index.ts";
import { cartFingerprint, lineProblem } from "../cart/index.ts";
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError, parseInput } from "../../platform/errors.ts";
import { insertOutboxRow, type MailOutbox, type OutboxMail } from "../../platform/mail/mail-outbox.ts";
import { orderEmail } from "./order-mails.ts";
import { isOrderNumberTaken, newOrderNumber } from "./order-numbers.ts";
import { countCancelledOrder, countPlacedOrder, placedOrderCount } from "./daily-totals.ts";
import { shopDay } from "../../platform/shop-day.ts";
import { cashOnDelivery, type PaymentHold, type PaymentMethod } from "./payments.ts";
import type { EventLog } from "../../platform/event-log.ts";
import type { ChangeFeed } from "../../platform/change-feed/change-feed.ts";
import type { RateLimiter, RateRule } from "../../platform/rate-limit/rate-limit.ts";
import { requireAdmin, requireSignedIn, type SessionUser } from "../../platform/session-user.ts";

export interface OrdersDependencies {
  database: Pick<Database, "db" | "dialect">;
  /** Order e-mails are queued in the order's own transaction and sent by the mail worker (./mail-outbox.ts). */
  outbox: MailOutbox;
  logger: Logger;
  shopName: string;
  publicUrl: URL;
  shippingFeePaise: number;
  payment?: PaymentMethod;
  rateLimiter: RateLimiter;
  events: EventLog;
  /** How many Cash-on-Delivery orders one account may have pending at once (MAX_PENDING_ORDERS). */
  maxPendingOrders: number;
  /** Told, after commit, of every product whose stock an order took or gave back (live pages, caches). */
  changes: ChangeFeed;
  /** The shop's time zone (SHOP_TIME_ZONE): the day an order counts for in the daily totals. */
  timeZone: string;
  /** Draws a new order's number; tests give one that repeats itself, to prove a collision is drawn again. */
  orderNumbers?: () => string;
}

/**
 * Checkouts per account (docs/decisions/014): every attempt counts, placed or refused, except a repeat of
 * an order already placed with the same key (a double click). A shopper places a few orders a day.
 */
export const checkoutRateRule: RateRule = { name: "checkout", limit: 10, windowMs: 60 * 60_000, message: "Too many orders in a short time." };
const checkoutKeyRule: RateRule = { name: "checkout-key", limit: 1, windowMs: 60 * 60_000, message: "", fixed: true };

const ADMIN_PAGE_SIZE = 20;
/** How many order numbers a checkout draws before it gives up: one is taken about never, three in a row never. */
const NUMBER_DRAWS = 3;
/** The owner may cancel their own order only while nobody has started on it. */
const OWNER_CANCELS_FROM: OrderStatus[] = ["pending"];

type Product = { id: string; name: string; price_paise: number; stock: number };
type PricedLine = { id: string; quantity: number; product: Product };
type PricedCart = { lines: PricedLine[]; subtotalPaise: number; totalPaise: number };

/** What was priced: the lines, their quantities and prices, as the cart's summary fingerprints them (the page sends that). */
const fingerprint = (cart: PricedCart) => cartFingerprint(cart.lines.map((line) => ({ id: line.id, quantity: line.quantity, unitPricePaise: line.product.price_paise })));
/** The order would not be what the shopper saw (or the payment holds): nothing is ordered, and they look again. */
const cartChanged = () => new ConflictError(messages.checkout.cartChanged, { cart: messages.checkout.cartChanged }, ERROR_CODES.cartChanged);

/** What storeOrderRows writes on PostgreSQL: the order's columns, its lines column by column, the cart lines it empties and its mail. */
type StoredOrder = Omit<Insertable<OrderTable>, "counted_on" | "number"> & {
  counted_on: string;
  number: string;
  lineIds: string[];
  lineProductIds: string[];
  lineNames: string[];
  linePrices: number[];
  lineQuantities: number[];
  ordered: string[];
  mailId: string;
  mailKind: string;
  mailReference: string | null;
  mailRecipient: string;
  mailSubject: string;
  mailTextBody: string;
  mailHtmlBody: string;
  mailQueuedAt: string;
};

/** Orders with their customer's name and e-mail, the one way every order query starts. */
function ordersWithCustomer(from: Kysely<DB>) {
  return from
    .selectFrom("orders")
    .innerJoin("users", "users.id", "orders.user_id")
    .selectAll("orders")
    .select(["users.name as customer_name", "users.email as customer_email"]);
}
type OrderRow = Selectable<OrderTable> & { customer_name: string; customer_email: string };

export type OrdersService = ReturnType<typeof createOrdersService>;

/** Checkout and orders: the rules that keep the shop from selling what it does not have. */
export function createOrdersService(deps: OrdersDependencies) {
  const { database, outbox, logger, rateLimiter, events } = deps;
  const { db } = database;
  const payment = deps.payment ?? cashOnDelivery;
  const forUpdate = database.dialect === "postgres" ? sql` for update` : sql``;
  const drawNumber = deps.orderNumbers ?? newOrderNumber;

  /**
   * Runs `store` with a newly drawn order number, and again with another should the number be taken already: the
   * unique index refuses the second order with a number. With 60 bits, one shop in about two million ever sees
   * that happen in a million orders (docs/decisions/036), so a few draws are never all taken.
   */
  async function withUniqueNumber<T>(store: (number: string) => Promise<T>): Promise<T> {
    for (let draw = 1; ; draw++) {
      const number = drawNumber();
      try {
        return await store(number);
      } catch (error) {
        if (draw >= NUMBER_DRAWS || !isOrderNumberTaken(error)) throw error;
        logger.warn({ orderNumber: number }, "order number taken already; drawing another");
      }
    }
  }

  async function loadOrder(orderId: unknown, from: Kysely<DB> = db): Promise<OrderDetail | undefined> {
    const id = idSchema.safeParse(orderId);
    if (!id.success) return undefined;
    const order = await ordersWithCustomer(from).where("orders.id", "=", id.data).executeTakeFirst();
    if (!order) return undefined;
    const lines = await from.selectFrom("order_lines").selectAll().where("order_id", "=", order.id).orderBy("position").execute();
    return toDetail(order, lines);
  }

  /** The order if the viewer may see it: its owner or an admin. Anyone else gets the same 404 as for none. */
  async function visibleOrder(viewer: SessionUser | null, orderId: unknown): Promise<OrderDetail> {
    const user = requireSignedIn(viewer);
    const order = await loadOrder(orderId);
    if (!order || (order.userId !== user.id && !user.isAdmin)) throw new NotFoundError(messages.orders.notFound);
    return order;
  }

  /** The shopper's order placed with this idempotency key: a query, run alone or inside another statement. */
  function orderIdWithKey(from: QueryCreator<DB>, userId: string, key: string) {
    return from.selectFrom("orders").select("id").where("user_id", "=", userId).where("idempotency_key", "=", key);
  }

  /** The shopper's cart lines with their products (none for a product deleted since); callers choose the order. */
  function cartLines(from: Kysely<DB>, userId: string) {
    return from
      .selectFrom("cart_items as ci")
      .leftJoin("products as p", "p.id", "ci.product_id")
      .select(["ci.id", "ci.quantity", "p.id as product_id", "p.name", "p.price_paise", "p.stock"])
      .where("ci.user_id", "=", userId);
  }

  /**
   * The shopper's cart priced at today's prices; refused when it is empty or any line cannot be ordered as it
   * stands (each such line named). Takes no row lock: see takeStock.
   */
  async function priceCart(from: Kysely<DB>, userId: string): Promise<PricedCart> {
    return priceLines(await cartLines(from, userId).orderBy("ci.product_id").execute());
  }

  /** A row of cartLines, every column nullable: storeOrder left-joins the lines, so an empty cart is a row of nulls. */
  type CartRow = Nullable<InferResult<ReturnType<typeof cartLines>>[number]>;

  /**
   * On PostgreSQL, one round trip: the order, its lines, its mail and the cart lines it empties, as one statement
   * (the lines' foreign key is checked at its end, when the order is there). The lines and the emptied cart go as
   * arrays, so that the statement's text is the same for any number of lines and is compiled once.
   */
  const storeOrderRows = compiledOnce((db, v: StoredOrder) =>
    db
      .with("o", (q) =>
        q.insertInto("orders").values({
          id: v.id,
          user_id: v.user_id,
          status: v.status,
          subtotal_paise: v.subtotal_paise,
          shipping_paise: v.shipping_paise,
          total_paise: v.total_paise,
          ship_name: v.ship_name,
          ship_phone: v.ship_phone,
          ship_address: v.ship_address,
          payment_method: v.payment_method,
          idempotency_key: v.idempotency_key,
          number: v.number,
          counted_on: v.counted_on,
          created_at: v.created_at,
          updated_at: v.updated_at,
        }),
      )
      .with("l", (q) =>
        q
          .insertInto("order_lines")
          .columns(["id", "order_id", "position", "product_id", "name", "unit_price_paise", "quantity"])
          .expression(
            sql`select l.id, ${v.id}, l.position - 1, l.product_id, l.name, l.unit_price_paise, l.quantity
              from unnest(${v.lineIds}::text[], ${v.lineProductIds}::text[], ${v.lineNames}::text[], ${v.linePrices}::bigint[], ${v.lineQuantities}::integer[])
              with ordinality as l(id, product_id, name, unit_price_paise, quantity, position)`,
          ),
      )
      .with("m", (q) =>
        insertOutboxRow(q, {
          id: v.mailId,
          kind: v.mailKind,
          reference: v.mailReference,
          recipient: v.mailRecipient,
          subject: v.mailSubject,
          textBody: v.mailTextBody,
          htmlBody: v.mailHtmlBody,
          queuedAt: v.mailQueuedAt,
        }),
      )
      .deleteFrom("cart_items")
      .where(sql<boolean>`id = any(${v.ordered}::text[])`),
  );

  /** What storeOrder reads first, in one statement (see there). */
  const keyPendingAndCart = compiledOnce((db, { userId, key, maxPending }: { userId: string; key: string; maxPending: number }) =>
    db
      .selectFrom(
        db
          .selectNoFrom((eb) => [
            orderIdWithKey(db, userId, key).as("earlier"),
            // Counted only up to the cap, all the check needs: a shopper whose pending orders passed it (the cap
            // was lowered since) costs no more than one at it.
            eb
              .selectFrom(
                eb
                  .selectFrom("orders")
                  .select("id")
                  .where("user_id", "=", userId)
                  .where("status", "=", "pending")
                  .where("payment_method", "=", cashOnDelivery.label)
                  .limit(maxPending)
                  .as("p"),
              )
              .select((count) => count.fn.countAll<number>().as("n"))
              .as("pending"),
          ])
          .as("k"),
      )
      .leftJoin(cartLines(db, userId).as("line"), (join) => join.onTrue())
      .select(["k.earlier", "k.pending", "line.id", "line.quantity", "line.product_id", "line.name", "line.price_paise", "line.stock"])
      .orderBy("line.product_id"),
  );

  /** Prices the rows of cartLines (an empty cart has none, or one without a line: see storeOrder). */
  function priceLines(rows: CartRow[]): PricedCart {
    const lines = rows.flatMap(({ id, quantity, product_id, name, price_paise, stock }) =>
      id === null ? [] : [{ id, quantity: quantity!, product: product_id === null ? undefined : { id: product_id, name: name!, price_paise: price_paise!, stock: stock! } }],
    );
    if (!lines.length) throw new InvalidInputError(messages.checkout.emptyCart);
    const problems = lines.flatMap((line) => lineProblem(line.product, line.quantity) ?? []);
    if (problems.length) throw new ConflictError(problems.join(" "), { cart: problems.join(" ") });
    const priced = lines as PricedLine[]; // every product is there: a missing one is a problem above
    const subtotalPaise = priced.reduce((sum, line) => sum + line.product.price_paise * line.quantity, 0);
    return { lines: priced, subtotalPaise, totalPaise: subtotalPaise + deps.shippingFeePaise };
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
    trx: Kysely<DB>,
    user: SessionUser,
    details: z.output<typeof checkoutSchema>,
    hold: PaymentHold,
    quote: PricedCart | undefined,
    number: string,
  ): Promise<{ orderId: string; placed?: OrderDetail }> {
    // The earlier order with this key, the pending orders and the cart, in one statement: one row of the first
    // two, beside each cart line (or beside none, for an empty cart). The cart is read without row locks: the
    // shopper's lock keeps it still; the stock and prices are checked again below by the statements that lock
    // the products.
    const rows = await keyPendingAndCart.execute(trx, { userId: user.id, key: details.idempotencyKey, maxPending: deps.maxPendingOrders });
    const { earlier, pending } = rows[0]!;
    if (earlier) return { orderId: earlier };
    refuseTooManyPending(user.id, Number(pending));
    const cart = priceLines(rows);
    // A line added or changed (another tab) or a new price since the checkout page showed its summary, or since
    // the payment was held: the shopper looks again. For every method, Cash on Delivery too; from the rows read above.
    const ordering = fingerprint(cart);
    if (details.cartFingerprint !== undefined && details.cartFingerprint !== ordering) throw cartChanged();
    if (quote && fingerprint(quote) !== ordering) throw cartChanged();
    const now = new Date().toISOString();
    // The day of the daily totals this order counts on (docs/decisions/024), kept with it for a cancellation.
    const countedOn = shopDay(now, deps.timeZone);
    const columns = {
      id: hold.orderId,
      user_id: user.id,
      status: "pending",
      subtotal_paise: cart.subtotalPaise,
      shipping_paise: deps.shippingFeePaise,
      total_paise: cart.totalPaise,
      ship_name: details.name,
      ship_phone: details.phone,
      ship_address: details.address,
      payment_method: payment.label,
      idempotency_key: details.idempotencyKey,
      number,
      counted_on: countedOn,
      created_at: now,
      updated_at: now,
    };
    const order: OrderRow = { ...columns, customer_name: details.saveToProfile ? details.name : user.name, customer_email: user.email };
    const lines = cart.lines.map(({ product, quantity }, position) => ({
      id: randomUUID(),
      order_id: hold.orderId,
      position,
      product_id: product.id,
      name: product.name,
      unit_price_paise: product.price_paise,
      quantity,
    }));
    const ordered = cart.lines.map((line) => line.id);
    // Built from the rows about to be written, not read back: the same detail, two statements fewer.
    const placed = toDetail(order, lines);
    // The confirmation commits with the order: no order without its mail, no mail for an order that never was.
    const confirmation = orderMail("placed", placed);
    if (database.dialect === "postgres") {
      const mail = outbox.enqueueWithin(trx, confirmation);
      await storeOrderRows.execute(trx, {
        ...columns,
        lineIds: lines.map((line) => line.id),
        lineProductIds: lines.map((line) => line.product_id),
        lineNames: lines.map((line) => line.name),
        linePrices: lines.map((line) => line.unit_price_paise),
        lineQuantities: lines.map((line) => line.quantity),
        ordered,
        mailId: mail.id,
        mailKind: mail.kind,
        mailReference: mail.reference,
        mailRecipient: mail.recipient,
        mailSubject: mail.subject,
        mailTextBody: mail.textBody,
        mailHtmlBody: mail.htmlBody,
        mailQueuedAt: mail.queuedAt,
      });
    } else {
      await trx.insertInto("orders").values(columns).execute();
      await trx.insertInto("order_lines").values(lines).execute();
      await outbox.enqueue(trx, confirmation);
      await trx.deleteFrom("cart_items").where("id", "in", ordered).execute();
    }
    if (details.saveToProfile) {
      await trx.updateTable("users").set({ name: details.name, phone: details.phone, address: details.address, updatedAt: now }).where("id", "=", user.id).execute();
      // The name is public (the profile page, the person's reviews): announced once the order commits.
      if (details.name !== user.name) await announceProfileChange(deps.changes, trx, user.id, { renamed: true });
    }
    // Last, so the day's row (one for every checkout of the day) stays locked only until commit; on PostgreSQL
    // counted by the statement that takes the last line's stock, one round trip less while both rows are held.
    await takeStock(trx, cart, now, { day: countedOn, totalPaise: cart.totalPaise });
    return { orderId: hold.orderId, placed };
  }

  /** A line's stock taken if it covers the line, answering the price found; the row stays locked until commit. */
  const decrementStock = (db: QueryCreator<DB>, { productId, quantity, now }: { productId: string; quantity: number; now: string }) =>
    db
      .updateTable("products")
      .set({ stock: sql`stock - ${quantity}`, updated_at: now })
      .where("id", "=", productId)
      .where("stock", ">=", quantity)
      .returning(["price_paise"]);
  type TakenLine = { productId: string; quantity: number; now: string; day: string; totalPaise: number };
  const takeLineStock = compiledOnce((db, line: TakenLine) => decrementStock(db, line));
  /** The same, and the order counted on its day only when the stock was taken (else the transaction rolls back anyway). */
  const takeLineStockAndCountDay = compiledOnce((db, line: TakenLine) =>
    db
      .with("taken", (q) => decrementStock(q, line))
      .with("counted", (q) => placedOrderCount(q, line.day, line.totalPaise, q.selectFrom("taken").select(sql`1`.as("one"))))
      .selectFrom("taken")
      .select("price_paise"),
  );

  /**
   * Decrements every line's stock in product-id order (so two checkouts cannot deadlock), each by one conditional
   * update that locks the row: it changes nothing unless the stock covers the line, and it answers the price it
   * found, so a price changed since the cart was read is caught here, under the lock. Never oversells.
   */
  async function takeStock(trx: Kysely<DB>, cart: PricedCart, now: string, count: { day: string; totalPaise: number }) {
    const last = cart.lines.at(-1);
    for (const line of cart.lines) {
      const values = { productId: line.product.id, quantity: line.quantity, now, day: count.day, totalPaise: count.totalPaise };
      // On PostgreSQL the day is counted by the statement that takes the last line's stock (see storeOrder).
      const countsTheDay = line === last && database.dialect === "postgres";
      const taken = await (countsTheDay ? takeLineStockAndCountDay : takeLineStock).executeTakeFirst(trx, values);
      if (!taken) {
        // Bought by somebody else since the cart was read (or deleted): the same message the cart would show.
        const product = await trx.selectFrom("products").select(["name", "stock"]).where("id", "=", line.product.id).executeTakeFirst();
        const problem = lineProblem(product, line.quantity) ?? messages.checkout.shortage(line.product.name, product?.stock ?? 0);
        throw new ConflictError(problem, { cart: problem });
      }
      if (taken.price_paise !== line.product.price_paise) throw cartChanged();
      deps.changes.publish(trx, { type: "product", productId: line.product.id, aspects: ["stock"] });
    }
    if (database.dialect !== "postgres") await countPlacedOrder(trx, count.day, count.totalPaise);
  }

  /**
   * Cash on Delivery costs nothing to order, so without a cap one account could hold the whole stock with orders
   * it never means to pay. Checked under the shopper's lock (inside storeOrder), so parallel checkouts of one
   * account cannot all pass it. Only orders nobody has started on count: a processing or shipped order was seen
   * by the shop. Paid orders (a future card method) are not capped.
   */
  function refuseTooManyPending(userId: string, pending: number) {
    if (payment.id !== cashOnDelivery.id) return;
    if (pending >= deps.maxPendingOrders) {
      events.warn("limit.hit", { limit: "pending-orders", subject: userId, max: deps.maxPendingOrders });
      throw new ConflictError(messages.checkout.tooManyPending(deps.maxPendingOrders));
    }
  }

  /** A hold whose order was not stored is let go; a failure to do so is logged (money may stay held), never thrown. */
  async function release(hold: PaymentHold) {
    await payment.release(hold).catch((error: unknown) => logger.error({ err: error, orderId: hold.orderId }, "payment hold could not be released"));
  }

  /** Queues an order's news to its customer in the transaction that made it; the worker sends it after commit. */
  async function notify(trx: Kysely<DB>, kind: "placed" | "shipped" | "cancelled", order: OrderDetail) {
    await outbox.enqueue(trx, orderMail(kind, order));
  }

  /** An order's news to its customer, as the outbox queues it. */
  function orderMail(kind: "placed" | "shipped" | "cancelled", order: OrderDetail): OutboxMail {
    return {
      kind: `order-${kind}`,
      reference: order.id,
      to: order.customer.email,
      ...orderEmail(kind, {
        shopName: deps.shopName,
        name: order.customer.name,
        orderNumber: order.number,
        url: `${deps.publicUrl.origin}/orders/${order.id}`,
        lines: order.lines.map((l) => ({ name: l.name, quantity: l.quantity, lineTotal: formatPriceExact(l.lineTotalPaise) })),
        subtotal: formatPriceExact(order.subtotalPaise),
        shipping: formatPriceExact(order.shippingPaise),
        total: formatPriceExact(order.totalPaise),
        address: `${order.shipName}\n${order.shipAddress}\n${order.shipPhone}`,
      }),
    };
  }

  /** Puts back the stock of a cancelled order's lines (inside the caller's transaction). */
  async function returnStock(trx: Kysely<DB>, orderId: string) {
    const lines = await trx.selectFrom("order_lines").select(["product_id", "quantity"]).where("order_id", "=", orderId).orderBy("product_id").execute();
    for (const line of lines) {
      if (!line.product_id) continue;
      await trx
        .updateTable("products")
        .set({ stock: sql`stock + ${line.quantity}`, updated_at: new Date().toISOString() })
        .where("id", "=", line.product_id)
        .execute();
      deps.changes.publish(trx, { type: "product", productId: line.product_id, aspects: ["stock"] });
    }
  }

  async function changeStatus(orderId: string, from: OrderStatus[], to: OrderStatus): Promise<OrderDetail> {
    const changed = await inWriteTransaction(database, async (trx) => {
      const row = (await sql<{ status: OrderStatus }>`select status from orders where id = ${orderId}${forUpdate}`.execute(trx)).rows[0];
      if (!row) throw new NotFoundError(messages.orders.notFound);
      if (!from.includes(row.status)) {
        throw new ConflictError(to === "cancelled" && !from.includes("processing") ? messages.orders.cannotCancel : messages.orders.badTransition(row.status, to));
      }
      await trx.updateTable("orders").set({ status: to, updated_at: new Date().toISOString() }).where("id", "=", orderId).execute();
      if (to === "cancelled") await returnStock(trx, orderId);
      const order = await loadOrder(orderId, trx);
      if (order && (to === "shipped" || to === "cancelled")) await notify(trx, to, order);
      // A cancelled order leaves the revenue of the day it counted on (cancelling is final: no way back).
      if (order && to === "cancelled") {
        const { counted_on } = await trx.selectFrom("orders").select("counted_on").where("id", "=", orderId).executeTakeFirstOrThrow();
        await countCancelledOrder(trx, counted_on ?? shopDay(order.createdAt, deps.timeZone), order.totalPaise);
      }
      return order;
    });
    if (!changed) throw new NotFoundError(messages.orders.notFound);
    return changed;
  }

  async function listSummaries(query: ReturnType<typeof ordersWithCustomer>): Promise<OrderSummary[]> {
    const orders = await query.orderBy("orders.created_at", "desc").orderBy("orders.id", "desc").execute();
    if (!orders.length) return [];
    const counts = await db
      .selectFrom("order_lines")
      .select(["order_id", (eb) => eb.fn.sum<number>("quantity").as("units")])
      .where("order_id", "in", orders.map((o) => o.id))
      .groupBy("order_id")
      .execute();
    const units = new Map(counts.map((c) => [c.order_id, Number(c.units)]));
    return orders.map((o) => toSummary(o, units.get(o.id) ?? 0));
  }

  return {
    /**
     * Prices the cart and holds the payment for it (outside any transaction: a payment provider is a network
     * call), then one transaction under the shopper's lock checks and decrements the stock of every line (rows
     * locked in product-id order on PostgreSQL, a conditional decrement on both), stores the order with names
     * and prices copied and empties the cart. If any line lacks stock, or the cart is not the one whose
     * fingerprint the checkout page sent, nothing changes and the hold is let go.
     * The same idempotency key never makes a second order. See docs/decisions/009.
     */
    async placeOrder(viewer: SessionUser | null, input: unknown): Promise<OrderDetail> {
      const user = requireSignedIn(viewer);
      if (!user.emailVerified) throw new ForbiddenError(messages.checkout.verifyFirst);
      const details = parseInput(checkoutSchema, input);
      const orderMadeByKey = async () => {
        const row = await orderIdWithKey(db, user.id, details.idempotencyKey).executeTakeFirst();
        return row ? loadOrder(row.id) : undefined;
      };
      // Counted once per idempotency key: a double click or a retry of one checkout is one attempt. The first
      // request with a key claims it (atomically), and only that one counts against the limit. (A repeat of a
      // placed order is answered by the transaction below, which looks for the key first.)
      await rateLimiter.hitFirstTime(checkoutKeyRule, `${user.id} ${details.idempotencyKey}`, checkoutRateRule, user.id);

      // A method that holds money is asked to hold the priced amount before the transaction. One that holds
      // nothing (Cash on Delivery) needs no price beforehand: the cart is priced once, under the shopper's lock.
      let quote: PricedCart | undefined;
      let hold: PaymentHold;
      if (payment.holdsNothing) {
        hold = { orderId: randomUUID(), reference: null };
      } else {
        try {
          quote = await priceCart(db, user.id);
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
        ({ orderId, placed } = await withUniqueNumber((number) => inShopperTransaction(database, user.id, (trx) => storeOrder(trx, user, details, hold, quote, number))));
      } catch (error) {
        await release(hold);
        // Cannot happen under the shopper's lock; kept so that a racing duplicate is answered with the first order.
        const winner = isUniqueViolation(error) ? await orderMadeByKey() : undefined;
        if (winner) return winner;
        throw error;
      }
      if (orderId !== hold.orderId) await release(hold);
      const order = placed ?? (await loadOrder(orderId))!;
      if (orderId === hold.orderId) events.info("order.placed", { accountId: user.id, orderId, totalPaise: order.totalPaise, paymentMethod: payment.label });
      return order;
    },

    /** The order for its owner or an admin, and whether this viewer may cancel it here (only its owner, while pending). */
    async getOrder(viewer: SessionUser | null, orderId: unknown): Promise<ViewedOrder> {
      const order = await visibleOrder(viewer, orderId);
      const viewedByOwner = order.userId === viewer?.id;
      return { ...order, viewedByOwner, canCancel: viewedByOwner && OWNER_CANCELS_FROM.includes(order.status) };
    },

    /** Any order, for the admins' order screen. */
    async getOrderForAdmin(viewer: SessionUser | null, orderId: unknown): Promise<OrderDetail> {
      requireAdmin(viewer);
      const order = await loadOrder(orderId);
      if (!order) throw new NotFoundError(messages.orders.notFound);
      return order;
    },

    async listMyOrders(viewer: SessionUser | null): Promise<OrderSummary[]> {
      const user = requireSignedIn(viewer);
      return listSummaries(ordersWithCustomer(db).where("orders.user_id", "=", user.id));
    },

    /** The owner cancels a pending order; its stock goes back. Admins cancel through setStatus; for others it is 404. */
    async cancelOrder(viewer: SessionUser | null, orderId: unknown): Promise<OrderDetail> {
      const order = await visibleOrder(viewer, orderId);
      if (order.userId !== viewer?.id) throw new NotFoundError(messages.orders.notFound);
      const cancelled = await changeStatus(order.id, OWNER_CANCELS_FROM, "cancelled");
      events.info("order.cancelled", { accountId: order.userId, orderId: order.id, from: order.status, by: "owner" });
      return cancelled;
    },

    /** Every order, newest first, optionally by status, twenty to a page (admins only). */
    async listAllOrders(viewer: SessionUser | null, query: unknown): Promise<AdminOrderPage> {
      requireAdmin(viewer);
      const { status, page } = parseInput(adminOrdersQuerySchema, query);
      const [items, count] = await Promise.all([
        listSummaries(
          ordersWithCustomer(db)
            .$if(status !== undefined, (q) => q.where("orders.status", "=", status!))
            .limit(ADMIN_PAGE_SIZE)
            .offset((page - 1) * ADMIN_PAGE_SIZE),
        ),
        db
          .selectFrom("orders")
          .$if(status !== undefined, (q) => q.where("status", "=", status!))
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow(),
      ]);
      const total = Number(count.n);
      return { items, page, status: status ?? null, total, pageCount: Math.max(1, Math.ceil(total / ADMIN_PAGE_SIZE)) };
    },

    /** Moves an order along (admins only); cancelling returns the stock; shipping and cancelling e-mail the customer. */
    async setStatus(viewer: SessionUser | null, orderId: unknown, input: unknown): Promise<OrderDetail> {
      const admin = requireAdmin(viewer);
      const { status } = parseInput(setOrderStatusSchema, input);
      const order = await loadOrder(orderId);
      if (!order) throw new NotFoundError(messages.orders.notFound);
      const from = (Object.keys(NEXT_STATUSES) as OrderStatus[]).filter((s) => NEXT_STATUSES[s].includes(status));
      const changed = await changeStatus(order.id, from, status);
      // An admin action and an order state change at once: who did it, to whose order, from what to what.
      events.info("order.status-changed", { accountId: admin.id, orderId: order.id, customerId: order.userId, from: order.status, to: status, by: "admin" });
      return changed;
    },
  };
}

/** An order and its lines (in position order) as the API shows them. */
function toDetail(order: OrderRow, lines: Selectable<OrderLineTable>[]): OrderDetail {
  return {
    ...toSummary(order, lines.reduce((n, l) => n + l.quantity, 0)),
    userId: order.user_id,
    lines: lines.map((l) => ({
      productId: l.product_id,
      name: l.name,
      unitPricePaise: l.unit_price_paise,
      quantity: l.quantity,
      lineTotalPaise: l.unit_price_paise * l.quantity,
    })),
    subtotalPaise: order.subtotal_paise,
    shippingPaise: order.shipping_paise,
    shipName: order.ship_name,
    shipPhone: order.ship_phone,
    shipAddress: order.ship_address,
    paymentMethod: order.payment_method,
  };
}

function toSummary(order: OrderRow, itemCount: number): OrderSummary {
  return {
    id: order.id,
    number: order.number ?? legacyOrderNumber(order.id),
    // The column is a plain string to the platform's schema; the one list of statuses says what it may be.
    status: orderStatusSchema.parse(order.status),
    totalPaise: order.total_paise,
    itemCount,
    createdAt: toIsoString(order.created_at),
    customer: { name: order.customer_name, email: order.customer_email },
  };
}
