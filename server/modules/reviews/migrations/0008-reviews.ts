import { sql, type Kysely } from "kysely";
import type { MigrationContext } from "../../../platform/db/migrate.ts";

/** Reviews (decision 020): one per shopper per product, newest first in pages by key. */
export function reviewsMigration({ timestamp }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("reviews")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("product_id", "text", (c) => c.notNull().references("products.id").onDelete("cascade"))
        // The review outlives its author's account; it is then shown 'by Anonymous' (docs/product.md, Reviews).
        .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("set null"))
        // `in` rather than `between`: SQLite would store 4.5 in an integer column and let `between` pass it.
        .addColumn("rating", "integer", (c) => c.notNull().check(sql`rating in (1, 2, 3, 4, 5)`))
        .addColumn("text", "text", (c) => c.notNull().check(sql`length(text) between 1 and 2000`))
        .addColumn("created_at", timestamp, (c) => c.notNull())
        .addColumn("updated_at", timestamp, (c) => c.notNull())
        // Several reviews without an author (NULL) may remain; a living account has at most one per product.
        .addUniqueConstraint("reviews_product_user_unique", ["product_id", "user_id"])
        .execute();
      // Newest first per product, continued by key (created_at, id): one index range per page.
      await db.schema.createIndex("reviews_product_created").on("reviews").columns(["product_id", "created_at", "id"]).execute();
      // Deleting an account sets its reviews' author to NULL: that lookup needs an index by author.
      await db.schema.createIndex("reviews_user").on("reviews").column("user_id").execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable("reviews").execute();
    },
  };
}
