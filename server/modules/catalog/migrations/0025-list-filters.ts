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
 * PostgreSQL computes them as STORED generated columns. SQLite adds a generated column only as VIRTUAL, which it
 * computes from the table's row even where an index holds the value (a row read per match: 12 ms per 1,000 matches
 * at 100,000 products), so there they are plain columns its triggers set on every insert and on every update of the
 * columns they are made of, in the same statement. The indexes hold every column a filtered list tests, so a list reads index entries alone until its page
 * is found: by cell and price (and the orders' keys) to count and to read a short list (`products_facets`, per category
 * `products_category_facets`, on sale `products_on_sale_facets`), and in each order to read a long one
 * (`products_created_facets`, `products_price_facets`, `products_rating_facets`).
 */
export function listFiltersMigration({ dialect }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === "postgres") {
        await sql.raw(`alter table products add column care_cell integer generated always as (${facetCellSql()}) stored`).execute(db);
        await sql.raw(`alter table products add column rating_average double precision generated always as (${POSTGRES_AVERAGE}) stored`).execute(db);
      } else {
        await addSqliteColumns(db);
      }
      await sql`create index products_facets on products (care_cell, price_paise, created_at, id, rating_average, review_count)`.execute(db);
      await sql`create index products_category_facets on products (category_id, care_cell, price_paise, created_at, id, rating_average, review_count)`.execute(db);
      // Takes the place of 0001's (created_at, id), its first two columns: one index for the shop's order.
      await sql`drop index products_created_at`.execute(db);
      await sql`create index products_created_facets on products (created_at, id, care_cell, price_paise, category_id)`.execute(db);
      await sql`create index products_price_facets on products (price_paise, id, care_cell, category_id)`.execute(db);
      await sql`create index products_rating_facets on products (rating_average, review_count, id, care_cell, price_paise, category_id)`.execute(db);
      await sql`create index products_on_sale_facets on products (care_cell, price_paise, created_at, id, compare_at_paise, sale_starts_at, sale_ends_at) where compare_at_paise is not null`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      for (const index of INDEXES) await sql.raw(`drop index if exists ${index}`).execute(db);
      await sql`drop trigger if exists products_facets_insert`.execute(db);
      await sql`drop trigger if exists products_facets_update`.execute(db);
      await db.schema.createIndex("products_created_at").on("products").columns(["created_at", "id"]).execute();
      await db.schema.alterTable("products").dropColumn("rating_average").execute();
      await db.schema.alterTable("products").dropColumn("care_cell").execute();
    },
  };
}

export const SQLITE_AVERAGE = "(case when review_count > 0 then rating_total * 1.0 / review_count else 0 end)";
const POSTGRES_AVERAGE = "(case when review_count > 0 then rating_total::double precision / review_count else 0 end)";

async function addSqliteColumns(db: Kysely<unknown>) {
  await sql`alter table products add column care_cell integer not null default 0`.execute(db);
  await sql`alter table products add column rating_average real not null default 0`.execute(db);
  const set = sql.raw(`update products set care_cell = ${facetCellSql()}, rating_average = ${SQLITE_AVERAGE}`);
  await sql`${set}`.execute(db);
  // Neither column is among those the update trigger watches, so its own update does not fire it again.
  await sql`create trigger products_facets_insert after insert on products begin ${set} where rowid = new.rowid; end`.execute(db);
  await sql`create trigger products_facets_update after update of care_light, care_pet_safe, care_difficulty, care_place, stock, review_count, rating_total on products
    begin ${set} where rowid = new.rowid; end`.execute(db);
}
