import { z } from "zod";
import { API_MAX_LIMIT, API_MAX_OFFSET, SHOP_MAX_PAGES, SHOP_PAGE_SIZE } from "../shared/constants.ts";
import { idSchema, plainText } from "../shared/fields.ts";
import { ratingSummarySchema } from "../reviews/review-schemas.ts";
import { careProfileSchema } from "./care-schemas.ts";
import { listFilterFields, priceRangeInOrder } from "./list-filter-schemas.ts";

/** What a shopper or the owner types into a search box: plain text, at most 100 characters; an empty search is no search. */
export const searchTextSchema = z
  .string()
  .trim()
  .max(100, "Search at most 100 characters")
  .pipe(plainText())
  .optional()
  .transform((q) => (q ? q : undefined));

/** Query of GET /api/products and of the shop page. */
export const productListQuerySchema = z
  .object({
  limit: z.coerce.number().int().min(1).max(API_MAX_LIMIT).default(SHOP_PAGE_SIZE),
  // Skipped rows are still read, so an offset is allowed only as deep as costs little (docs/decisions/026).
  offset: z.coerce
    .number()
    .int()
    .min(0)
    .max(API_MAX_OFFSET, `Offsets beyond ${API_MAX_OFFSET.toLocaleString("en-IN")} are not served: page with \`after\` (the nextCursor of the page before)`)
    .default(0),
  q: searchTextSchema,
  categoryId: idSchema.optional(),
  /** The `nextCursor` of the page before: the next page by key, as cheap at the 100,000th product as at the first. */
  after: z.string().max(200).regex(/^[A-Za-z0-9_-]+$/, "Not a valid page cursor").optional(),
  // The shop's filters and orders (common/catalog/list-filters.ts), as the shop's pages take them.
  ...listFilterFields,
})
  .refine(...priceRangeInOrder)
  .refine((query) => !(query.after && query.sort), { message: "`after` pages the default order: with sort, page with offset", path: ["after"] });
export type ProductListQuery = z.output<typeof productListQuerySchema>;

/** The shop page shows one page of 12, so a Load More result is a link (/shop?q=fern&page=2) the browser adds to the list. */
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

/** The orders the /sale page offers (decision 047); anything else is the first. */
export const SALE_SORTS = ["newest", "price-asc", "price-desc", "saving"] as const;
export type SaleSort = (typeof SALE_SORTS)[number];

/** The /sale page: a page of what is on sale now, 12 like the shop, in one of SALE_SORTS. */
export const salePageQuerySchema = z.object({
  page: shopPageQuerySchema.shape.page,
  sort: z.enum(SALE_SORTS).catch("newest").default("newest"),
});

/** GET /api/products/suggestions: what the shop's search box offers while a shopper types. */
export const suggestionQuerySchema = z.object({
  q: z.string().trim().max(100, "Search at most 100 characters").pipe(plainText()).default(""),
});

/** A category page shows a page of its products, 12 like the shop. */
export const categoryPageQuerySchema = z.object({
  categoryId: idSchema,
  page: shopPageQuerySchema.shape.page,
});

/**
 * GET /api/categories: a page by key like /api/products (oldest first, then by name). `after` is the `nextCursor` of
 * the page before; it holds a category's name, so it may be longer than a product cursor.
 */
export const categoryListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(API_MAX_LIMIT).default(API_MAX_LIMIT),
  after: z.string().max(1000).regex(/^[A-Za-z0-9_-]+$/, "Not a valid page cursor").optional(),
});

/** The home page's list of categories, paged the same way. */
export const categoryListPageQuerySchema = z.object({ page: shopPageQuerySchema.shape.page });

export const productIdParamSchema = z.object({ productId: idSchema });
export const categoryIdParamSchema = z.object({ categoryId: idSchema });

// ---- What the JSON API answers (and the pages show). Ids name the shapes in the OpenAPI document.

const isoDateTime = z.iso.datetime();
const paise = z.int().min(0).meta({ description: "In paise (1 rupee = 100 paise)" });

export const imageRefSchema = z
  .strictObject({
    url: z.string(),
    width: z.int(),
    height: z.int(),
    alt: z.string(),
    mediaKey: z
      .string()
      .nullable()
      .optional()
      .meta({ description: "An uploaded image's variants (WebP and AVIF at several widths) derive from this key and `width`; null for a single file" }),
  })
  .meta({ id: "Image" });

/** A product on sale now: the regular price shown struck through beside the price, and the saving (decision 047). */
export const saleNowSchema = z
  .strictObject({
    regularPaise: paise.meta({ description: "The compare-at price, shown struck through; pricePaise is what is charged now" }),
    savingPaise: paise,
    savingPercent: z.int().min(1).max(99).nullable().meta({ description: "Rounded down; null when the saving is under 1 %" }),
  })
  .meta({ id: "SaleNow" });

