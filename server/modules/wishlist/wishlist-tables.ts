import type { Timestamp } from "../../platform/db/values.ts";

// The wishlist's table as Kysely sees it, created by ./migrations and added to the database's type (DB) here, so
// that the platform names no feature.

/** Migration 0026-wishlist: one row per shopper and saved plant. */
export interface WishlistItemTable {
  user_id: string;
  product_id: string;
  created_at: Timestamp;
}

declare module "../../platform/db/schema.ts" {
  interface DB {
    wishlist_items: WishlistItemTable;
  }
}
