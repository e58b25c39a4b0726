// The cart module's public face: the composition root, the other modules and the tests import only this.
export { cartApi } from "./cart-api.ts";
export { cartFingerprint, cartLines, createCartService, deleteOrderedLines, emptyCartOf, lineProblem, orderedLinesDeletion, type CartRow } from "./cart.ts";
export { cartMigrations } from "./migrations/cart-migrations.ts";
export { mergeVisitorCart, hashVisitorToken, VISITOR_CART_IDLE_DAYS, type VisitorCartMerge, type VisitorCartOutcome } from "./visitor-cart.ts";
export { createVisitorCartCookies, type VisitorCartCookies, type VisitorCartOfRequest } from "./visitor-cart-cookie.ts";
export { mergeVisitorCartOnSignIn } from "./visitor-cart-merge.ts";
