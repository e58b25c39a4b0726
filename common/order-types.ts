export type OrderStatus = "pending" | "processing" | "shipped" | "delivered" | "cancelled";

export interface OrderLine {
  productId: string | null;
  name: string;
  unitPricePaise: number;
  quantity: number;
  lineTotalPaise: number;
}

export interface OrderSummary {
  id: string;
  number: string;
  status: OrderStatus;
  totalPaise: number;
  itemCount: number;
  createdAt: string;
}

export interface OrderDetail extends OrderSummary {
  userId: string;
  lines: OrderLine[];
  subtotalPaise: number;
  shippingPaise: number;
  shipName: string;
  shipPhone: string;
  shipAddress: string;
  paymentMethod: string;
}

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
