import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { DB } from "../../server/platform/db/schema.ts";
import { createProduct } from "./factories.ts";

/**
 * A plant in two sizes, 'Small' (Rs. 500) and 'Large' (Rs. 900), with these stocks, written as the catalogue keeps
 * them (docs/decisions/048): the product's row summarises its sizes (the lowest price, the highest where they
 * differ, the total stock). Answers the product and its two sizes' ids.
 */
export async function createSizedProduct(db: Kysely<DB>, stock: { small: number; large: number }, name = `Sized Monstera ${randomUUID().slice(0, 8)}`) {
  const product = await createProduct(db, { name, price_paise: 50_000, stock: stock.small });
  await db.updateTable("product_variants").set({ label: "Small" }).where("id", "=", product.id).execute();
  const now = new Date().toISOString();
  const large = randomUUID();
  await db
    .insertInto("product_variants")
    .values({ id: large, product_id: product.id, position: 1, label: "Large", sku: `SKU-${large}`, price_paise: 90_000, compare_at_paise: null, stock: stock.large, created_at: now, updated_at: now })
    .execute();
  await db.updateTable("products").set({ max_price_paise: 90_000, stock: stock.small + stock.large }).where("id", "=", product.id).execute();
  return { product, small: product.id, large };
}
