import { z } from "zod";
import { productSummarySchema } from "../catalog/catalog-schemas.ts";
import { WISHLIST_PAGE_SIZE } from "../shared/constants.ts";
import { formNumber, idSchema } from "../shared/fields.ts";
import { messages } from "../shared/messages.ts";
import { isServerInstant } from "../shared/timestamps.ts";

/** The plant a heart saves or removes (the path's `{productId}`). */
export const wishlistProductParamSchema = z.object({ productId: idSchema });

/** A saved plant's key in the list (when it was saved, and the product's id), opaque to clients. */
export interface WishlistCursor {
  savedAt: string;
  productId: string;
}

export function encodeWishlistCursor({ savedAt, productId }: WishlistCursor): string {
  return `${savedAt}_${productId}`;
}

function decodeWishlistCursor(value: string): WishlistCursor | null {
  const separator = value.indexOf("_");
  if (separator < 0) return null;
  const savedAt = value.slice(0, separator);
  const productId = value.slice(separator + 1);
  if (!isServerInstant(savedAt) || !idSchema.safeParse(productId).success) return null;
  return { savedAt, productId };
}

/** GET /api/wishlist and /wishlist: a page of the list, newest first, after the key of the last one shown. */
export const wishlistQuerySchema = z.object({
  after: z
    .string()
    .max(200)
    .transform((value, ctx) => {
      const decoded = decodeWishlistCursor(value);
      if (!decoded) {
        ctx.addIssue({ code: "custom", message: messages.wishlist.notValidPage });
        return z.NEVER;
      }
      return decoded;
    })
    .optional()
    .meta({ description: "The `nextCursor` of the page before" }),
  limit: formNumber(z.int().min(1).max(WISHLIST_PAGE_SIZE)).default(WISHLIST_PAGE_SIZE),
});

/** One saved plant: the product as the shop shows it now (price, sale, stock), and when it was saved. */
export const wishlistItemSchema = z
  .strictObject({
    savedAt: z.string().meta({ description: "When the shopper saved it (ISO-8601)" }),
    product: productSummarySchema,
    sizes: z.int().min(1).meta({ description: "How many sizes the plant is sold in: with more than one, the shopper chooses on the product page" }),
  })
  .meta({ id: "WishlistItem" });

export const wishlistPageSchema = z
  .strictObject({
    items: z.array(wishlistItemSchema),
    nextCursor: z.string().nullable().meta({ description: "Pass as `after` for the next page; null on the last page" }),
  })
  .meta({ id: "WishlistPage" });

/** PUT/DELETE /api/wishlist/{productId}: whether the plant is now saved. */
export const wishlistStateSchema = z
  .strictObject({ productId: z.string(), saved: z.boolean() })
  .meta({ id: "WishlistState" });
