import type { ProductSummary } from "#common/catalog/catalog-types.ts";
import { WISHLIST_MAX_ITEMS } from "#common/shared/constants.ts";
import { messages } from "#common/shared/messages.ts";
import { encodeWishlistCursor, wishlistProductParamSchema, wishlistQuerySchema } from "#common/wishlist/wishlist-schemas.ts";
import type { WishlistPage, WishlistState } from "#common/wishlist/wishlist-types.ts";
import type { Database } from "../../platform/db/client.ts";
import { shopClock } from "../../platform/clock.ts";
import { toIsoString } from "../../platform/db/values.ts";
import { inShopperTransaction } from "../../platform/db/write-transaction.ts";
import { ConflictError, NotFoundError, parseInput, UnauthorizedError } from "../../platform/errors.ts";
import type { SessionUser } from "../../platform/session-user.ts";
import { productExists, type CatalogService } from "../catalog/index.ts";

// A shopper's saved plants (docs/decisions/050): every rule of the wishlist, the plants read through the catalog.

const w = messages.wishlist;

export type WishlistService = ReturnType<typeof createWishlistService>;

/**
 * A signed-in shopper's saved plants (docs/product.md, Wishlist). Every method is keyed by the SessionUser's own
 * id, never by an account named in the request, so nobody reads or changes another person's list. Saving and
 * removing are idempotent; a list holds at most WISHLIST_MAX_ITEMS plants. The plants themselves (price, sale,
 * stock) come from the catalog's service, so the list always shows them as the shop sells them now.
 */
export function createWishlistService(database: Pick<Database, "db" | "dialect">, { catalog }: { catalog: Pick<CatalogService, "productSummariesOf" | "sizeCountsOf"> }) {
  const { db } = database;

  function signedIn(viewer: SessionUser | null): SessionUser {
    if (!viewer) throw new UnauthorizedError(w.logInFirst);
    return viewer;
  }

  const productIdOf = (input: unknown) => parseInput(wishlistProductParamSchema, { productId: input }).productId;

  return {
    /** Saves a plant (PUT /api/wishlist/{productId}, the heart): `created` is false when it was saved already. */
    async save(viewer: SessionUser | null, productIdInput: unknown): Promise<WishlistState & { created: boolean }> {
      const user = signedIn(viewer);
      const productId = productIdOf(productIdInput);
      // Under the shopper's lock (PostgreSQL; SQLite's writes are serial): two saves at once cannot both pass the cap.
      const created = await inShopperTransaction(database, user.id, async (trx) => {
        if (!(await productExists(trx, productId))) throw new NotFoundError(messages.product.notFound);
        const saved = await trx.selectFrom("wishlist_items").select("product_id").where("user_id", "=", user.id).where("product_id", "=", productId).executeTakeFirst();
        if (saved) return false;
        // Counted in the person's index, at most the cap and one: the count never grows with anything else.
        const { n } = await trx
          .selectFrom(trx.selectFrom("wishlist_items").select("product_id").where("user_id", "=", user.id).limit(WISHLIST_MAX_ITEMS).as("kept"))
          .select((eb) => eb.fn.countAll<number | string>().as("n"))
          .executeTakeFirstOrThrow();
        if (Number(n) >= WISHLIST_MAX_ITEMS) throw new ConflictError(w.full(WISHLIST_MAX_ITEMS));
        await trx
          .insertInto("wishlist_items")
          .values({ user_id: user.id, product_id: productId, created_at: new Date(shopClock.now()).toISOString() })
          .onConflict((oc) => oc.columns(["user_id", "product_id"]).doNothing())
          .execute();
        return true;
      });
      return { productId, saved: true, created };
    },

    /** Removes a plant (DELETE /api/wishlist/{productId}); removing one not saved, or not existing, is no error. */
    async remove(viewer: SessionUser | null, productIdInput: unknown): Promise<WishlistState> {
      const user = signedIn(viewer);
      const productId = productIdOf(productIdInput);
      await db.deleteFrom("wishlist_items").where("user_id", "=", user.id).where("product_id", "=", productId).execute();
      return { productId, saved: false };
    },

    /** Whether the person saved this plant: one read by primary key (false for a visitor or an id of nothing). */
    async isSaved(viewer: SessionUser | null, productIdInput: unknown): Promise<boolean> {
      if (!viewer) return false;
      const parsed = wishlistProductParamSchema.safeParse({ productId: productIdInput });
      if (!parsed.success) return false;
      const row = await db.selectFrom("wishlist_items").select("product_id").where("user_id", "=", viewer.id).where("product_id", "=", parsed.data.productId).executeTakeFirst();
      return row !== undefined;
    },

    /**
     * Which of these plants (the cards of one page, so a bounded number) the person saved: one indexed read
     * `user_id = ? and product_id in (…)`; none for a visitor.
     */
    async savedAmong(viewer: SessionUser | null, productIds: readonly string[]): Promise<string[]> {
      if (!viewer || productIds.length === 0) return [];
      const rows = await db.selectFrom("wishlist_items").select("product_id").where("user_id", "=", viewer.id).where("product_id", "in", [...productIds]).execute();
      return rows.map((row) => row.product_id);
    },

    /** The person's list, newest first, a page at a time after the key of the last one shown (GET /api/wishlist, /wishlist). */
    async list(viewer: SessionUser | null, query: unknown): Promise<WishlistPage> {
      const user = signedIn(viewer);
      const { after, limit } = parseInput(wishlistQuerySchema, query ?? {});
      let rows = db.selectFrom("wishlist_items").select(["product_id", "created_at"]).where("user_id", "=", user.id);
      if (after) {
        // The `<=` alone bounds the index range; the OR picks the rows after the key within it.
        rows = rows
          .where("created_at", "<=", after.savedAt)
          .where((eb) => eb.or([eb("created_at", "<", after.savedAt), eb.and([eb("created_at", "=", after.savedAt), eb("product_id", "<", after.productId)])]));
      }
      // One more than asked tells whether another page follows, without counting.
      const found = await rows.orderBy("created_at", "desc").orderBy("product_id", "desc").limit(limit + 1).execute();
      const page = found.slice(0, limit);
      const ids = page.map((row) => row.product_id);
      const [products, sizes] = await Promise.all([catalog.productSummariesOf(ids), catalog.sizeCountsOf(ids)]);
      // A product deleted between the two reads is simply left out (its row goes with it by the foreign key).
      const items = page.flatMap((row) => {
        const product: ProductSummary | undefined = products.get(row.product_id);
        return product ? [{ savedAt: toIsoString(row.created_at), product, sizes: sizes.get(row.product_id) ?? 1 }] : [];
      });
      const last = page.at(-1);
      return {
        items,
        nextCursor: found.length > limit && last ? encodeWishlistCursor({ savedAt: toIsoString(last.created_at), productId: last.product_id }) : null,
      };
    },
  };
}
