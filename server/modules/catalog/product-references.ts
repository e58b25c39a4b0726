import type { Kysely, QueryCreator } from "kysely";
import type { Dialect } from "../../platform/db/client.ts";
import type { DB } from "../../platform/db/schema.ts";

// What other modules may read of products, as query fragments to put inside their own statements: a cart line, an
// order's check, a review's product. Each is a select of one table, which both databases merge into the caller's
// statement (PostgreSQL pulls such subqueries up; SQLite flattens them, also as the right side of a LEFT JOIN), so
// joining one costs what joining the table did.

/** The product columns a cart line shows and the checkout prices, by product id: join it `as` an alias on its `id`. */
export function productsForLines(from: QueryCreator<DB>) {
  return from.selectFrom("products").select(["id", "name", "price_paise", "stock", "category_id"]);
}

/** Each product's first picture (its cover), by `product_id`: join it `as` an alias. */
export function coverImages(from: QueryCreator<DB>) {
  return from.selectFrom("product_images").select(["product_id", "url", "width", "height", "media_key"]).where("position", "=", 0);
}

/** Whether the product exists. */
export async function productExists(from: Kysely<DB>, productId: string): Promise<boolean> {
  return (await from.selectFrom("products").select("id").where("id", "=", productId).executeTakeFirst()) !== undefined;
}

/** Locks the product's row for the rest of the caller's transaction (PostgreSQL); false when there is no such product. */
export async function lockProduct(trx: Kysely<DB>, dialect: Dialect, productId: string): Promise<boolean> {
  const query = trx.selectFrom("products").select("id").where("id", "=", productId);
  const row = await (dialect === "postgres" ? query.forUpdate() : query).executeTakeFirst();
  return row !== undefined;
}

/**
 * Keeps the product's review figures in step with a change of its reviews, inside the caller's transaction:
 * `reviews` more (or fewer) reviews, whose ratings add up to `ratingChange` more (or less).
 */
export async function countReviewChange(trx: Kysely<DB>, productId: string, { reviews, ratingChange }: { reviews: -1 | 0 | 1; ratingChange: number }): Promise<void> {
  await trx
    .updateTable("products")
    .set((eb) => ({
      ...(reviews === 0 ? {} : { review_count: eb("review_count", reviews > 0 ? "+" : "-", 1) }),
      rating_total: eb("rating_total", "+", ratingChange),
    }))
    .where("id", "=", productId)
    .execute();
}

/** The named categories that exist, by id (a discount code limited to categories names them). */
export async function categoryNames(from: Kysely<DB>, ids: readonly string[]): Promise<{ id: string; name: string }[]> {
  if (!ids.length) return [];
  return from.selectFrom("categories").select(["id", "name"]).where("id", "in", ids).orderBy("name").execute();
}
