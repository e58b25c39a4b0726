// The shop's business constants (docs/product.md, Constants).
export const SHOP_PAGE_SIZE = 12;
export const NEW_PRODUCTS_COUNT = 6;
export const API_MAX_LIMIT = 50;
/**
 * The deepest `offset` a list accepts. An offset costs the index rows it skips, so it is bounded where skipping costs
 * as little as counting the total (also 1,000): deeper pages are read by key (`after`, the nextCursor), which costs
 * the same at any depth. A search ranks at most 1,000 matches, so no deeper search page exists either.
 */
export const API_MAX_OFFSET = 1_000;
/** How many products the search box suggests while a shopper types. */
export const SUGGESTION_COUNT = 8;
/** The deepest page of a shop list (docs/decisions/005, 064); beyond this many, searching or filtering narrows the list. */
export const SHOP_MAX_PAGES = 100;
export const HERO_INTERVAL_MS = 3000;
export const COPYRIGHT_YEAR = 2025;
/** The most of one plant a cart line may ask for (the stock usually stops it first). */
export const MAX_CART_QUANTITY = 999;

/** The largest profile picture a person may upload: 10 MB (docs/product.md, Pictures). */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/** Reviews (docs/product.md, Reviews): the longest text, and how many the product page and the API show at a time. */
export const REVIEW_MAX_LENGTH = 2000;
export const REVIEWS_PAGE_SIZE = 10;
export const REVIEWS_MAX_PAGE_SIZE = 50;

/** How many plants one person may keep on their wishlist (docs/product.md, Wishlist): the list and its reads stay small. */
export const WISHLIST_MAX_ITEMS = 200;
/** Saved plants shown per page of /wishlist and of GET /api/wishlist, newest first. */
export const WISHLIST_PAGE_SIZE = 24;

/** How long a gift message may be, in characters as people count them (code points: an emoji is one). */
export const GIFT_MESSAGE_MAX = 300;
