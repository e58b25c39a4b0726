import type { Kysely } from "kysely";

/**
 * /admin/products lists lowest stock first, a page at a time by key (stock, id): this index lets each page
 * read only its own rows, whatever the size of the catalogue.
 */
export function adminCatalogMigration() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex("products_stock").on("products").columns(["stock", "id"]).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex("products_stock").execute();
    },
  };
}
