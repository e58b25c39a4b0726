export type OrderStatus = "pending" | "processing" | "shipped" | "delivered" | "cancelled";

export interface OrderLine {
  productId: string | null;
  name: string;
  unitPricePaise: number;
  quantity: number;
  lineTotalPaise: number;
}

/** Who placed an order (shown to admins; to a shopper it is themselves). */
export interface Customer {
  name: string;
  email: string;
}

export interface OrderSummary {
  id: string;
  number: string;
  status: OrderStatus;
  totalPaise: number;
  itemCount: number;
  createdAt: string;
  customer: Customer;
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

/** An order as one person sees it: may they cancel it themselves (its owner, while it is pending)? */
export interface ViewedOrder extends OrderDetail {
  /** False when an admin looks at someone else's order. */
  viewedByOwner: boolean;
  canCancel: boolean;
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
