import type { Kysely } from "kysely";
import { messages } from "#common/shared/messages.ts";
import type { AdminOrderPage, OrderDetail, OrderSummary, ViewedOrder } from "#common/orders/order-types.ts";
import { adminOrdersQuerySchema } from "#common/orders/order-schemas.ts";
import type { DB } from "../../platform/db/schema.ts";
import { NotFoundError, parseInput } from "../../platform/errors.ts";
import { requireAdmin, requireSignedIn, type SessionUser } from "../../platform/session-user.ts";
import { loadOrder, ordersWithCustomer, toSummary, visibleOrder } from "./order-records.ts";
import { OWNER_CANCELS_FROM } from "./order-status.ts";
import type { OrdersContext } from "./orders-context.ts";
import { upiRequestFor } from "./upi-payments.ts";

// The read models: a shopper's orders and one of them, and the admins' list and detail. They change nothing.

const ADMIN_PAGE_SIZE = 20;

/**
 * The order for its owner or an admin, whether this viewer may cancel it here (only its owner, before the shop
 * started on it), and, for its owner while it awaits a UPI payment, how to pay.
 */
export async function getOrder(ctx: Pick<OrdersContext, "db" | "payments" | "shopName">, viewer: SessionUser | null, orderId: unknown): Promise<ViewedOrder> {
  const order = await visibleOrder(ctx.db, viewer, orderId);
  const viewedByOwner = order.userId === viewer?.id;
  return { ...order, viewedByOwner, canCancel: viewedByOwner && OWNER_CANCELS_FROM.includes(order.status), upi: await upiRequestFor(ctx, order, viewedByOwner) };
}

/** Any order, for the admins' order screen. */
export async function getOrderForAdmin(db: Kysely<DB>, viewer: SessionUser | null, orderId: unknown): Promise<OrderDetail> {
  requireAdmin(viewer);
  const order = await loadOrder(db, orderId);
  if (!order) throw new NotFoundError(messages.orders.notFound);
  return order;
}

/** The signed-in shopper's orders, newest first. */
export async function listMyOrders(db: Kysely<DB>, viewer: SessionUser | null): Promise<OrderSummary[]> {
  const user = requireSignedIn(viewer);
  return listSummaries(db, ordersWithCustomer(db).where("orders.user_id", "=", user.id));
}

/** Every order, newest first, optionally by status, twenty to a page (admins only). */
export async function listAllOrders(db: Kysely<DB>, viewer: SessionUser | null, query: unknown): Promise<AdminOrderPage> {
  requireAdmin(viewer);
  const { status, page } = parseInput(adminOrdersQuerySchema, query);
  const [items, count] = await Promise.all([
    listSummaries(
      db,
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
}

/** The orders the query finds, newest first, each with how many plants it holds. */
async function listSummaries(db: Kysely<DB>, query: ReturnType<typeof ordersWithCustomer>): Promise<OrderSummary[]> {
  const orders = await query.orderBy("orders.created_at", "desc").orderBy("orders.id", "desc").execute();
  if (!orders.length) return [];
  const ids = orders.map((o) => o.id);
  const [counts, references] = await Promise.all([
    db
      .selectFrom("order_lines")
      .select(["order_id", (eb) => eb.fn.sum<number>("quantity").as("units")])
      .where("order_id", "in", ids)
      .groupBy("order_id")
      .execute(),
    // The UPI references shoppers gave, which the owner looks for in their bank's list.
    db.selectFrom("order_payments").select(["order_id", "reference"]).where("order_id", "in", ids).where("reference", "is not", null).execute(),
  ]);
  const units = new Map(counts.map((c) => [c.order_id, Number(c.units)]));
  const referenceOf = new Map(references.map((r) => [r.order_id, r.reference]));
  return orders.map((o) => toSummary(o, units.get(o.id) ?? 0, referenceOf.get(o.id) ?? null));
}
