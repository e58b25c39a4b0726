import type { z } from "zod";
import type {
  adminOrderPageSchema,
  codStandingSchema,
  paymentOptionSchema,
  paymentStateSchema,
  customerSchema,
  daySalesSchema,
  giftSchema,
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
export type Gift = z.infer<typeof giftSchema>;
export type DaySales = z.infer<typeof daySalesSchema>;
export type PaymentState = z.infer<typeof paymentStateSchema>;
export type PaymentMethodId = OrderDetail["payment"]["method"];
export type CodStanding = z.infer<typeof codStandingSchema>;
export type PaymentOption = z.infer<typeof paymentOptionSchema>;

/**
 * Where an order may go next (docs/product.md, Orders): pending → processing → shipped → delivered, or cancelled
 * early. A UPI order starts awaiting its payment: confirmed paid it becomes pending, not received it is cancelled
 * (docs/decisions/054). A shipped parcel refused at the door comes back as 'refused'.
 */
export const NEXT_STATUSES: Record<OrderStatus, OrderStatus[]> = {
  awaiting_payment: ["pending", "cancelled"],
  pending: ["processing", "cancelled"],
  processing: ["shipped", "cancelled"],
  shipped: ["delivered", "refused"],
  delivered: [],
  cancelled: [],
  refused: [],
};

/**
 * The letters of an order number: Crockford's base32, digits and capitals without I, L, O and U, so nothing read out
 * on the phone is mistaken for a 1, a 0 or a rude word (docs/decisions/036-order-numbers-and-repeated-messages.md).
 */
export const ORDER_NUMBER_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * Every order number there is: today's, PS- and three groups of four of the letters above (60 bits), and the
 * older PS- and eight hexadecimal digits, which orders placed before keep.
 */
export const ORDER_NUMBER_PATTERN = /^PS-(?:[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}|[0-9A-F]{8})$/;

/** The number of an order placed before numbers were stored: PS- and the first eight hex digits of its id. */
export function legacyOrderNumber(id: string): string {
  return `PS-${id.replaceAll("-", "").slice(0, 8).toUpperCase()}`;
}
