import type { Kysely, QueryCreator } from "kysely";
import type { Dialect } from "../../platform/db/client.ts";
import { priceAt, type PriceNow } from "#common/catalog/sale-price.ts";
import type { DB } from "../../platform/db/schema.ts";
import { toIsoString } from "../../platform/db/values.ts";

// What other modules may read of products, as query fragments to put inside their own statements: a cart line, an
// order's check, a review's product. Each is a select of one table, which both databases merge into the caller's
// statement (PostgreSQL pulls such subqueries up; SQLite flattens them, also as the right side of a LEFT JOIN), so
// joining one costs what joining the table did.

/**
 * The product columns a cart line shows and the checkout prices, by product id: join it `as` an alias on its `id`
 * (after variantsForLines, which has the price, the compare-at price and the stock: decision 048).
 */
export function productsForLines(from: QueryCreator<DB>) {
  return from.selectFrom("products").select(["id", "name", "sale_starts_at", "sale_ends_at", "category_id"]);
}

/** The sale columns of productsForLines, as a cart line's row carries them (every one null once the product is gone). */
export interface LineSaleColumns {
  price_paise: number | null;
  compare_at_paise: number | null;
  sale_starts_at: string | Date | null;
  sale_ends_at: string | Date | null;
}

/**
 * A line's unit price at `now` and the sale shown beside it, by the one price rule (common/catalog/sale-price.ts,
 * decision 047): the cart, the checkout and the order's snapshot all price a line through this.
 */
export function linePriceAt(row: LineSaleColumns, now: number): PriceNow {
  return priceAt(
    {
      pricePaise: row.price_paise ?? 0,
      compareAtPaise: row.compare_at_paise,
      saleStartsAt: row.sale_starts_at === null ? null : toIsoString(row.sale_starts_at),
      saleEndsAt: row.sale_ends_at === null ? null : toIsoString(row.sale_ends_at),
    },
    now,
  );
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
