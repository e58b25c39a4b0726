import type { Timestamp } from "../../platform/db/values.ts";

// The cart's table as Kysely sees it, created by ./migrations and added to the database's type (DB) here, so that
// the platform names no feature.

export interface CartItemTable {
  id: string;
  user_id: string;
  /** Null once the product is gone: the line stays, unavailable, until the shopper removes it. */
  product_id: string | null;
  /** The size the line holds (migration 0023); null once that variant is gone, like product_id. */
  variant_id: string | null;
  quantity: number;
  created_at: Timestamp;
}

declare module "../../platform/db/schema.ts" {
  interface DB {
    cart_items: CartItemTable;
  }
}

/** A visitor's cart (docs/decisions/037): only the SHA-256 of the cookie's token is kept. */
export interface VisitorCartTable {
  id: string;
  token_hash: string;
  created_at: Timestamp;
  /** Last added to, changed or read: a cart idle for VISITOR_CART_IDLE_DAYS is gone. */
  used_at: Timestamp;
}

export interface VisitorCartItemTable {
  id: string;
  cart_id: string;
  product_id: string | null;
  /** The size the line holds (migration 0023); null once that variant is gone, like product_id. */
  variant_id: string | null;
  quantity: number;
  created_at: Timestamp;
}

declare module "../../platform/db/schema.ts" {
  interface DB {
    visitor_carts: VisitorCartTable;
    visitor_cart_items: VisitorCartItemTable;
  }
}
