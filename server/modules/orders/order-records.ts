import type { Kysely, Selectable } from "kysely";
import { messages } from "#common/shared/messages.ts";
import { legacyOrderNumber, type OrderDetail, type OrderSummary } from "#common/orders/order-types.ts";
import { orderStatusSchema, paymentMethodIdSchema, paymentStateSchema } from "#common/orders/order-schemas.ts";
import { idSchema } from "#common/shared/fields.ts";
import type { DB } from "../../platform/db/schema.ts";
import type { OrderGiftTable, OrderLineTable, OrderPaymentTable, OrderTable } from "./orders-tables.ts";
import { toIsoString } from "../../platform/db/values.ts";
import { NotFoundError } from "../../platform/errors.ts";
import { requireSignedIn, type SessionUser } from "../../platform/session-user.ts";
import { namesAndEmails } from "../accounts/index.ts";

// An order as stored and as the API shows it: the one load of an order, and the one way rows become an answer,
// shared by the checkout, the status changes and the read models.

/**
 * Orders with their customer's name and e-mail, the one way every order query starts. An order whose customer
 * deleted their account has none: it shows the name it was delivered to, and no e-mail (decision 040).
 */
export function ordersWithCustomer(from: Kysely<DB>) {
  return from
    .selectFrom("orders")
    .leftJoin(namesAndEmails(from).as("customer"), "customer.id", "orders.user_id")
    .selectAll("orders")
    .select((eb) => [eb.fn.coalesce("customer.name", "orders.ship_name").as("customer_name"), "customer.email as customer_email"]);
}
export type OrderRow = Selectable<OrderTable> & { customer_name: string; customer_email: string | null };

/** The order with its lines, or undefined for none (or for an id that cannot be one). */
export async function loadOrder(from: Kysely<DB>, orderId: unknown): Promise<OrderDetail | undefined> {
  const id = idSchema.safeParse(orderId);
  if (!id.success) return undefined;
  const order = await ordersWithCustomer(from).where("orders.id", "=", id.data).executeTakeFirst();
  if (!order) return undefined;
  const [lines, gift, payment] = await Promise.all([
    from.selectFrom("order_lines").selectAll().where("order_id", "=", order.id).orderBy("position").execute(),
    from.selectFrom("order_gifts").selectAll().where("order_id", "=", order.id).executeTakeFirst(),
    from.selectFrom("order_payments").selectAll().where("order_id", "=", order.id).executeTakeFirst(),
  ]);
  return toDetail(order, lines, gift ?? null, payment ?? null);
}

/** The order if the viewer may see it: its owner or an admin. Anyone else gets the same 404 as for none. */
export async function visibleOrder(db: Kysely<DB>, viewer: SessionUser | null, orderId: unknown): Promise<OrderDetail> {
  const user = requireSignedIn(viewer);
  const order = await loadOrder(db, orderId);
  if (!order || (order.userId !== user.id && !user.isAdmin)) throw new NotFoundError(messages.orders.notFound);
  return order;
}

/** An order and its lines (in position order) as the API shows them. */
export function toDetail(
  order: OrderRow,
  lines: Selectable<OrderLineTable>[],
  gift: Selectable<OrderGiftTable> | null,
  payment: Selectable<OrderPaymentTable> | null,
): OrderDetail {
  return {
    ...toSummary(order, lines.reduce((n, l) => n + l.quantity, 0), payment?.reference ?? null),
    userId: order.user_id,
    lines: lines.map((l) => ({
      productId: l.product_id,
      variantId: l.variant_id,
      variantLabel: l.variant_label,
      sku: l.sku,
      name: l.name,
      unitPricePaise: l.unit_price_paise,
      quantity: l.quantity,
      lineTotalPaise: l.unit_price_paise * l.quantity,
    })),
    subtotalPaise: order.subtotal_paise,
    discountPaise: Number(order.discount_paise ?? 0),
    couponCode: order.coupon_code ?? null,
    shippingPaise: order.shipping_paise,
    shipName: order.ship_name,
    shipPhone: order.ship_phone,
    shipAddress: order.ship_address,
    shipPin: order.ship_pin ?? null,
    paymentMethod: order.payment_method,
    payment: paymentOf(order, payment),
    gift: gift && { recipientName: gift.recipient_name, recipientPhone: gift.recipient_phone, message: gift.message, hidePrices: Number(gift.hide_prices) === 1 },
  };
}

/**
 * Where an order's money stands (docs/decisions/054): a UPI order's from its payment row; Cash on Delivery's from
 * its status, since the courier collects it at the door (paid once delivered, never if cancelled or refused).
 */
function paymentOf(order: OrderRow, payment: Selectable<OrderPaymentTable> | null): OrderDetail["payment"] {
  if (payment) {
    return {
      method: paymentMethodIdSchema.parse(payment.method),
      state: paymentStateSchema.parse(payment.state),
      reference: payment.reference,
      payBy: payment.pay_by === null ? null : toIsoString(payment.pay_by),
    };
  }
  const state = order.status === "delivered" ? "paid" : order.status === "cancelled" || order.status === "refused" ? "failed" : "awaiting";
  return { method: "cod", state, reference: null, payBy: null };
}

export function toSummary(order: OrderRow, itemCount: number, paymentReference: string | null): OrderSummary {
  return {
    id: order.id,
    number: order.number ?? legacyOrderNumber(order.id),
    // The column is a plain string to the platform's schema; the one list of statuses says what it may be.
    status: orderStatusSchema.parse(order.status),
    totalPaise: order.total_paise,
    itemCount,
    createdAt: toIsoString(order.created_at),
    customer: { name: order.customer_name, email: order.customer_email },
    paymentReference,
  };
}

/**
 * Detaches a deleting account's orders from it, inside the caller's transaction (the account's deletion): the
 * orders stay for the shop's records with what a tax invoice names (the name, address and phone they were
 * delivered to, kept on the order already), and lose the link to the person, through which their e-mail showed
 * (decision 040).
 */
export async function detachCustomer(trx: Kysely<DB>, userId: string): Promise<void> {
  await trx.updateTable("orders").set({ user_id: null }).where("user_id", "=", userId).execute();
}
