import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { productIdParamSchema } from "#common/catalog/catalog-schemas.ts";
import { encodeCursor, reviewIdSchema, reviewInputSchema, reviewListQuerySchema } from "#common/reviews/review-schemas.ts";
import type { Review, ReviewPage } from "#common/reviews/review-types.ts";
import { messages } from "#common/shared/messages.ts";
import type { ChangeFeed } from "../../platform/change-feed/change-feed.ts";
import type { Database } from "../../platform/db/client.ts";
import type { DB } from "../../platform/db/schema.ts";
import { inWriteTransaction } from "../../platform/db/write-transaction.ts";
import { ForbiddenError, NotFoundError, parseInput, UnauthorizedError, withMessagePrefix } from "../../platform/errors.ts";
import type { SessionUser } from "../../platform/session-user.ts";
import { countReviewChange, lockProduct, productExists } from "../catalog/index.ts";
import { findReview, listReviewRows, reviewExists, toReview } from "./review-queries.ts";

const r = messages.reviews;

export type ReviewsService = ReturnType<typeof createReviewsService>;

/**
 * Reviews of products (docs/product.md, Reviews; decision 020). One review per shopper per product:
 * writing again replaces theirs. Authors delete their own, admins any. Every write keeps the product's
 * review_count and rating_total in step in the same transaction, and announces the change after commit.
 */
