import type { AdminOrderPage, OrderDetail, OrderSummary, ViewedOrder } from "#common/orders/order-types.ts";
import type { SessionUser } from "../../platform/session-user.ts";
import { ordersContext, type OrdersDependencies } from "./orders-context.ts";
import { placeOrder } from "./place-order.ts";
import { cancelOrder, setStatus } from "./order-status.ts";
import { getOrder, getOrderForAdmin, listAllOrders, listMyOrders } from "./order-queries.ts";

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
    getOrder: (viewer: SessionUser | null, orderId: unknown): Promise<ViewedOrder> => getOrder(db, viewer, orderId),
    getOrderForAdmin: (viewer: SessionUser | null, orderId: unknown): Promise<OrderDetail> => getOrderForAdmin(db, viewer, orderId),
    listMyOrders: (viewer: SessionUser | null): Promise<OrderSummary[]> => listMyOrders(db, viewer),
    cancelOrder: (viewer: SessionUser | null, orderId: unknown): Promise<OrderDetail> => cancelOrder(ctx, viewer, orderId),
    listAllOrders: (viewer: SessionUser | null, query: unknown): Promise<AdminOrderPage> => listAllOrders(db, viewer, query),
    setStatus: (viewer: SessionUser | null, orderId: unknown, input: unknown): Promise<OrderDetail> => setStatus(ctx, viewer, orderId, input),
  };
}
