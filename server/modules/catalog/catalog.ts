import { type Kysely, type Selectable, type SelectQueryBuilder } from "kysely";
import type {
  CategoryList,
  CategoryListPage,
  CategorySummary,
  CategoryWithProducts,
  ImageRef,
  ProductDetail,
  ProductPage,
  ProductSuggestion,
  ProductSummary,
} from "#common/catalog/catalog-types.ts";
import { averageRating } from "#common/reviews/review-types.ts";
import { NEW_PRODUCTS_COUNT, SHOP_MAX_PAGES, SHOP_PAGE_SIZE, SUGGESTION_COUNT } from "#common/shared/constants.ts";
import { messages } from "#common/shared/messages.ts";
import {
  categoryListPageQuerySchema,
  categoryListQuerySchema,
  categoryPageQuerySchema,
  productIdParamSchema,
  productListQuerySchema,
  shopPageQuerySchema,
  suggestionQuerySchema,
  type ProductListQuery,
} from "#common/catalog/catalog-schemas.ts";
import type { DB } from "../../platform/db/schema.ts";
import type { ProductTable } from "./catalog-tables.ts";
import { toIsoString } from "../../platform/db/values.ts";
import { NotFoundError, parseInput } from "../../platform/errors.ts";
import type { RateLimiter, RateRule } from "../../platform/rate-limit/rate-limit.ts";
import type { Caller } from "../../platform/session-user.ts";
import { createProductSearch, SEARCH_RESULT_CAP } from "./search/product-search.ts";
import { decodeCategoryCursor, decodeCursor, encodeCategoryCursor, encodeCursor } from "./list-cursor.ts";

/**
 * Searches per client address (docs/decisions/014): a search scans product names, so one address cannot
 * keep the database busy with them. Plain browsing and Load More of no search are not counted; a person typing
 * (one search per pause) stays far below it.
 */
export const searchRateRule: RateRule = { name: "search-ip", limit: 60, windowMs: 60_000, message: "Too many searches." };

/** Lists count their products up to this many and say "1,000+" beyond: a count never reads the whole catalogue. */
export const TOTAL_CAP = SEARCH_RESULT_CAP;

export type CatalogService = ReturnType<typeof createCatalogService>;

const PRODUCT_COLUMNS = [
  "p.id",
  "p.name",
  "p.description",
  "p.price_paise",
  "p.stock",
  "p.category_id",
  "p.created_at",
  // Maintained by the reviews module with every review write: the average costs no aggregate (decision 020).
  "p.review_count",
  "p.rating_total",
] as const;

type ProductsFrom = SelectQueryBuilder<DB & { p: DB["products"] }, "p", object>;

/** Columns of a product card: the product and its first picture. */
function withSummaryColumns(query: ProductsFrom) {
  return query
    .leftJoin("product_images as img", (join) => join.onRef("img.product_id", "=", "p.id").on("img.position", "=", 0))
    .select([
      ...PRODUCT_COLUMNS,
      "img.url as image_url",
      "img.width as image_width",
      "img.height as image_height",
      "img.media_key as image_media_key",
    ]);
}

/**
 * Suggestions while typing: one request per pause in typing, so a person writing a long name makes a few dozen;
 * each is one indexed search (docs/decisions/026-catalog-search.md).
 */
export const suggestionRateRule: RateRule = { name: "suggest-ip", limit: 240, windowMs: 60_000, message: "Too many searches." };

/** Who searches: only the client address is needed. */
export type Searcher = Caller;

