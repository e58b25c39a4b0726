import type { CategoryList, CategoryListPage, CategoryWithProducts } from "#common/catalog/catalog-types.ts";
import { SHOP_MAX_PAGES } from "#common/shared/constants.ts";
import { categoryListPageQuerySchema, categoryListQuerySchema, categoryPageQuerySchema } from "#common/catalog/catalog-schemas.ts";
import { NotFoundError, parseInput } from "../../platform/errors.ts";
import type { CatalogContext } from "./catalog-context.ts";
import { decodeCategoryCursor, encodeCategoryCursor } from "./list-cursor.ts";
import { pageRows, summaries, TOTAL_CAP, toCategory, toSummary } from "./product-rows.ts";
import { readListFilters, type CountWithout, type FacetCount, type ListFilters, type QueryValues } from "#common/catalog/list-filters.ts";
import { countFacetsWithList, countWithoutEachGroup } from "./filtered-lists.ts";
import { filteredPage } from "./product-lists.ts";

// The shop's categories: the API's pages, the home page's pages, and a category's own page.

type Reads = Pick<CatalogContext, "db">;

/**
 * GET /api/categories: one page by key (created_at, name), the home page's order, read from the categories_list
 * index (migration 0013) like the product list; the total counted up to TOTAL_CAP + 1 rows.
 */
/**
 * Every category's id and name, by name, up to `max`, and whether there are more: a form's choice of categories.
 * One read of the name index, without the paged list's cursor and count.
 */
export async function listCategoryChoices(ctx: Reads, max: number): Promise<{ items: { id: string; name: string }[]; more: boolean }> {
  const rows = await ctx.db.selectFrom("categories").select(["id", "name"]).orderBy("name").limit(max + 1).execute();
  return { items: rows.slice(0, max), more: rows.length > max };
}

export async function listCategories(ctx: Reads, input: unknown = {}): Promise<CategoryList> {
  const { db } = ctx;
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
}

/**
 * The home page's categories, one page of 12: Load More is a link to the next page, whose categories the browser
 * adds to those shown (docs/decisions/064).
 */
export async function listCategoryPages(ctx: Reads, input: unknown): Promise<CategoryListPage> {
  const { page } = parseInput(categoryListPageQuerySchema, input);
  const { limit, offset } = pageRows(page);
  const rows = await ctx.db
    .selectFrom("categories")
    .selectAll()
    .orderBy("created_at")
    .orderBy("name")
    .limit(limit + 1)
    .offset(offset)
    .execute();
  return { items: rows.slice(0, limit).map(toCategory), page, hasMore: rows.length > limit && page < SHOP_MAX_PAGES };
}

/** A category and one page of its products (12, oldest first), as the shop pages its list. */
export async function getCategory(ctx: Reads, input: unknown): Promise<CategoryWithProducts> {
  const { categoryId, page } = parseInput(categoryPageQuerySchema, input);
  const category = await ctx.db.selectFrom("categories").selectAll().where("id", "=", categoryId).executeTakeFirst();
  if (!category) throw new NotFoundError("Category not found");
  const { limit, offset } = pageRows(page);
  const products = await summaries(ctx.db)
    .where("p.category_id", "=", categoryId)
    .orderBy("p.created_at")
    .orderBy("p.id")
    .limit(limit + 1)
    .offset(offset)
    .execute();
  return {
    ...toCategory(category),
    products: products.slice(0, limit).map(toSummary),
    page,
    hasMore: products.length > limit && page < SHOP_MAX_PAGES,
  };
}

/** A category's page with the shop's filters: its products filtered and ordered, and each option's count. */
export type FilteredCategoryPage = CategoryWithProducts & { filters: ListFilters; facets: FacetCount[]; nearest: CountWithout[]; total: number; totalCapped: boolean };

/** A category's page (one page of 12), read with the filters of its address (forgivingly, like the shop's). */
export async function getFilteredCategory(ctx: Reads, categoryIdParam: string | undefined, input: QueryValues): Promise<FilteredCategoryPage> {
  const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
  const { categoryId, page } = parseInput(categoryPageQuerySchema, { categoryId: categoryIdParam, page: first(input.page) });
  const category = await ctx.db.selectFrom("categories").selectAll().where("id", "=", categoryId).executeTakeFirst();
  if (!category) throw new NotFoundError("Category not found");
  const filters = readListFilters(input);
  const scope = { categoryId };
  const { listCount, facets } = await countFacetsWithList(ctx.db, scope, filters);
  const found = await filteredPage(ctx, scope, filters, { ...pageRows(page), count: listCount });
  const nearest = listCount === 0 ? await countWithoutEachGroup(ctx.db, scope, filters) : [];
  return {
    ...toCategory(category),
    products: found.items,
    page,
    hasMore: found.hasMore && page < SHOP_MAX_PAGES,
    filters,
    facets,
    nearest,
    total: found.total,
    totalCapped: found.totalCapped,
  };
}
