import type { AdminOrderPage, CodStanding, OrderDetail, OrderSummary, PaymentOption, ViewedOrder } from "#common/orders/order-types.ts";
import type { SessionUser } from "../../platform/session-user.ts";
import { ordersContext, type OrdersDependencies } from "./orders-context.ts";
import { placeOrder } from "./place-order.ts";
import { exportOrders } from "./orders-export.ts";
import { cancelOrder, setStatus } from "./order-status.ts";
import { getOrder, getOrderForAdmin, listAllOrders, listMyOrders } from "./order-queries.ts";
import { codStanding, paymentOptions, setCodBlocked } from "./cod-rules.ts";
import { cancelUnpaidOrders, giveUpiReference, watchUnpaidOrders } from "./upi-payments.ts";

export type { OrdersDependencies } from "./orders-context.ts";
export { checkoutRateRule } from "./place-order.ts";

// The orders service as the rest of the server sees it: each operation lives in its own file (the checkout in
// place-order.ts, its statements in checkout-statements.ts, the status machine in order-status.ts, the read
// models in order-queries.ts) and is bound here, once, to the dependencies it is given.

export type OrdersService = ReturnType<typeof createOrdersService>;

/** Checkout and orders: the rules that keep the shop from selling what it does not have. */
export function createOrdersService(deps: OrdersDependencies) {
  const ctx = ordersContext(deps);
  const { db } = ctx;
  return {
    placeOrder: (viewer: SessionUser | null, input: unknown): Promise<OrderDetail> => placeOrder(ctx, viewer, input),
    getOrder: (viewer: SessionUser | null, orderId: unknown): Promise<ViewedOrder> => getOrder(ctx, viewer, orderId),
    getOrderForAdmin: (viewer: SessionUser | null, orderId: unknown): Promise<OrderDetail> => getOrderForAdmin(db, viewer, orderId),
    listMyOrders: (viewer: SessionUser | null): Promise<OrderSummary[]> => listMyOrders(db, viewer),
    cancelOrder: (viewer: SessionUser | null, orderId: unknown): Promise<OrderDetail> => cancelOrder(ctx, viewer, orderId),
    listAllOrders: (viewer: SessionUser | null, query: unknown): Promise<AdminOrderPage> => listAllOrders(db, viewer, query),
    /** The order lines of a range of the shop's days as CSV rows, a page at a time (admins only; docs/decisions/058). */
    exportOrders: (viewer: SessionUser | null, input: unknown): AsyncGenerator<string[][]> => exportOrders(db, ctx.timeZone, viewer, input),
    setStatus: (viewer: SessionUser | null, orderId: unknown, input: unknown): Promise<OrderDetail> => setStatus(ctx, viewer, orderId, input),
    /** The ways the shopper may pay at checkout, each with why not when they may not. */
    paymentOptions: (viewer: SessionUser | null): Promise<PaymentOption[]> => paymentOptions(ctx, viewer),
    /** The shopper gives the UPI reference (UTR) of their payment. */
    giveUpiReference: (viewer: SessionUser | null, orderId: unknown, input: unknown): Promise<OrderDetail> => giveUpiReference(ctx, viewer, orderId, input),
    /** An order's customer and Cash on Delivery: parcels refused, and whether the owner turned it off (admins only). */
    codStanding: (viewer: SessionUser | null, orderId: unknown): Promise<CodStanding | null> => codStanding(ctx, viewer, orderId),
    setCodBlocked: (viewer: SessionUser | null, orderId: unknown, input: unknown): Promise<CodStanding> => setCodBlocked(ctx, viewer, orderId, input),
    /** Cancels the orders whose UPI payment is due and still awaited (each exactly once, whichever copy runs it). */
    cancelUnpaidOrders: (): Promise<number> => cancelUnpaidOrders(ctx),
    /** Runs cancelUnpaidOrders in this process from now on (periodically, and when the test clock moves); answers the stop. */
    watchUnpaidOrders: (onError: (error: unknown) => void): (() => void) => watchUnpaidOrders(() => cancelUnpaidOrders(ctx), onError),
  };
}
