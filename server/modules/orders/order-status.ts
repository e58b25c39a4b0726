import { sql, type Kysely } from "kysely";
import { messages } from "#common/shared/messages.ts";
import { NEXT_STATUSES, type OrderDetail, type OrderStatus } from "#common/orders/order-types.ts";
import { ORDER_STATUS_LABELS, setOrderStatusSchema } from "#common/orders/order-schemas.ts";
import type { DB } from "../../platform/db/schema.ts";
import { inWriteTransaction } from "../../platform/db/write-transaction.ts";
import { ConflictError, NotFoundError, parseInput } from "../../platform/errors.ts";
import { shopDay } from "../../platform/shop-day.ts";
import { requireAdmin, type SessionUser } from "../../platform/session-user.ts";
import { recordAdminChange, type Actor } from "../audit/index.ts";
import { putBackStock } from "../catalog/index.ts";
import { giveBackCouponUse } from "../coupons/index.ts";
import { countCancelledOrder } from "./daily-totals.ts";
import { orderMail, type OrderMailKind } from "./order-mails.ts";
import { loadOrder, visibleOrder } from "./order-records.ts";
import type { OrdersContext } from "./orders-context.ts";

// The status machine: which moves NEXT_STATUSES allows, who may make them, and what each move does besides
// (stock back and the day's revenue out on a cancellation, an e-mail on shipping and cancelling).

/** What the status changes use of the orders service's dependencies. */
export type StatusContext = Pick<OrdersContext, "database" | "db" | "outbox" | "events" | "changes" | "timeZone" | "shopName" | "publicUrl" | "forUpdate" | "restocked">;

const hasCustomerEmail = (order: OrderDetail): order is OrderDetail & { customer: { email: string } } => order.customer.email !== null;

/** The owner may cancel their own order only while nobody has started on it (paid for or not). */
export const OWNER_CANCELS_FROM: OrderStatus[] = ["awaiting_payment", "pending"];

/** Who moves an order: its customer, an admin, or the shop itself (an unpaid order's time ran out). */
type Mover = "owner" | "admin" | "shop";

/** The owner cancels a pending order; its stock goes back. Admins cancel through setStatus; for others it is 404. */
export async function cancelOrder(ctx: StatusContext, viewer: SessionUser | null, orderId: unknown): Promise<OrderDetail> {
  const order = await visibleOrder(ctx.db, viewer, orderId);
  if (order.userId !== viewer?.id) throw new NotFoundError(messages.orders.notFound);
  const cancelled = await changeStatus(ctx, order.id, OWNER_CANCELS_FROM, "cancelled", "owner");
  ctx.events.info("order.cancelled", { accountId: order.userId, orderId: order.id, from: order.status, by: "owner" });
  return cancelled;
}

/** Moves an order along (admins only); cancelling returns the stock; shipping and cancelling e-mail the customer. */
export async function setStatus(ctx: StatusContext, viewer: SessionUser | null, orderId: unknown, input: unknown): Promise<OrderDetail> {
  const admin = requireAdmin(viewer);
  const { status } = parseInput(setOrderStatusSchema, input);
  const order = await loadOrder(ctx.db, orderId);
  if (!order) throw new NotFoundError(messages.orders.notFound);
  const from = (Object.keys(NEXT_STATUSES) as OrderStatus[]).filter((s) => NEXT_STATUSES[s].includes(status));
  const changed = await changeStatus(ctx, order.id, from, status, "admin", admin);
  // An admin action and an order state change at once: who did it, to whose order, from what to what.
  ctx.events.info("order.status-changed", { accountId: admin.id, orderId: order.id, customerId: order.userId, from: order.status, to: status, by: "admin" });
  return changed;
}

/**
 * Moves the order to `to` if it stands in one of `from`, with what that move does, in one write transaction. The
 * row is locked and its status checked first, so of two copies of the shop making the same move (the unpaid orders'
 * cancellation runs in every copy) exactly one makes it, and the other is refused as for any move no longer allowed.
 */
