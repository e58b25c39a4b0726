import { sql, type Kysely } from "kysely";
import type { MigrationContext } from "../../../platform/db/migrate.ts";

/**
 * Sale prices (docs/decisions/047): an optional compare-at price and an optional sale window on each product.
 *
 * Partial indexes, so what they cost follows the products that have a compare-at price, never the catalogue:
 * `products_on_sale` (created_at, id) reads the /sale list newest first, `products_on_sale_price` and
 * `products_on_sale_saving` by price and by saving, each stopping at the page asked for; `products_sale_starts` and
 * `products_sale_ends` find the next window boundary after now (one index probe each), which the server turns
 * into a change of the products concerned when it comes.
 */
export function salePricesMigration({ timestamp }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("products").addColumn("compare_at_paise", "integer").execute();
      await db.schema.alterTable("products").addColumn("sale_starts_at", timestamp).execute();
      await db.schema.alterTable("products").addColumn("sale_ends_at", timestamp).execute();
      await sql`create index products_on_sale on products (created_at, id) where compare_at_paise is not null`.execute(db);
      await sql`create index products_on_sale_price on products (price_paise, id) where compare_at_paise is not null`.execute(db);
      await sql`create index products_on_sale_saving on products (((compare_at_paise - price_paise) * 1.0 / compare_at_paise), id) where compare_at_paise is not null`.execute(db);
      await sql`create index products_sale_starts on products (sale_starts_at) where sale_starts_at is not null`.execute(db);
      await sql`create index products_sale_ends on products (sale_ends_at) where sale_ends_at is not null`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      for (const index of ["products_on_sale", "products_on_sale_price", "products_on_sale_saving", "products_sale_starts", "products_sale_ends"]) await sql.raw(`drop index if exists ${index}`).execute(db);
      for (const column of ["compare_at_paise", "sale_starts_at", "sale_ends_at"]) await db.schema.alterTable("products").dropColumn(column).execute();
    },
  };
}
