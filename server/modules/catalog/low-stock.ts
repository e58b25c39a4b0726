import type { Kysely } from "kysely";
import type { LowStockProduct } from "#common/catalog/catalog-types.ts";
import type { DB } from "../../platform/db/schema.ts";

export type { LowStockProduct };

/**
 * Products with at most `threshold` in stock, fewest first, at most `limit` of them: a range of the
 * products_stock index (migration 0010), so the cost follows `limit`, not the size of the catalogue.
 */
export async function listLowStockProducts(db: Kysely<DB>, threshold: number, limit: number): Promise<LowStockProduct[]> {
  const rows = await db
    .selectFrom("products")
    .select(["id", "name", "stock"])
    .where("stock", "<=", threshold)
    .orderBy("stock")
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map((row) => ({ id: row.id, name: row.name, stock: Number(row.stock) }));
}