export async function changeStatus(ctx: StatusContext, orderId: string, from: OrderStatus[], to: OrderStatus, by: Mover, admin?: Actor): Promise<OrderDetail> {
  const changed = await inWriteTransaction(ctx.database, async (trx) => {
    const row = (await sql<{ status: OrderStatus }>`select status from orders where id = ${orderId}${ctx.forUpdate}`.execute(trx)).rows[0];
    if (!row) throw new NotFoundError(messages.orders.notFound);
    if (!from.includes(row.status)) {
      throw new ConflictError(to === "cancelled" && !from.includes("processing") ? messages.orders.cannotCancel : messages.orders.badTransition(ORDER_STATUS_LABELS[row.status], ORDER_STATUS_LABELS[to]));
    }
    const now = new Date().toISOString();
    await trx.updateTable("orders").set({ status: to, updated_at: now }).where("id", "=", orderId).execute();
    await settlePayment(trx, orderId, row.status, to, now);
    if (to === "cancelled") {
      await returnStock(ctx, trx, orderId);
      // Its discount code's use comes back: one more for a limited code, and the customer may use it again.
      await giveBackCouponUse(trx, orderId);
    }
    const order = await loadOrder(trx, orderId);
    if (admin && order) {
      // Confirming an awaited payment is what moves an order from "awaiting payment" to "pending".
      const summary = row.status === "awaiting_payment" && to === "pending"
        ? `Payment of order ${order.number} marked paid`
        : `Order ${order.number} ${ORDER_STATUS_LABELS[row.status]} → ${ORDER_STATUS_LABELS[to]}`;
      await recordAdminChange(trx, admin, { thing: { kind: "order", id: orderId, label: order.number }, summary, changes: { status: { before: row.status, after: to } } });
    }
    // Queued in the transaction that made the change; the mail worker sends it after commit.
    // An order whose customer deleted their account has nobody to write to (decision 040).
    const news = newsOf(row.status, to, by);
    if (order && hasCustomerEmail(order) && news) await ctx.outbox.enqueue(trx, orderMail(ctx, news, order));
    // A cancelled order, or a parcel refused at the door, leaves the revenue of the day it counted on (both are final).
    if (order && (to === "cancelled" || to === "refused")) {
      const { counted_on } = await trx.selectFrom("orders").select("counted_on").where("id", "=", orderId).executeTakeFirstOrThrow();
      await countCancelledOrder(trx, counted_on ?? shopDay(order.createdAt, ctx.timeZone), order.totalPaise);
    }
    return order;
  });
  if (!changed) throw new NotFoundError(messages.orders.notFound);
  return changed;
}

/** What the customer is told of a move, if anything: an unpaid order cancelled by the shop or the owner gets its own reason. */
function newsOf(from: OrderStatus, to: OrderStatus, by: Mover): OrderMailKind | null {
  if (to === "shipped") return "shipped";
  if (to === "cancelled") return from === "awaiting_payment" && by !== "owner" ? "unpaid" : "cancelled";
  if (from === "awaiting_payment" && to === "pending") return "paid";
  return null;
}

/**
 * The payment's state follows its order's move (docs/decisions/054): confirmed paid, it is paid; an order cancelled
 * while its payment was awaited never got one; a paid order cancelled is refunded (the owner returns the money by
 * UPI). Only orders paid before the shop starts on them have a payment row; Cash on Delivery's state is its status.
 */
async function settlePayment(trx: Kysely<DB>, orderId: string, from: OrderStatus, to: OrderStatus, now: string) {
  const settled = from === "awaiting_payment" && to === "pending" ? "paid" : to === "cancelled" ? (from === "awaiting_payment" ? "failed" : "refunded") : null;
  if (!settled) return;
  // A refund only of what was paid: the condition leaves an awaiting or failed payment as it is.
  await trx
    .updateTable("order_payments")
    .set({ state: settled, pay_by: null, updated_at: now })
    .where("order_id", "=", orderId)
    .where("state", "=", settled === "refunded" ? "paid" : "awaiting")
    .execute();
}

/** Puts back the stock of a cancelled order's lines (inside the caller's transaction). */
async function returnStock(ctx: Pick<StatusContext, "changes" | "restocked">, trx: Kysely<DB>, orderId: string) {
  // By size (decision 048); in product order, as the checkout takes them. A size deleted since takes nothing back.
  const lines = await trx
    .selectFrom("order_lines")
    .select(["variant_id", "quantity"])
    .where("order_id", "=", orderId)
    .where("variant_id", "is not", null)
    .orderBy("product_id")
    .orderBy("variant_id")
    .execute();
  for (const line of lines) {
    const put = await putBackStock(trx, line.variant_id!, line.quantity, ctx.restocked);
    if (put) ctx.changes.publish(trx, { type: "product", productId: put.productId, aspects: put.backInStock || put.variantBackInStock ? ["stock", "availability"] : ["stock"] });
  }
}