export function createReviewsService(database: Pick<Database, "db" | "dialect">, { changes }: { changes: ChangeFeed }) {
  const { db } = database;

  function signedIn(viewer: SessionUser | null, prefix: string): SessionUser {
    if (!viewer) throw new UnauthorizedError(`${prefix} ${r.logInFirst}`);
    return viewer;
  }

  /**
   * A write on one product's reviews, with the product's row locked (PostgreSQL; SQLite's write transaction
   * is serial already): two writes of one shopper cannot both find "no review yet", and the maintained
   * figures are read and changed by one writer at a time.
   */
  function writeReviews<T>(productId: string, prefix: string, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
    return inWriteTransaction(database, async (trx) => {
      if (!(await lockProduct(trx, database.dialect, productId))) throw new NotFoundError(`${prefix} ${messages.product.notFound}`);
      const result = await work(trx);
      changes.publish(trx, { type: "product", productId, aspects: ["reviews"] });
      return result;
    });
  }

  /** Removes one review and takes it out of the product's figures. */
  async function removeReview(trx: Kysely<DB>, review: { id: string; product_id: string; rating: number }) {
    await trx.deleteFrom("reviews").where("id", "=", review.id).execute();
    await countReviewChange(trx, review.product_id, { reviews: -1, ratingChange: -review.rating });
  }

  return {
    /** GET /api/products/{id}/reviews: newest first, a page at a time after the key of the last one shown. */
    async listReviews(productIdInput: unknown, query: unknown): Promise<ReviewPage> {
      const { productId } = withMessagePrefix(r.fetchPrefix, () => parseInput(productIdParamSchema, { productId: productIdInput }));
      const { after, limit } = withMessagePrefix(r.fetchPrefix, () => parseInput(reviewListQuerySchema, query ?? {}));
      if (!(await productExists(db, productId))) throw new NotFoundError(`${r.fetchPrefix} ${messages.product.notFound}`);
      // One more than asked tells whether another page follows, without counting.
      const rows = await listReviewRows(db, productId, after, limit + 1);
      const items = rows.slice(0, limit).map(toReview);
      const last = items.at(-1);
      return { items, nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : null };
    },

    /** The viewer's own review of a product (the form shows it prefilled), or null. */
    async getMyReview(viewer: SessionUser | null, productIdInput: unknown): Promise<Review | null> {
      if (!viewer) return null;
      const parsed = productIdParamSchema.safeParse({ productId: productIdInput });
      if (!parsed.success) return null;
      const row = await findReview(db, { productId: parsed.data.productId, userId: viewer.id });
      return row ? toReview(row) : null;
    },

    /**
     * Whether the viewer has reviewed the product, without reading the review: what a shared product page asks on
     * every signed-in request (a page of a product the person reviewed is rendered for them, with their review).
     */
    async hasReviewed(viewer: SessionUser | null, productIdInput: unknown): Promise<boolean> {
      if (!viewer) return false;
      const parsed = productIdParamSchema.safeParse({ productId: productIdInput });
      if (!parsed.success) return false;
      return (await reviewExists.executeTakeFirst(db, { productId: parsed.data.productId, userId: viewer.id })) !== undefined;
    },

    /** PUT …/reviews/mine: adds the shopper's review, or replaces theirs (the date it was first written stays). */
    async saveMyReview(viewer: SessionUser | null, productIdInput: unknown, input: unknown): Promise<{ review: Review; created: boolean }> {
      const user = signedIn(viewer, r.addPrefix);
      const { productId } = withMessagePrefix(r.addPrefix, () => parseInput(productIdParamSchema, { productId: productIdInput }));
      const { text, rating } = withMessagePrefix(r.addPrefix, () => parseInput(reviewInputSchema, input));
      const created = await writeReviews(productId, r.addPrefix, async (trx) => {
        const now = new Date().toISOString();
        const existing = await trx
          .selectFrom("reviews")
          .select(["id", "rating"])
          .where("product_id", "=", productId)
          .where("user_id", "=", user.id)
          .executeTakeFirst();
        if (existing) {
          await trx.updateTable("reviews").set({ text, rating, updated_at: now }).where("id", "=", existing.id).execute();
          await countReviewChange(trx, productId, { reviews: 0, ratingChange: rating - existing.rating });
          return false;
        }
        await trx
          .insertInto("reviews")
          .values({ id: randomUUID(), product_id: productId, user_id: user.id, rating, text, created_at: now, updated_at: now })
          .execute();
        await countReviewChange(trx, productId, { reviews: 1, ratingChange: rating });
        return true;
      });
      const row = await findReview(db, { productId, userId: user.id });
      if (!row) throw new NotFoundError(`${r.addPrefix} ${r.notFound}`); // deleted again in between
      return { review: toReview(row), created };
    },

    /** DELETE …/reviews/mine. */
    async deleteMyReview(viewer: SessionUser | null, productIdInput: unknown): Promise<void> {
      const user = signedIn(viewer, r.deletePrefix);
      const { productId } = withMessagePrefix(r.deletePrefix, () => parseInput(productIdParamSchema, { productId: productIdInput }));
      await writeReviews(productId, r.deletePrefix, async (trx) => {
        const review = await trx
          .selectFrom("reviews")
          .select(["id", "product_id", "rating"])
          .where("product_id", "=", productId)
          .where("user_id", "=", user.id)
          .executeTakeFirst();
        if (!review) throw new NotFoundError(`${r.deletePrefix} ${r.notFound}`);
        await removeReview(trx, review);
      });
    },

    /** DELETE …/reviews/{reviewId}: an admin deletes any review; anyone else only their own. */
    async deleteReview(viewer: SessionUser | null, productIdInput: unknown, reviewIdInput: unknown): Promise<void> {
      const user = signedIn(viewer, r.deletePrefix);
      const { productId } = withMessagePrefix(r.deletePrefix, () => parseInput(productIdParamSchema, { productId: productIdInput }));
      const reviewId = reviewIdSchema.safeParse(reviewIdInput);
      if (!reviewId.success) throw new NotFoundError(`${r.deletePrefix} ${r.notFound}`);
      await writeReviews(productId, r.deletePrefix, async (trx) => {
        const review = await trx
          .selectFrom("reviews")
          .select(["id", "product_id", "rating", "user_id"])
          .where("id", "=", reviewId.data)
          .where("product_id", "=", productId)
          .executeTakeFirst();
        if (!review) throw new NotFoundError(`${r.deletePrefix} ${r.notFound}`);
        if (!user.isAdmin && review.user_id !== user.id) throw new ForbiddenError(`${r.deletePrefix} ${r.notYours}`);
        await removeReview(trx, review);
      });
    },
  };
}

