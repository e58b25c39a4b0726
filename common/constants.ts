// Business constants from product-spec.md section 9.
export const SHOP_PAGE_SIZE = 12;
export const NEW_PRODUCTS_COUNT = 6;
export const API_MAX_LIMIT = 50;
export const HERO_INTERVAL_MS = 3000;
export const COPYRIGHT_YEAR = 2025;
/** The most of one plant a cart line may ask for (the stock usually stops it first). */
export const MAX_CART_QUANTITY = 999;
