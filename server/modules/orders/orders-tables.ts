import type { ColumnType } from "kysely";
import type { Timestamp } from "../../platform/db/values.ts";

// The orders' tables as Kysely sees them, created by ./migrations and added to the database's type (DB) here, so
// that the platform names no feature.

export interface OrderTable {
  id: string;
  /** Null once the customer deleted their account: the order stays for the shop's records (migration 0018). */
  user_id: string | null;
  /** One of ORDER_STATUSES (common/orders/order-schemas.ts): what is read is parsed with that list. */
  status: string;
  subtotal_paise: number;
  shipping_paise: number;
  /** Taken off by the discount code (0 without one); total = subtotal − discount + shipping (migration 0021). */
  discount_paise: ColumnType<number, number | undefined, never>;
  /** The discount code as it was applied (a copy: the code may be deleted since). */
  coupon_code: ColumnType<string | null, string | null | undefined, never>;
  total_paise: number;
  ship_name: string;
  ship_phone: string;
  ship_address: string;
  /** The PIN code shipped to (migration 0031); null for orders placed before the checkout asked for it. */
  ship_pin: ColumnType<string | null, string | null | undefined, never>;
  payment_method: string;
  idempotency_key: string;
  /** The day of order_daily_totals this order is counted on (migration 0011-admin-overview). */
  counted_on: ColumnType<string | null, string | null | undefined, string | null>;
  /** The number people quote; null for orders placed before 0014, whose number is made from their id. */
  number: ColumnType<string | null, string | null | undefined, never>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OrderLineTable {
  id: string;
  order_id: string;
  position: number;
  product_id: string | null;
  /** The variant ordered (migration 0023); null once it is deleted: its label and SKU stay, copied. */
  variant_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The variant's label when ordered; null when the product had one variant (no label to show). */
  variant_label: ColumnType<string | null, string | null | undefined, never>;
  sku: ColumnType<string | null, string | null | undefined, never>;
  name: string;
  unit_price_paise: number;
  quantity: number;
}

/** One day's orders in the shop's time zone, kept by the orders module as orders are placed and cancelled. */
export interface OrderDailyTotalTable {
  /** YYYY-MM-DD in the shop's time zone. */
  day: string;
  orders_placed: number;
  orders_cancelled: number;
  /** Totals of the day's orders that were not cancelled. */
  revenue_paise: number;
}

/** A gift order's recipient and message (migration 0028); an order that is no gift has no row. */
export interface OrderGiftTable {
  order_id: string;
  recipient_name: string;
  recipient_phone: string;
  message: string | null;
  /** 1: the packing slip shows no prices, totals or payment; 0: it does. */
  hide_prices: number;
}

/** The payment of an order paid before the shop starts on it (UPI; migration 0032); Cash on Delivery orders have none. */
export interface OrderPaymentTable {
  order_id: string;
  /** A PAYMENT_METHOD_IDS id: 'upi'. */
  method: string;
  /** One of PAYMENT_STATES (common/orders/order-schemas.ts). */
  state: string;
  /** The UPI reference (UTR) the shopper gave; null until they give one. */
  reference: ColumnType<string | null, string | null | undefined, string | null>;
  /** Until when an awaiting payment may arrive before the shop cancels the order; null once settled. */
  pay_by: ColumnType<string | Date | null, string | null, string | null>;
  updated_at: Timestamp;
}

/** A shopper the owner turned Cash on Delivery off for (migration 0032); gone with their account. */
export interface CodBlockTable {
  user_id: string;
  /** The admin who turned it off. */
  blocked_by: string | null;
  blocked_at: Timestamp;
}

declare module "../../platform/db/schema.ts" {
  interface DB {
    orders: OrderTable;
    order_lines: OrderLineTable;
    order_daily_totals: OrderDailyTotalTable;
    order_gifts: OrderGiftTable;
    order_payments: OrderPaymentTable;
    cod_blocks: CodBlockTable;
  }
}
