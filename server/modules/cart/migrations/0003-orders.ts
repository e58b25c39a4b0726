import { sql, type Kysely } from "kysely";
import type { MigrationContext } from "../../../platform/db/migrate.ts";

/** Each shopper's cart: one line per product. */
export function cartItemsMigration({ timestamp }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("cart_items")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        // A product that goes leaves its line behind, shown as unavailable, not silently dropped: the order keeps its copy.
        .addColumn("product_id", "text", (c) => c.references("products.id").onDelete("set null"))
        .addColumn("quantity", "integer", (c) => c.notNull().check(sql`quantity > 0`))
        .addColumn("created_at", timestamp, (c) => c.notNull())
        .addUniqueConstraint("cart_items_user_product_unique", ["user_id", "product_id"])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable("cart_items").execute();
    },
  };
}
