import { sql, type Kysely, type Selectable, type SelectQueryBuilder } from "kysely";
import type {
  CategorySummary,
  CategoryWithProducts,
  ImageRef,
  ProductDetail,
  ProductPage,
  ProductSummary,
} from "#common/catalog/catalog-types.ts";
import { NEW_PRODUCTS_COUNT, SHOP_MAX_PAGES, SHOP_PAGE_SIZE } from "#common/shared/constants.ts";
import { messages } from "#common/shared/messages.ts";
import {
  categoryIdParamSchema,
  productIdParamSchema,
  productListQuerySchema,
  shopPageQuerySchema,
  type ProductListQuery,
} from "#common/catalog/catalog-schemas.ts";
import type { DB, ProductTable } from "../../platform/db/schema.ts";
import { toIsoString } from "../../platform/db/values.ts";
import { NotFoundError, parseInput } from "../../platform/errors.ts";
import type { RateLimiter, RateRule } from "../../platform/rate-limit/rate-limit.ts";
import type { RequestContext } from "../../platform/session-user.ts";

/**
 * Searches per client address (issue 7, "Abuse limits"): a search scans product names, so one address cannot
 * keep the database busy with them. Plain browsing and Load More of no search are not counted; a person typing
 * (one search per pause) stays far below it.
 */
export const searchRateRule: RateRule = { name: "search-ip", limit: 60, windowMs: 60_000, message: "Too many searches." };

// LIKE treats these as patterns; a shopper searching "50%" means the characters.
const LIKE_SPECIAL = /[\\%_]/g;

export type CatalogService = ReturnType<typeof createCatalogService>;

const PRODUCT_COLUMNS = [
  "p.id",
  "p.name",
  "p.description",
  "p.price_paise",
  "p.stock",
  "p.category_id",
  "p.created_at",
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

/** Who searches: only the client address is needed. */
export type Searcher = Pick<RequestContext, "clientIp">;

export function createCatalogService(db: Kysely<DB>, { rateLimiter }: { rateLimiter: RateLimiter }) {
  const summaries = () => withSummaryColumns(db.selectFrom("products as p"));

  /** The shop list: oldest first so that Load More pages never shift; search by name ignoring case. */
  async function queryProducts(query: ProductListQuery): Promise<ProductPage> {
    let filtered: ProductsFrom = db.selectFrom("products as p");
    if (query.q) {
      const pattern = `%${query.q.toLowerCase().replace(LIKE_SPECIAL, (ch) => `\\${ch}`)}%`;
      filtered = filtered.where(sql<boolean>`lower(p.name) like ${pattern} escape '\\'`);
    }
    if (query.categoryId) filtered = filtered.where("p.category_id", "=", query.categoryId);
    // One query: the total rides along as a window count. Only a page past the end needs a second look.
    const rows = await withSummaryColumns(filtered)
      .select(sql<number>`count(*) over ()`.as("total"))
      .orderBy("p.created_at")
      .orderBy("p.id")
      .limit(query.limit)
      .offset(query.offset)
      .execute();
    const total =
      rows.length > 0
        ? Number(rows[0]!.total)
        : Number((await filtered.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);
    return {
      items: rows.map(toSummary),
      total,
      limit: query.limit,
      offset: query.offset,
      hasMore: query.offset + rows.length < total,
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

    async listNewestProducts(limit: number = NEW_PRODUCTS_COUNT): Promise<ProductSummary[]> {
      const rows = await summaries().orderBy("p.created_at", "desc").orderBy("p.id", "desc").limit(limit).execute();
      return rows.map(toSummary);
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
      };
    },

    async listCategories(): Promise<CategorySummary[]> {
      const rows = await db.selectFrom("categories").selectAll().orderBy("created_at").orderBy("name").execute();
      return rows.map(toCategory);
    },

    async getCategory(input: unknown): Promise<CategoryWithProducts> {
      const { categoryId } = parseInput(categoryIdParamSchema, input);
      const category = await db.selectFrom("categories").selectAll().where("id", "=", categoryId).executeTakeFirst();
      if (!category) throw new NotFoundError("Category not found");
      const products = await summaries()
        .where("p.category_id", "=", categoryId)
        .orderBy("p.created_at")
        .orderBy("p.id")
        .execute();
      return { ...toCategory(category), products: products.map(toSummary) };
    },

    /** Every public catalogue address with its last change, for /sitemap.xml. */
    async listSitemapEntries(): Promise<{ path: string; updatedAt: string }[]> {
      const [products, categories] = await Promise.all([
        db.selectFrom("products").select(["id", "updated_at"]).orderBy("created_at").execute(),
        db.selectFrom("categories").select(["id", "created_at"]).orderBy("created_at").execute(),
      ]);
      return [
        ...categories.map((c) => ({ path: `/category/${c.id}`, updatedAt: toIsoString(c.created_at) })),
        ...products.map((p) => ({ path: `/product/${p.id}`, updatedAt: toIsoString(p.updated_at) })),
      ];
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
