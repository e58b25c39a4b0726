import { sql, type Kysely } from "kysely";
import type { MigrationContext } from "../../../platform/db/migrate.ts";

/**
 * Sizes (docs/decisions/048): a product sells as one or more variants, each with its own label, SKU, price,
 * compare-at price and stock. The variant is the sellable unit and its stock has one owner, this table.
 *
 * Every existing product becomes its own first variant, under the product's id (so that a cart line or an order
 * line naming the product names that variant, and the upgrade of carts and orders is one copy of a column), with
 * no label (a product with one variant shows none) and the product's id as its SKU until the owner gives one.
 *
 * The product keeps `price_paise`, `compare_at_paise` and `stock`, now a summary of its variants kept by every
 * write of them: the lowest price with that variant's compare-at price, and the total stock. Lists, search, sort and
 * /sale's partial indexes read one row per product as before. `max_price_paise` is set when the prices differ
 * ('From Rs. X' on a card). `product_variants_low_stock` reads the overview's low-stock list by variant.
 */
export function variantsMigration({ timestamp }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("product_variants")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("product_id", "text", (c) => c.notNull().references("products.id").onDelete("cascade"))
        .addColumn("position", "integer", (c) => c.notNull().check(sql`position >= 0`))
        .addColumn("label", "text", (c) => c.notNull())
        .addColumn("sku", "text", (c) => c.notNull())
        .addColumn("price_paise", "integer", (c) => c.notNull().check(sql`price_paise >= 0`))
        .addColumn("compare_at_paise", "integer")
        .addColumn("stock", "integer", (c) => c.notNull().check(sql`stock >= 0`))
        // The size's own picture: one of its plant's, shown first when the size is chosen (none: the plant's first).
        .addColumn("image_id", "text", (c) => c.references("product_images.id").onDelete("set null"))
        .addColumn("created_at", timestamp, (c) => c.notNull())
        .addColumn("updated_at", timestamp, (c) => c.notNull())
        .execute();
      await sql`create unique index product_variants_sku_unique on product_variants (lower(sku))`.execute(db);
      await db.schema.createIndex("product_variants_product").on("product_variants").columns(["product_id", "position"]).execute();
      await db.schema.createIndex("product_variants_low_stock").on("product_variants").columns(["stock", "id"]).execute();
      await sql`insert into product_variants (id, product_id, position, label, sku, price_paise, compare_at_paise, stock, created_at, updated_at)
        select id, id, 0, '', id, price_paise, compare_at_paise, stock, created_at, updated_at from products`.execute(db);
      await db.schema.alterTable("products").addColumn("max_price_paise", "integer").execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable("products").dropColumn("max_price_paise").execute();
      await db.schema.dropTable("product_variants").execute();
    },
  };
}
