// Shapes the wishlist service returns and /wishlist and the JSON API show: inferred from the schemas that document them.
import type { z } from "zod";
import type { wishlistItemSchema, wishlistPageSchema, wishlistStateSchema } from "./wishlist-schemas.ts";
export type WishlistItem = z.infer<typeof wishlistItemSchema>;
export type WishlistPage = z.infer<typeof wishlistPageSchema>;
export type WishlistState = z.infer<typeof wishlistStateSchema>;
