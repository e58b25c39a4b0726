import type { ColumnType, Generated } from "kysely";
import type { Timestamp } from "../../platform/db/values.ts";

// The coupons' tables as Kysely sees them, created by ./migrations and added to the database's type (DB) here, so
// that the platform names no feature.

/** 0/1 on SQLite, a boolean on PostgreSQL (toFlag writes it). */
type Flag = ColumnType<boolean | number, boolean | number, boolean | number>;

export interface CouponTable {
  id: string;
  /** Upper-case: codes are not case-sensitive. */
  code: string;
  kind: "percent" | "amount";
  /** The percentage (1–100) or the paise taken off. */
  amount: number;
  min_subtotal_paise: number | null;
  starts_at: ColumnType<string | Date | null, string | null, string | null>;
  ends_at: ColumnType<string | Date | null, string | null, string | null>;
  max_uses: number | null;
  once_per_customer: Flag;
  paused: Flag;
  /** Orders carrying the code, not cancelled: kept by the checkout and cancellations. */
  used_count: Generated<number>;
  created_at: Timestamp;
}

export interface CouponCategoryTable {
  coupon_id: string;
  category_id: string;
}

export interface CouponUseTable {
  order_id: string;
  coupon_id: string;
  user_id: string | null;
  created_at: Timestamp;
}

/** The code a shopper applied to their cart (one at a time). */
export interface CartCouponTable {
  user_id: string;
  coupon_id: string;
}

declare module "../../platform/db/schema.ts" {
  interface DB {
    coupons: CouponTable;
    coupon_categories: CouponCategoryTable;
    coupon_uses: CouponUseTable;
    cart_coupons: CartCouponTable;
  }
}
