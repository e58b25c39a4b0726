import { sql, type Kysely } from "kysely";

/**
 * Order lines by variant (docs/decisions/048): the variant ordered, and its label and SKU as they were (copies,
 * like the name and price: the variant may be renamed or deleted since, and the order keeps what was sold). Lines
 * ordered before sizes existed name their product's first variant, which has the product's id; their label and
 * SKU stay null (a product with one variant shows no label).
 */
export function orderLineVariantsMigration() {
  return {
    async up(db: Kysely<unknown>) {
      await sql`alter table order_lines add column variant_id text references product_variants (id) on delete set null`.execute(db);
      await db.schema.alterTable("order_lines").addColumn("variant_label", "text").execute();
      await db.schema.alterTable("order_lines").addColumn("sku", "text").execute();
      await sql`update order_lines set variant_id = product_id where product_id is not null`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      for (const column of ["sku", "variant_label", "variant_id"]) await db.schema.alterTable("order_lines").dropColumn(column).execute();
    },
  };
}
