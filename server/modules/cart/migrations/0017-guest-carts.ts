import { sql, type Kysely } from "kysely";
import type { MigrationContext } from "../../../platform/db/migrate.ts";

/**
 * A visitor's cart (docs/decisions/037): found by the SHA-256 of the random token in the visitor's cookie, so a copy
 * of the database opens none; forgotten once idle for long (used_at, indexed for the bounded clean-up).
 */
export function visitorCartsMigration({ timestamp }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("visitor_carts")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("token_hash", "text", (c) => c.notNull().unique())
        .addColumn("created_at", timestamp, (c) => c.notNull())
        .addColumn("used_at", timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("visitor_carts_used_at").on("visitor_carts").columns(["used_at", "id"]).execute();
      await db.schema
        .createTable("visitor_cart_items")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("cart_id", "text", (c) => c.notNull().references("visitor_carts.id").onDelete("cascade"))
        // As in an account's cart: a product that goes leaves its line behind, shown as unavailable.
        .addColumn("product_id", "text", (c) => c.references("products.id").onDelete("set null"))
        .addColumn("quantity", "integer", (c) => c.notNull().check(sql`quantity > 0`))
        .addColumn("created_at", timestamp, (c) => c.notNull())
        .addUniqueConstraint("visitor_cart_items_cart_product_unique", ["cart_id", "product_id"])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable("visitor_cart_items").execute();
      await db.schema.dropTable("visitor_carts").execute();
    },
  };
}
