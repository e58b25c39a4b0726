// The catalog's changes on the change feed: what a product or category change says, declared here (not in the
// feed) so that the platform names no feature. Publishers (admin, orders, reviews, accounts) and listeners
// (live product pages, the caches, sitemaps) are type-checked against this declaration.

/**
 * stock: an order placed or cancelled, an admin edit; availability: with it, the stock went from none to some or
 * from some to none (what a list shows of it: whether it can be bought); deleted: gone from the shop.
 */
export type ProductAspect = "stock" | "availability" | "details" | "images" | "reviews" | "deleted";

declare module "../../platform/change-feed/change-feed.ts" {
  interface ChangeTypes {
    /** Which product changed, and in which ways. */
    product: { productId: string; aspects: readonly ProductAspect[] };
    /** A category was added, renamed, re-pictured or removed. */
    category: { categoryId: string };
  }
}
