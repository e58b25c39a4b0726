import { sql, type Insertable, type QueryCreator } from "kysely";
import type { DB } from "../../platform/db/schema.ts";
import type { OrderTable } from "./orders-tables.ts";
import { compiledOnce } from "../../platform/db/compiled-once.ts";
import { insertOutboxRow } from "../../platform/mail/mail-outbox.ts";
import { cartLines, orderedLinesDeletion } from "../cart/index.ts";
import { productStockTaking, variantStockTaking, withStockTaken, type StockTaking } from "../catalog/index.ts";
import { appliedCouponToJudge, claimingCouponUse } from "../coupons/index.ts";
import { placedOrderCount } from "./daily-totals.ts";
import { cashOnDelivery } from "./payments.ts";

// The checkout's statements. Those every order runs are compiled once per dialect for the whole process
// (docs/decisions/031), so each is built here, at module level, and never inside a call.

/** The shopper's order placed with this idempotency key: a query, run alone or inside another statement. */
export function orderIdWithKey(from: QueryCreator<DB>, userId: string, key: string) {
  return from.selectFrom("orders").select("id").where("user_id", "=", userId).where("idempotency_key", "=", key);
}

/**
 * What the checkout reads first, in one statement: the earlier order with this key, the unpaid orders, the code
 * applied to the cart (the coupons module's columns, all null without one) and the cart's lines.
 */
export const keyPendingAndCart = compiledOnce((db, { userId, key, maxPending }: { userId: string; key: string; maxPending: number }) =>
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
                // Unpaid and not started on: Cash on Delivery's pending orders, and those awaiting a UPI payment.
                .where((eb) => eb.or([eb.and([eb("status", "=", "pending"), eb("payment_method", "=", cashOnDelivery.label)]), eb("status", "=", "awaiting_payment")]))
                .limit(maxPending)
                .as("p"),
            )
            .select((count) => count.fn.countAll<number>().as("n"))
            .as("pending"),
        ])
        .as("k"),
    )
    .leftJoin(appliedCouponToJudge(db, userId).as("cp"), (join) => join.onTrue())
    .leftJoin(cartLines(db, userId).as("line"), (join) => join.onTrue())
    .selectAll("cp")
    .select([
      "k.earlier",
      "k.pending",
      "line.id",
      "line.quantity",
      "line.product_id",
      "line.variant_id",
      "line.variant_label",
      "line.sku",
      "line.name",
      "line.price_paise",
      "line.compare_at_paise",
      "line.sale_starts_at",
      "line.sale_ends_at",
      "line.stock",
      "line.category_id",
    ])
    // The order the stock is taken in (products, then their sizes): see withStockTaken.
    .orderBy("line.product_id")
    .orderBy("line.variant_id"),
);

/** What storeOrderRows writes on PostgreSQL: the order's columns, its lines column by column, the cart lines it empties and its mail. */
export type StoredOrder = Omit<Insertable<OrderTable>, "counted_on" | "number"> & {
  counted_on: string;
  number: string;
  lineIds: string[];
  lineProductIds: string[];
  lineVariantIds: string[];
  lineVariantLabels: (string | null)[];
  lineSkus: string[];
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
  mailHeaders: string | null;
  mailQueuedAt: string;
};

/**
 * On PostgreSQL, one round trip: the order, its lines, its mail and the cart lines it empties, as one statement
 * (the lines' foreign key is checked at its end, when the order is there). The lines and the emptied cart go as
 * arrays, so that the statement's text is the same for any number of lines and is compiled once.
 */
