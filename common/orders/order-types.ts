import type { z } from "zod";
import type {
  adminOrderPageSchema,
  customerSchema,
  orderDetailSchema,
  orderLineSchema,
  orderStatusSchema,
  orderSummarySchema,
  viewedOrderSchema,
} from "./order-schemas.ts";

// Orders as the service returns them and the pages and JSON API show them: inferred from the schemas that document them.
export type OrderStatus = z.infer<typeof orderStatusSchema>;
export type OrderLine = z.infer<typeof orderLineSchema>;
export type Customer = z.infer<typeof customerSchema>;
export type OrderSummary = z.infer<typeof orderSummarySchema>;
export type OrderDetail = z.infer<typeof orderDetailSchema>;
export type ViewedOrder = z.infer<typeof viewedOrderSchema>;
export type AdminOrderPage = z.infer<typeof adminOrderPageSchema>;

/** Where an order may go next (issue 4): pending → processing → shipped → delivered, or cancelled early. */
export const NEXT_STATUSES: Record<OrderStatus, OrderStatus[]> = {
  pending: ["processing", "cancelled"],
  processing: ["shipped", "cancelled"],
  shipped: ["delivered"],
  delivered: [],
  cancelled: [],
};

export function orderNumber(id: string): string {
  return `PS-${id.replaceAll("-", "").slice(0, 8).toUpperCase()}`;
}
