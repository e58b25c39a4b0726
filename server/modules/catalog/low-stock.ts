import type { Kysely } from "kysely";
import type { LowStockProduct } from "#common/catalog/catalog-types.ts";
import type { DB } from "../../platform/db/schema.ts";

export type { LowStockProduct };

/**
 * Sizes with at most `threshold` in stock, fewest first, at most `limit` of them, each with its product's name: the
 * size is what sells out (a plant with 40 medium and 1 large is low in its large size). A range of the
 * product_variants_low_stock index (stock, id), each row joined to its product by key, so the cost follows `limit`,
 * not the size of the catalogue.
 */
export async function listLowStockProducts(db: Kysely<DB>, threshold: number, limit: number): Promise<LowStockProduct[]> {
  const rows = await db
    .selectFrom("product_variants as v")
    .innerJoin("products as p", "p.id", "v.product_id")
    .select(["v.product_id", "v.id", "v.label", "v.stock", "p.name"])
    .where("v.stock", "<=", threshold)
    .orderBy("v.stock")
    .orderBy("v.id")
    .limit(limit)
    .execute();
  return rows.map((row) => ({ id: row.product_id, name: row.name, stock: Number(row.stock), variantId: row.id, label: row.label }));
}
