// The wishlist module's public face: the composition root, the other modules and the tests import only this.
export { createWishlistService, type WishlistService } from "./wishlist.ts";
export { wishlistApi } from "./wishlist-api.ts";
export { wishlistMigrations } from "./migrations/wishlist-migrations.ts";
