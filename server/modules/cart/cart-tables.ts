import type { Timestamp } from "../../platform/db/values.ts";

// The cart's table as Kysely sees it, created by ./migrations and added to the database's type (DB) here, so that
// the platform names no feature.

export interface CartItemTable {
  id: string;
  user_id: string;
  /** Null once the product is gone: the line stays, unavailable, until the shopper removes it. */
  product_id: string | null;
  quantity: number;
  created_at: Timestamp;
}

declare module "../../platform/db/schema.ts" {
  interface DB {
    cart_items: CartItemTable;
  }
}