const productFields = {
  id: z.string(),
  name: z.string(),
  description: z.string(),
  pricePaise: paise.meta({ description: "In paise (1 rupee = 100 paise): what a shopper pays now" }),
  sale: saleNowSchema.nullable().meta({ description: "Set while the product is on sale; null otherwise" }),
  priceVaries: z.boolean().meta({ description: "True when the plant's sizes differ in price: pricePaise is the lowest, shown as 'From Rs. X'" }),
  stock: z.int().min(0).meta({ description: "Of all its sizes together" }),
  categoryId: z.string(),
  createdAt: isoDateTime,
  // The product's maintained review figures (decision 020).
  ...ratingSummarySchema.shape,
};

/** A product with few left, as the owner's overview lists it (no id of its own: it stays inline in the API's document). */
export const lowStockProductSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  stock: z.int().min(0),
  /** The size that is low (decision 048): its id and label ('' for a product's only size); `name` is its product's. */
  variantId: z.string(),
  label: z.string(),
});

export const productSummarySchema = z
  .strictObject({ ...productFields, image: imageRefSchema.nullable().meta({ description: "The first picture; null when there is none" }) })
  .meta({ id: "ProductSummary" });

/** One size of a product (decision 048): what the product page's choice shows and what a cart line holds. */
export const productVariantSchema = z
  .strictObject({
    id: z.string(),
    label: z.string().meta({ description: "'Large · 10\" pot'; empty for a plant sold in one size" }),
    sku: z.string(),
    pricePaise: paise.meta({ description: "What a shopper pays now for this size" }),
    sale: saleNowSchema.nullable(),
    stock: z.int().min(0),
    pictureIndex: z.int().min(0).nullable().meta({ description: "The size's own picture, as its place in the product's `images`; null: none" }),
  })
  .meta({ id: "ProductVariant" });

export const productDetailSchema = z
  .strictObject({
    ...productFields,
    variants: z.array(productVariantSchema).min(1).meta({ description: "Its sizes in the shop's order; the first is the one shown unless another is chosen" }),
    images: z.array(imageRefSchema),
    category: z.strictObject({ id: z.string(), name: z.string() }),
    updatedAt: isoDateTime,
    care: careProfileSchema,
  })
  .meta({ id: "ProductDetail" });

export const productPageSchema = z
  .strictObject({
    items: z.array(productSummarySchema),
    total: z.int().min(0).meta({
      description:
        "How many products the list holds, counted up to 1,000 (see totalCapped). For a search (q): the matches read to rank this page (at least offset + limit when there are more), exact when totalCapped is false",
    }),
    totalCapped: z.boolean().meta({ description: "True when the list holds more than `total` products: shown as \"1,000+\" (a search's \"64+\")" }),
    limit: z.int().min(1),
    offset: z.int().min(0),
    hasMore: z.boolean(),
    nextCursor: z
      .string()
      .nullable()
      .meta({ description: "Pass as `after` for the next page by key; null on the last page and for searches (ranked, paged by offset)" }),
  })
  .meta({ id: "ProductPage" });

export const categorySummarySchema = z
  .strictObject({ id: z.string(), name: z.string(), description: z.string(), image: imageRefSchema })
  .meta({ id: "Category" });

export const categoryListSchema = z
  .strictObject({
    items: z.array(categorySummarySchema),
    total: z.int().min(0).meta({ description: "How many categories there are, counted up to 1,000 (see totalCapped)" }),
    totalCapped: z.boolean().meta({ description: "True when there are more than `total` categories: shown as \"1,000+\"" }),
    limit: z.int().min(1),
    hasMore: z.boolean(),
    nextCursor: z.string().nullable().meta({ description: "Pass as `after` for the next page; null on the last page" }),
  })
  .meta({ id: "CategoryList" });

export const categoryWithProductsSchema = categorySummarySchema
  .extend({
    products: z.array(productSummarySchema).meta({ description: "The page's 12 products of the category (fewer on the last), oldest first" }),
    page: z.int().min(1),
    hasMore: z.boolean(),
  })
  .meta({ id: "CategoryWithProducts" });

export const categoryListPageSchema = z
  .strictObject({ items: z.array(categorySummarySchema), page: z.int().min(1), hasMore: z.boolean() })
  .meta({ id: "CategoryListPage" });

/** One suggestion of the search box: a product's name and where it lives. */
export const productSuggestionSchema = z.strictObject({ id: z.string(), name: z.string() }).meta({ id: "ProductSuggestion" });
export const productSuggestionsSchema = z.strictObject({ items: z.array(productSuggestionSchema) }).meta({ id: "ProductSuggestions" });
