import { randomUUID } from "node:crypto";
import { sql, type Kysely, type Selectable, type SelectQueryBuilder } from "kysely";
import type { Logger } from "pino";
import { messages } from "#common/messages.ts";
import { formatPriceExact } from "#common/money.ts";
import { NEXT_STATUSES, orderNumber, type OrderDetail, type OrderStatus, type OrderSummary } from "#common/order-types.ts";
import { checkoutSchema } from "#common/schemas/cart.ts";
import { idSchema } from "#common/schemas/fields.ts";
import { z } from "zod";
import type { Database } from "../db/client.ts";
import type { DB, OrderTable } from "../db/schema.ts";
import { toIsoString } from "../db/values.ts";
import { inWriteTransaction, isUniqueViolation } from "../db/write-transaction.ts";
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError, parseInput, UnauthorizedError } from "./errors.ts";
import { orderEmail } from "./mail-templates.ts";
import type { Mailer } from "./mailer.ts";
import { cashOnDelivery, type PaymentMethod } from "./payments.ts";
import type { SessionUser } from "./session-user.ts";

export interface OrdersDependencies {
  database: Pick<Database, "db" | "dialect">;
  mailer: Mailer;
  logger: Logger;
  shopName: string;
  publicUrl: URL;
  shippingFeePaise: number;
  payment?: PaymentMethod;
}

const ADMIN_PAGE_SIZE = 20;
const adminQuerySchema = z.object({
  status: z.enum(["pending", "processing", "shipped", "delivered", "cancelled"]).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(10_000).catch(1).default(1),
});
const statusSchema = z.object({ status: z.enum(["pending", "processing", "shipped", "delivered", "cancelled"], { error: "Choose a status." }) });

export type OrdersService = ReturnType<typeof createOrdersService>;

