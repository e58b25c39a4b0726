import type { Kysely } from "kysely";
import type { MigrationContext } from "../../../platform/db/migrate.ts";

/**
 * Saved plants (docs/product.md, Wishlist): one row per shopper and plant. Both foreign keys cascade: a deleted
 * account takes its list with it (docs/decisions/040), and a deleted product leaves every list it was on.
 */
export function wishlistMigration({ timestamp }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("wishlist_items")
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("product_id", "text", (c) => c.notNull().references("products.id").onDelete("cascade"))
        .addColumn("created_at", timestamp, (c) => c.notNull())
        .addPrimaryKeyConstraint("wishlist_items_pk", ["user_id", "product_id"])
        .execute();
      // The person's list newest first, continued by key (created_at, product_id): one index range per page.
      await db.schema.createIndex("wishlist_items_user_created").on("wishlist_items").columns(["user_id", "created_at", "product_id"]).execute();
      // A product's deletion cascades here: that lookup needs an index by product.
      await db.schema.createIndex("wishlist_items_product").on("wishlist_items").column("product_id").execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable("wishlist_items").execute();
    },
  };
}
