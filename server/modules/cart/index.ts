// The cart module's public face: the composition root, the other modules and the tests import only this.
export { cartApi } from "./cart-api.ts";
export { cartFingerprint, cartLines, createCartService, deleteOrderedLines, emptyCartOf, lineProblem, orderedLinesDeletion, type CartRow } from "./cart.ts";
export { cartMigrations } from "./migrations/cart-migrations.ts";
