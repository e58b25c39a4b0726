import { z } from "zod";
import { API_MAX_LIMIT, SHOP_MAX_PAGES, SHOP_PAGE_SIZE } from "../shared/constants.ts";
import { idSchema, plainText } from "../shared/fields.ts";

/** Query of GET /api/products and of the shop page. An empty search is no search. */
export const productListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(API_MAX_LIMIT).default(SHOP_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  q: z
    .string()
    .trim()
    .max(100, "Search at most 100 characters")
    .pipe(plainText())
    .optional()
    .transform((q) => (q ? q : undefined)),
  categoryId: idSchema.optional(),
  /** The `nextCursor` of the page before: the next page by key, as cheap at the 10,000th product as at the first. */
  after: z.string().max(200).regex(/^[A-Za-z0-9_-]+$/, "Not a valid page cursor").optional(),
});
export type ProductListQuery = z.output<typeof productListQuerySchema>;

/** The shop page shows pages 1..page at once, so a Load More result is a link (/shop?q=fern&page=2). */
export const shopPageQuerySchema = z.object({
  q: productListQuerySchema.shape.q,
  // A page number that is not one is page 1; one past the last page shown is the last page.
  page: z.coerce
    .number()
    .int()
    .min(1)
    .catch(1)
    .default(1)
    .transform((page) => Math.min(page, SHOP_MAX_PAGES)),
});

/** GET /api/products/suggestions: what the shop's search box offers while a shopper types. */
export const suggestionQuerySchema = z.object({
  q: z.string().trim().max(100, "Search at most 100 characters").pipe(plainText()).default(""),
});

/** A category page shows pages 1..page of its products, 12 each, like the shop. */
export const categoryPageQuerySchema = z.object({
  categoryId: idSchema,
  page: shopPageQuerySchema.shape.page,
});

/** The home page's list of categories, paged the same way. */
export const categoryListPageQuerySchema = z.object({ page: shopPageQuerySchema.shape.page });

export const productIdParamSchema = z.object({ productId: idSchema });
export const categoryIdParamSchema = z.object({ categoryId: idSchema });