/** Checkout and orders: the rules that keep the shop from selling what it does not have. */
export function createOrdersService(deps: OrdersDependencies) {
  const { database, mailer, logger } = deps;
  const { db } = database;
  const payment = deps.payment ?? cashOnDelivery;

  function requireSignedIn(viewer: SessionUser | null): SessionUser {
    if (!viewer) throw new UnauthorizedError();
    return viewer;
  }
  function requireAdmin(viewer: SessionUser | null): SessionUser {
    if (!requireSignedIn(viewer).isAdmin) throw new ForbiddenError();
    return viewer as SessionUser;
  }

  async function loadOrder(orderId: unknown, from: Kysely<DB> = db): Promise<OrderDetail | undefined> {
    const id = idSchema.safeParse(orderId);
    if (!id.success) return undefined;
    const order = await from.selectFrom("orders").selectAll().where("id", "=", id.data).executeTakeFirst();
    if (!order) return undefined;
    const lines = await from.selectFrom("order_lines").selectAll().where("order_id", "=", order.id).orderBy("position").execute();
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

  /** The order if the viewer may see it: its owner or an admin. Anyone else gets the same 404 as for none. */
  async function visibleOrder(viewer: SessionUser | null, orderId: unknown): Promise<OrderDetail> {
    const user = requireSignedIn(viewer);
    const order = await loadOrder(orderId);
    if (!order || (order.userId !== user.id && !user.isAdmin)) throw new NotFoundError(messages.orders.notFound);
    return order;
  }

  /** Sends an order's news to its customer; a mail failure is logged and never undoes the order. */
  async function notify(kind: "placed" | "shipped" | "cancelled", order: OrderDetail) {
    try {
      const customer = await db.selectFrom("users").select(["name", "email"]).where("id", "=", order.userId).executeTakeFirstOrThrow();
      const mail = orderEmail(kind, {
        shopName: deps.shopName,
        name: customer.name,
        orderNumber: order.number,
        url: `${deps.publicUrl.origin}/orders/${order.id}`,
        lines: order.lines.map((l) => ({ name: l.name, quantity: l.quantity, lineTotal: formatPriceExact(l.lineTotalPaise) })),
        subtotal: formatPriceExact(order.subtotalPaise),
        shipping: formatPriceExact(order.shippingPaise),
        total: formatPriceExact(order.totalPaise),
        address: `${order.shipName}\n${order.shipAddress}\n${order.shipPhone}`,
      });
      await mailer.send({ to: customer.email, ...mail });
    } catch (error) {
      logger.error({ err: error, orderId: order.id, kind }, "order e-mail could not be sent");
    }
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
    }
  }

  async function changeStatus(orderId: string, from: OrderStatus[], to: OrderStatus): Promise<OrderDetail> {
    const changed = await inWriteTransaction(database, async (trx) => {
      const lock = database.dialect === "postgres" ? sql` for update` : sql``;
      const row = (await sql<{ status: OrderStatus }>`select status from orders where id = ${orderId}${lock}`.execute(trx)).rows[0];
      if (!row) throw new NotFoundError(messages.orders.notFound);
      if (!from.includes(row.status)) {
        throw new ConflictError(to === "cancelled" && !from.includes("processing") ? messages.orders.cannotCancel : messages.orders.badTransition(row.status, to));
      }
      await trx.updateTable("orders").set({ status: to, updated_at: new Date().toISOString() }).where("id", "=", orderId).execute();
      if (to === "cancelled") await returnStock(trx, orderId);
      return loadOrder(orderId, trx);
    });
    if (!changed) throw new NotFoundError(messages.orders.notFound);
    if (to === "shipped" || to === "cancelled") await notify(to, changed);
    return changed;
  }

  return {
    /**
     * One transaction: checks and decrements the stock of every line (a conditional decrement, rows locked in
     * product-id order on PostgreSQL), snapshots names and prices, stores the order and empties the cart.
     * If any line lacks stock nothing changes. The same idempotency key never makes a second order.
     */
    async placeOrder(viewer: SessionUser | null, input: unknown): Promise<OrderDetail> {
      const user = requireSignedIn(viewer);
      if (!user.emailVerified) throw new ForbiddenError(messages.checkout.verifyFirst);
      const details = parseInput(checkoutSchema, input);
      const existing = async () => {
        const row = await db.selectFrom("orders").select("id").where("user_id", "=", user.id).where("idempotency_key", "=", details.idempotencyKey).executeTakeFirst();
        return row ? loadOrder(row.id) : undefined;
      };
      const already = await existing();
      if (already) return already;

      let placed: { id: string; isNew: boolean };
      try {
        placed = await inWriteTransaction(database, async (trx) => {
          // One checkout per shopper at a time, so a repeated key always finds the first attempt's order.
          if (database.dialect === "postgres") await sql`select pg_advisory_xact_lock(hashtext(${user.id}))`.execute(trx);
          const earlier = await trx
            .selectFrom("orders")
            .select("id")
            .where("user_id", "=", user.id)
            .where("idempotency_key", "=", details.idempotencyKey)
            .executeTakeFirst();
          if (earlier) return { id: earlier.id, isNew: false };
          const cart = await trx.selectFrom("cart_items").select(["product_id", "quantity"]).where("user_id", "=", user.id).orderBy("product_id").execute();
          if (!cart.length) throw new InvalidInputError(messages.checkout.emptyCart);
          const ids = cart.map((line) => line.product_id);
          const lock = database.dialect === "postgres" ? sql` for update` : sql``;
          const products = (
            await sql<{ id: string; name: string; price_paise: number; stock: number }>`select id, name, price_paise, stock from products where id in (${sql.join(ids)}) order by id${lock}`.execute(trx)
          ).rows;
          const byId = new Map(products.map((p) => [p.id, p]));
          const shortages = cart.flatMap((line) => {
            const product = byId.get(line.product_id);
            return product && product.stock >= line.quantity ? [] : [messages.checkout.shortage(product?.name ?? "A plant", product?.stock ?? 0)];
          });
          if (shortages.length) throw new ConflictError(shortages.join(" "), { cart: shortages.join(" ") });

          const now = new Date().toISOString();
          for (const line of cart) {
            const result = await trx
              .updateTable("products")
              .set({ stock: sql`stock - ${line.quantity}`, updated_at: now })
              .where("id", "=", line.product_id)
              .where("stock", ">=", line.quantity)
              .executeTakeFirst();
            // Cannot happen while the rows are locked; kept so that a mistake can never oversell.
            if (Number(result.numUpdatedRows) !== 1) throw new ConflictError(messages.checkout.shortage(byId.get(line.product_id)!.name, 0));
          }
          const subtotal = cart.reduce((sum, line) => sum + byId.get(line.product_id)!.price_paise * line.quantity, 0);
          const id = randomUUID();
          await payment.authorize({ id, totalPaise: subtotal + deps.shippingFeePaise });
          await trx
            .insertInto("orders")
            .values({
              id,
              user_id: user.id,
              status: "pending",
              subtotal_paise: subtotal,
              shipping_paise: deps.shippingFeePaise,
              total_paise: subtotal + deps.shippingFeePaise,
              ship_name: details.name,
              ship_phone: details.phone,
              ship_address: details.address,
              payment_method: payment.label,
              idempotency_key: details.idempotencyKey,
              created_at: now,
              updated_at: now,
            })
            .execute();
          await trx
            .insertInto("order_lines")
            .values(
              cart.map((line, position) => {
                const product = byId.get(line.product_id)!;
                return { id: randomUUID(), order_id: id, position, product_id: product.id, name: product.name, unit_price_paise: product.price_paise, quantity: line.quantity };
              }),
            )
            .execute();
          await trx.deleteFrom("cart_items").where("user_id", "=", user.id).execute();
          if (details.saveToProfile) {
            await trx.updateTable("users").set({ phone: details.phone, address: details.address, updatedAt: now }).where("id", "=", user.id).execute();
          }
          return { id, isNew: true };
        });
      } catch (error) {
        // Another request with the same key won the race: answer with its order.
        if (isUniqueViolation(error)) {
          const winner = await existing();
          if (winner) return winner;
        }
        throw error;
      }
      const order = (await loadOrder(placed.id))!;
      if (placed.isNew) await notify("placed", order);
      return order;
    },

    getOrder: visibleOrder,

    /** Any order, for the admins' order screen. */
    async getOrderForAdmin(viewer: SessionUser | null, orderId: unknown): Promise<OrderDetail> {
      requireAdmin(viewer);
      const order = await loadOrder(orderId);
      if (!order) throw new NotFoundError(messages.orders.notFound);
      return order;
    },

    async listMyOrders(viewer: SessionUser | null): Promise<OrderSummary[]> {
      const user = requireSignedIn(viewer);
      return listSummaries(db.selectFrom("orders").selectAll().where("user_id", "=", user.id));
    },

    /** The owner cancels a pending order; its stock goes back. */
    async cancelOrder(viewer: SessionUser | null, orderId: unknown): Promise<OrderDetail> {
      const order = await visibleOrder(viewer, orderId);
      if (order.userId !== viewer?.id) throw new NotFoundError(messages.orders.notFound);
      return changeStatus(order.id, ["pending"], "cancelled");
    },

    /** Every order, newest first, optionally by status, twenty to a page (admins only). */
    async listAllOrders(viewer: SessionUser | null, query: unknown) {
      requireAdmin(viewer);
      const { status, page } = parseInput(adminQuerySchema, query);
      let base = db.selectFrom("orders");
      if (status) base = base.where("status", "=", status);
      const [items, count] = await Promise.all([
        listSummaries(base.selectAll().limit(ADMIN_PAGE_SIZE).offset((page - 1) * ADMIN_PAGE_SIZE)),
        base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
      ]);
      const total = Number(count.n);
      return { items, page, status: status ?? null, total, pageCount: Math.max(1, Math.ceil(total / ADMIN_PAGE_SIZE)) };
    },

    /** Moves an order along (admins only); cancelling returns the stock; shipping and cancelling e-mail the customer. */
    async setStatus(viewer: SessionUser | null, orderId: unknown, input: unknown): Promise<OrderDetail> {
      requireAdmin(viewer);
      const { status } = parseInput(statusSchema, input);
      const order = await loadOrder(orderId);
      if (!order) throw new NotFoundError(messages.orders.notFound);
      const from = (Object.keys(NEXT_STATUSES) as OrderStatus[]).filter((s) => NEXT_STATUSES[s].includes(status));
      return changeStatus(order.id, from, status);
    },
  };

  async function listSummaries(query: SelectQueryBuilder<DB, "orders", Selectable<OrderTable>>): Promise<OrderSummary[]> {
    const orders = await query.orderBy("created_at", "desc").orderBy("id", "desc").execute();
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
}

function toSummary(order: Selectable<OrderTable>, itemCount: number): OrderSummary {
  return {
    id: order.id,
    number: orderNumber(order.id),
    status: order.status,
    totalPaise: order.total_paise,
    itemCount,
    createdAt: toIsoString(order.created_at),
  };
}
