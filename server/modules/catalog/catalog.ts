import type { Kysely } from "kysely";
import type { CategoryList, CategoryListPage, CategoryWithProducts, ProductDetail, ProductPage, ProductSuggestion, ProductSummary } from "#common/catalog/catalog-types.ts";
import { NEW_PRODUCTS_COUNT } from "#common/shared/constants.ts";
import type { DB } from "../../platform/db/schema.ts";
import type { RateLimiter } from "../../platform/rate-limit/rate-limit.ts";
import { catalogContext } from "./catalog-context.ts";
import { getCategory, getFilteredCategory, listCategories, listCategoryChoices, listCategoryPages } from "./category-lists.ts";
import { getProduct, getProductVersion } from "./product-detail.ts";
import { listSalePages, type SalePage } from "./sale-lists.ts";
import { listNewestProducts, listProducts, listShopPages, productSummariesOf, sizeCountsOf, suggestProducts, type FilteredShopPage, type Searcher } from "./product-lists.ts";
import type { QueryValues } from "#common/catalog/list-filters.ts";
import type { FilteredCategoryPage } from "./category-lists.ts";

export { searchRateRule, suggestionRateRule, type Searcher } from "./product-lists.ts";
export { TOTAL_CAP } from "./product-rows.ts";

// The shop's catalogue as the rest of the server sees it: each operation lives in its own file (the product lists
// and suggestions in product-lists.ts, a product's page in product-detail.ts, the categories in
// category-lists.ts, the rows they read in product-rows.ts) and is bound here, once, to the database it is given.

export type CatalogService = ReturnType<typeof createCatalogService>;

export function createCatalogService(db: Kysely<DB>, deps: { rateLimiter: RateLimiter }) {
  const ctx = catalogContext(db, deps);
  return {
    listProducts: (input: unknown, searcher: Searcher): Promise<ProductPage> => listProducts(ctx, input, searcher),
    listShopPages: (input: QueryValues, searcher: Searcher): Promise<FilteredShopPage> => listShopPages(ctx, input, searcher),
    suggestProducts: (input: unknown, searcher: Searcher): Promise<{ items: ProductSuggestion[] }> => suggestProducts(ctx, input, searcher),
    /** The cards of the products with these ids, by id (for a list another module keeps, such as a wishlist). */
    productSummariesOf: (ids: readonly string[]): Promise<Map<string, ProductSummary>> => productSummariesOf(ctx, ids),
    /** How many sizes each of these products has, by id. */
    sizeCountsOf: (ids: readonly string[]): Promise<Map<string, number>> => sizeCountsOf(ctx, ids),
    listNewestProducts: (limit: number = NEW_PRODUCTS_COUNT): Promise<ProductSummary[]> => listNewestProducts(ctx, limit),
    listSalePages: (input: QueryValues): Promise<SalePage> => listSalePages(ctx, input),
    getProductVersion: (input: unknown): Promise<{ updatedAt: string }> => getProductVersion(ctx, input),
    getProduct: (input: unknown): Promise<ProductDetail> => getProduct(ctx, input),
    listCategories: (input: unknown = {}): Promise<CategoryList> => listCategories(ctx, input),
    listCategoryPages: (input: unknown): Promise<CategoryListPage> => listCategoryPages(ctx, input),
    listCategoryChoices: (max: number) => listCategoryChoices(ctx, max),
    getCategory: (input: unknown): Promise<CategoryWithProducts> => getCategory(ctx, input),
    getFilteredCategory: (categoryId: string | undefined, input: QueryValues): Promise<FilteredCategoryPage> => getFilteredCategory(ctx, categoryId, input),
  };
}
