import { sql, type Kysely } from "kysely";
import { facetCellSql } from "#common/catalog/list-filters.ts";
import type { MigrationContext } from "../../../platform/db/migrate.ts";

const INDEXES = [
  "products_facets",
  "products_category_facets",
  "products_created_facets",
  "products_price_facets",
  "products_rating_facets",
  "products_on_sale_facets",
];

/**
 * The shop's filters and orders (common/catalog/list-filters.ts). Two columns the database computes itself, so no
 * write anywhere can leave them behind (a care profile saved, stock sold, a review written):
 *
 * - `care_cell`: the product's facet cell, its light, pet safety, difficulty, place and whether it is in stock as one
 *   of 480 small integers. A filter is `care_cell in (the matching cells)`, a seek per cell.
 * - `rating_average`: the average review (0 without reviews, so those come last when best rated comes first).
 *
 * SQLite adds a generated column only as VIRTUAL (computed when read, stored in the indexes); PostgreSQL only as
 * STORED. The indexes hold every column a filtered list tests, so a list reads index entries alone until its page
 * is found: by cell and price to count and to read a short list (`products_facets`, per category
 * `products_category_facets`, on sale `products_on_sale_facets`), and in each order to read a long one
 * (`products_created_facets`, `products_price_facets`, `products_rating_facets`).
 */
export function listFiltersMigration({ dialect }: MigrationContext) {
  const stored = dialect === "postgres" ? "stored" : "virtual";
  const average =
    dialect === "postgres"
      ? "(case when review_count > 0 then rating_total::double precision / review_count else 0 end)"
      : "(case when review_count > 0 then rating_total * 1.0 / review_count else 0 end)";
  return {
    async up(db: Kysely<unknown>) {
      await sql.raw(`alter table products add column care_cell integer generated always as (${facetCellSql()}) ${stored}`).execute(db);
      await sql.raw(`alter table products add column rating_average ${dialect === "postgres" ? "double precision" : "real"} generated always as (${average}) ${stored}`).execute(db);
      await sql`create index products_facets on products (care_cell, price_paise, id)`.execute(db);
      await sql`create index products_category_facets on products (category_id, care_cell, price_paise, id)`.execute(db);
      await sql`create index products_created_facets on products (created_at, id, care_cell, price_paise, category_id)`.execute(db);
      await sql`create index products_price_facets on products (price_paise, id, care_cell, category_id)`.execute(db);
      await sql`create index products_rating_facets on products (rating_average, review_count, id, care_cell, price_paise, category_id)`.execute(db);
      await sql`create index products_on_sale_facets on products (care_cell, price_paise, id) where compare_at_paise is not null`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      for (const index of INDEXES) await sql.raw(`drop index if exists ${index}`).execute(db);
      await db.schema.alterTable("products").dropColumn("rating_average").execute();
      await db.schema.alterTable("products").dropColumn("care_cell").execute();
    },
  };
}