export function createCatalogService(db: Kysely<DB>, { rateLimiter }: { rateLimiter: RateLimiter }) {
  const summaries = () => withSummaryColumns(db.selectFrom("products as p"));
  const search = createProductSearch(db);

  /**
   * The shop list: oldest first so that Load More pages never shift. No request counts the catalogue: the total is
   * counted up to TOTAL_CAP + 1 rows of an index ("1,000+" beyond), and a key (`after`, the last product's
   * created_at and id) reaches a deep page as cheaply as the first. A search is ranked by the search index instead.
   */
  async function queryProducts(query: ProductListQuery): Promise<ProductPage> {
    if (query.q) return querySearch(query.q, query);
    let filtered: ProductsFrom = db.selectFrom("products as p");
    if (query.categoryId) filtered = filtered.where("p.category_id", "=", query.categoryId);
    let paged = filtered;
    const after = query.after ? decodeCursor(query.after) : undefined;
    // An offset (old clients, at most API_MAX_OFFSET) skips keys in the index alone, then reads its page by key:
    // skipping whole rows with their joins cost 0.1 s at 10,000 on PostgreSQL.
    const start = !after && query.offset > 0 ? await keyAtOffset(filtered, query.offset) : undefined;
    if (after) {
      // The `>=` alone bounds the index range where the page starts; the OR alone would leave the planner a scan.
      paged = paged
        .where("p.created_at", ">=", after.createdAt)
        .where((eb) => eb.or([eb("p.created_at", ">", after.createdAt), eb("p.id", ">", after.id)]));
    } else if (start) {
      paged = paged
        .where("p.created_at", ">=", start.created_at)
        .where((eb) => eb.or([eb("p.created_at", ">", start.created_at), eb("p.id", ">=", start.id)]));
    }
    const pastTheEnd = !after && query.offset > 0 && !start;
    const [rows, counted] = await Promise.all([
      pastTheEnd ? Promise.resolve([]) : withSummaryColumns(paged).orderBy("p.created_at").orderBy("p.id").limit(query.limit + 1).execute(),
      cappedCount(filtered),
    ]);
    const items = rows.slice(0, query.limit);
    const hasMore = rows.length > query.limit;
    const last = rows[items.length - 1];
    return {
      items: items.map(toSummary),
      total: Math.min(counted, TOTAL_CAP),
      totalCapped: counted > TOTAL_CAP,
      limit: query.limit,
      offset: after ? 0 : query.offset,
      hasMore,
      nextCursor: hasMore && last ? encodeCursor(last) : null,
    };
  }

  /** The list key of the row `offset` rows into the list, read from the index alone. */
  async function keyAtOffset(filtered: ProductsFrom, offset: number) {
    return filtered.select(["p.created_at", "p.id"]).orderBy("p.created_at").orderBy("p.id").limit(1).offset(offset).executeTakeFirst();
  }

  /** At most TOTAL_CAP + 1 rows counted, from the index the list is read by. */
  async function cappedCount(filtered: ProductsFrom): Promise<number> {
    const row = await db
      .selectFrom(filtered.select("p.id").limit(TOTAL_CAP + 1).as("capped"))
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async function querySearch(q: string, query: ProductListQuery): Promise<ProductPage> {
    const found = await search.search(q, { limit: query.limit + 1, offset: query.offset });
    const ids = found.ids.slice(0, query.limit);
    const rows = ids.length === 0 ? [] : await summaries().where("p.id", "in", ids).execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    return {
      items: ids.flatMap((id) => {
        const row = byId.get(id);
        return row ? [toSummary(row)] : [];
      }),
      total: found.total,
      totalCapped: found.totalCapped,
      limit: query.limit,
      offset: query.offset,
      hasMore: found.ids.length > query.limit,
      nextCursor: null,
    };
  }

  return {
    /** GET /api/products: one page by limit and offset. */
    async listProducts(input: unknown, searcher: Searcher): Promise<ProductPage> {
      const query = parseInput(productListQuerySchema, input);
      if (query.q) await rateLimiter.hit(searchRateRule, searcher.clientIp ?? "unknown");
      return queryProducts(query);
    },

    /** The shop page shows pages 1..page together, so "Load More" is a plain link that also works without JavaScript. */
    async listShopPages(input: unknown, searcher: Searcher): Promise<ProductPage & { page: number; q: string | undefined }> {
      const { q, page } = parseInput(shopPageQuerySchema, input);
      if (q) await rateLimiter.hit(searchRateRule, searcher.clientIp ?? "unknown");
      const result = await queryProducts({ q, limit: SHOP_PAGE_SIZE * page, offset: 0 });
      return { ...result, hasMore: result.hasMore && page < SHOP_MAX_PAGES, page, q };
    },

    /** GET /api/products/suggestions: the names of the best few matches, for the search box. */
    async suggestProducts(input: unknown, searcher: Searcher): Promise<{ items: ProductSuggestion[] }> {
      const { q } = parseInput(suggestionQuerySchema, input);
      if (!q) return { items: [] };
      await rateLimiter.hit(suggestionRateRule, searcher.clientIp ?? "unknown");
      const { ids } = await search.search(q, { limit: SUGGESTION_COUNT, offset: 0 });
      if (ids.length === 0) return { items: [] };
      const rows = await db.selectFrom("products").select(["id", "name"]).where("id", "in", ids).execute();
      const byId = new Map(rows.map((row) => [row.id, row]));
      return { items: ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : [])) };
    },

    async listNewestProducts(limit: number = NEW_PRODUCTS_COUNT): Promise<ProductSummary[]> {
      const rows = await summaries().orderBy("p.created_at", "desc").orderBy("p.id", "desc").limit(limit).execute();
      return rows.map(toSummary);
    },

    /**
     * When the product last changed, for its event stream's `ready` event (decision 019): one indexed
     * row of one column, where the product itself would also read its category and images.
     */
    async getProductVersion(input: unknown): Promise<{ updatedAt: string }> {
      const { productId } = parseInput(productIdParamSchema, input);
      const product = await db.selectFrom("products").select("updated_at").where("id", "=", productId).executeTakeFirst();
      if (!product) throw new NotFoundError(messages.product.notFound);
      return { updatedAt: toIsoString(product.updated_at) };
    },

    async getProduct(input: unknown): Promise<ProductDetail> {
      const { productId } = parseInput(productIdParamSchema, input);
      const product = await db
        .selectFrom("products as p")
        .innerJoin("categories as c", "c.id", "p.category_id")
        .select([...PRODUCT_COLUMNS, "p.updated_at", "c.name as category_name"])
        .where("p.id", "=", productId)
        .executeTakeFirst();
      if (!product) throw new NotFoundError(messages.product.notFound);
      const images = await db
        .selectFrom("product_images")
        .select(["url", "width", "height", "media_key as mediaKey"])
        .where("product_id", "=", productId)
        .orderBy("position")
        .execute();
      return {
        id: product.id,
        name: product.name,
        description: product.description,
        pricePaise: product.price_paise,
        stock: product.stock,
        categoryId: product.category_id,
        category: { id: product.category_id, name: product.category_name },
        images: images.map((image, index) => ({
          ...image,
          alt: `${product.name}, picture ${index + 1} of ${images.length}`,
        })),
        createdAt: toIsoString(product.created_at),
        updatedAt: toIsoString(product.updated_at),
        reviewCount: product.review_count,
        averageRating: averageRating(product.review_count, product.rating_total),
      };
    },

    /**
     * GET /api/categories: one page by key (created_at, name), the home page's order, read from the categories_list
     * index (migration 0013) like the product list; the total counted up to TOTAL_CAP + 1 rows.
     */
    async listCategories(input: unknown = {}): Promise<CategoryList> {
      const { limit, after: cursor } = parseInput(categoryListQuerySchema, input);
      const after = cursor ? decodeCategoryCursor(cursor) : undefined;
      let paged = db.selectFrom("categories");
      if (after) {
        paged = paged.where("created_at", ">=", after.createdAt).where((eb) => eb.or([eb("created_at", ">", after.createdAt), eb("name", ">", after.name)]));
      }
      const [rows, counted] = await Promise.all([
        paged.selectAll().orderBy("created_at").orderBy("name").limit(limit + 1).execute(),
        db
          .selectFrom(db.selectFrom("categories").select("id").limit(TOTAL_CAP + 1).as("capped"))
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow(),
      ]);
      const items = rows.slice(0, limit);
      const hasMore = rows.length > limit;
      const last = items[items.length - 1];
      return {
        items: items.map(toCategory),
        total: Math.min(Number(counted.n), TOTAL_CAP),
        totalCapped: Number(counted.n) > TOTAL_CAP,
        limit,
        hasMore,
        nextCursor: hasMore && last ? encodeCategoryCursor(last) : null,
      };
    },

    /** The home page's categories: pages 1..page, 12 each, so a Load More link works without JavaScript. */
    async listCategoryPages(input: unknown): Promise<CategoryListPage> {
      const { page } = parseInput(categoryListPageQuerySchema, input);
      const shown = SHOP_PAGE_SIZE * page;
      const rows = await db
        .selectFrom("categories")
        .selectAll()
        .orderBy("created_at")
        .orderBy("name")
        .limit(shown + 1)
        .execute();
      return { items: rows.slice(0, shown).map(toCategory), page, hasMore: rows.length > shown && page < SHOP_MAX_PAGES };
    },

    /** A category and pages 1..page of its products (12 each, oldest first), as the shop pages its list. */
    async getCategory(input: unknown): Promise<CategoryWithProducts> {
      const { categoryId, page } = parseInput(categoryPageQuerySchema, input);
      const category = await db.selectFrom("categories").selectAll().where("id", "=", categoryId).executeTakeFirst();
      if (!category) throw new NotFoundError("Category not found");
      const shown = SHOP_PAGE_SIZE * page;
      const products = await summaries()
        .where("p.category_id", "=", categoryId)
        .orderBy("p.created_at")
        .orderBy("p.id")
        .limit(shown + 1)
        .execute();
      return {
        ...toCategory(category),
        products: products.slice(0, shown).map(toSummary),
        page,
        hasMore: products.length > shown && page < SHOP_MAX_PAGES,
      };
    },
  };
}

type SummaryRow = Omit<Selectable<ProductTable>, "updated_at"> & {
  image_url: string | null;
  image_width: number | null;
  image_height: number | null;
  image_media_key: string | null;
};

function toSummary(row: SummaryRow): ProductSummary {
  const image: ImageRef | null =
    row.image_url === null
      ? null
      : { url: row.image_url, width: row.image_width ?? 800, height: row.image_height ?? 800, alt: row.name, mediaKey: row.image_media_key };
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    pricePaise: row.price_paise,
    stock: row.stock,
    categoryId: row.category_id,
    image,
    createdAt: toIsoString(row.created_at),
    reviewCount: row.review_count,
    averageRating: averageRating(row.review_count, row.rating_total),
  };
}

function toCategory(row: Selectable<DB["categories"]>): CategorySummary {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    image: { url: row.image_url, width: row.image_width, height: row.image_height, alt: row.name, mediaKey: row.image_media_key },
  };
}