export const storeOrderRows = compiledOnce((db, v: StoredOrder) => {
  const orderLinesAndMail = db
    .with("o", (q) =>
      q.insertInto("orders").values({
        id: v.id,
        user_id: v.user_id,
        status: v.status,
        subtotal_paise: v.subtotal_paise,
        shipping_paise: v.shipping_paise,
        discount_paise: v.discount_paise,
        coupon_code: v.coupon_code,
        total_paise: v.total_paise,
        ship_name: v.ship_name,
        ship_phone: v.ship_phone,
        ship_address: v.ship_address,
        ship_pin: v.ship_pin,
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
        .columns(["id", "order_id", "position", "product_id", "variant_id", "variant_label", "sku", "name", "unit_price_paise", "quantity"])
        .expression(
          sql`select l.id, ${v.id}, l.position - 1, l.product_id, l.variant_id, l.variant_label, l.sku, l.name, l.unit_price_paise, l.quantity
            from unnest(${v.lineIds}::text[], ${v.lineProductIds}::text[], ${v.lineVariantIds}::text[], ${v.lineVariantLabels}::text[], ${v.lineSkus}::text[], ${v.lineNames}::text[], ${v.linePrices}::bigint[], ${v.lineQuantities}::integer[])
            with ordinality as l(id, product_id, variant_id, variant_label, sku, name, unit_price_paise, quantity, position)`,
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
        headers: v.mailHeaders,
        queuedAt: v.mailQueuedAt,
      }),
    );
  // Its main statement, the emptied cart lines, is the cart's: the lines of the order, as one array.
  return orderedLinesDeletion(orderLinesAndMail, v.ordered);
});

/**
 * PostgreSQL: a line's stock taken from its variant (and its product's total) if it covers the line, answering the
 * price found (the catalog's statement); the rows stay locked until commit.
 */
export type TakenLine = StockTaking & { day: string; totalPaise: number };
export const takeLineStock = compiledOnce((db, line: TakenLine) => withStockTaken(db, line).selectFrom("taken").select(["price_paise", "stock", "product_stock"]));
/** The same, and the order counted on its day only when the stock was taken (else the transaction rolls back anyway). */
export const takeLineStockAndCountDay = compiledOnce((db, line: TakenLine) =>
  withStockTaken(db, line)
    .with("counted", (q) => placedOrderCount(q, line.day, line.totalPaise, q.selectFrom("taken").select(sql`1`.as("one"))))
    .selectFrom("taken")
    .select(["price_paise", "stock", "product_stock"]),
);

/** SQLite: the variant's stock taken if it covers the line, then its product's total (see the catalog's inventory.ts). */
export const takeVariantStock = compiledOnce((db, line: StockTaking) => variantStockTaking(db, line));
export const takeProductStock = compiledOnce((db, line: StockTaking) => productStockTaking(db, line));

/** What the last line's statement needs beside its stock and day when the order carries a code: the code's use. */
export type TakenLineWithCode = TakenLine & { couponId: string; orderId: string; userId: string };

/**
 * The same with a discount code: its use counted, its row written and the code taken off the cart (the coupons
 * module's statements, as CTEs), only once the stock was taken. No row when the stock was not taken; `claimed` null
 * when the use was refused (used up, paused or deleted meanwhile): the caller rolls back. The code's row, which
 * every checkout with that code updates, is thus locked with the product's and the day's, for this statement and
 * the commit only.
 */
export const takeLineStockCountDayAndClaimCode = compiledOnce((db, line: TakenLineWithCode) =>
  claimingCouponUse(
    withStockTaken(db, line).with("counted", (q) => placedOrderCount(q, line.day, line.totalPaise, q.selectFrom("taken").select(sql`1`.as("one")))),
    { couponId: line.couponId, orderId: line.orderId, userId: line.userId, now: line.now },
    db.selectFrom(sql`taken`.as("t")).select(sql`1`.as("one")),
  )
    .selectFrom(sql<{ price_paise: number; stock: number; product_stock: number }>`taken`.as("t"))
    .select([
      sql<number>`t.price_paise`.as("price_paise"),
      sql<number>`t.stock`.as("stock"),
      sql<number>`t.product_stock`.as("product_stock"),
      sql<string | null>`(select id from claimed_use)`.as("claimed"),
    ]),
);
