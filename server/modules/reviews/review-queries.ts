import type { InferResult, Kysely } from "kysely";
import type { ReviewCursor } from "#common/reviews/review-schemas.ts";
import type { Review } from "#common/reviews/review-types.ts";
import { messages } from "#common/shared/messages.ts";
import { compiledOnce } from "../../platform/db/compiled-once.ts";
import type { DB } from "../../platform/db/schema.ts";
import { toIsoString } from "../../platform/db/values.ts";
import { namesAndEmails } from "../accounts/index.ts";

/** A review as read with its author's name (null once the account is gone). */
function reviewsWithAuthor(db: Kysely<DB>) {
  return db
    .selectFrom("reviews as r")
    .leftJoin(namesAndEmails(db).as("u"), "u.id", "r.user_id")
    .select(["r.id", "r.product_id", "r.user_id", "r.rating", "r.text", "r.created_at", "r.updated_at", "u.name as author_name"]);
}

type ReviewRow = InferResult<ReturnType<typeof reviewsWithAuthor>>[number];

/**
 * One page of a product's reviews, newest first, starting after `after`: a range of the index
 * (product_id, created_at, id), so its cost does not grow with the reviews before it.
 */
export function listReviewRows(db: Kysely<DB>, productId: string, after: ReviewCursor | undefined, limit: number) {
  let query = reviewsWithAuthor(db).where("r.product_id", "=", productId);
  if (after) {
    // The plain `created_at <=` bounds the index range; without it SQLite reads the OR row by row from the newest.
    query = query
      .where("r.created_at", "<=", after.createdAt)
      .where((eb) => eb.or([eb("r.created_at", "<", after.createdAt), eb.and([eb("r.created_at", "=", after.createdAt), eb("r.id", "<", after.id)])]));
  }
  return query.orderBy("r.created_at", "desc").orderBy("r.id", "desc").limit(limit).execute();
}

export function findReview(db: Kysely<DB>, { productId, userId }: { productId: string; userId: string }) {
  return reviewsWithAuthor(db).where("r.product_id", "=", productId).where("r.user_id", "=", userId).executeTakeFirst();
}

/** Whether the person has reviewed the product: one key of the (product_id, user_id) index, built once. */
export const reviewExists = compiledOnce((db, { productId, userId }: { productId: string; userId: string }) =>
  db.selectFrom("reviews").select("id").where("product_id", "=", productId).where("user_id", "=", userId).limit(1),
);

/** The products the person reviewed, at most `limit` of them (a rename announces each one's page as changed). */
export async function listReviewedProducts(from: Kysely<DB>, userId: string, limit: number): Promise<string[]> {
  const rows = await from.selectFrom("reviews").select("product_id").where("user_id", "=", userId).limit(limit).execute();
  return rows.map((row) => row.product_id);
}

export function toReview(row: ReviewRow): Review {
  return {
    id: row.id,
    productId: row.product_id,
    rating: row.rating,
    text: row.text,
    // A review whose author has no profile shows 'Anonymous' (docs/product.md, Reviews).
    authorName: row.author_name ?? messages.reviews.anonymous,
    authorId: row.user_id,
    createdAt: toIsoString(row.created_at),
    updatedAt: toIsoString(row.updated_at),
  };
}


/**
 * Detaches a deleting account's reviews from it, inside the caller's transaction (the account's deletion): each
 * review stays, shown as 'Anonymous', and still counts in its product's rating (decision 040). Answers the
 * products whose reviews changed, for the caller to announce once it commits.
 */
export async function detachAuthor(trx: Kysely<DB>, userId: string): Promise<string[]> {
  const rows = await trx.updateTable("reviews").set({ user_id: null }).where("user_id", "=", userId).returning("product_id").execute();
  return rows.map((row) => row.product_id);
}
