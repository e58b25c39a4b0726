import type { ProductPage, ProductSuggestion, ProductSummary } from "#common/catalog/catalog-types.ts";
import { NEW_PRODUCTS_COUNT, SHOP_MAX_PAGES, SUGGESTION_COUNT } from "#common/shared/constants.ts";
import { productListQuerySchema, shopPageQuerySchema, suggestionQuerySchema, type ProductListQuery } from "#common/catalog/catalog-schemas.ts";
import { parseInput } from "../../platform/errors.ts";
import type { RateRule } from "../../platform/rate-limit/rate-limit.ts";
import type { Caller } from "../../platform/session-user.ts";
import type { CatalogContext } from "./catalog-context.ts";
import { decodeCursor, encodeCursor } from "./list-cursor.ts";
import { pageRows, summaries, TOTAL_CAP, toSummary, withSummaryColumns, type ProductsFrom } from "./product-rows.ts";
import { toListFilters } from "#common/catalog/list-filter-schemas.ts";
import { narrows, readListFilters, type CountWithout, type FacetCount, type ListFilters, type QueryValues } from "#common/catalog/list-filters.ts";
import { countFacetsWithList, countMatchesWithoutEachGroup, countWithoutEachGroup, filterRanked, readFilteredPage, type FilteredPage, type FilteredPageRequest, type ListOrder, type ListScope } from "./filtered-lists.ts";

// The shop's product lists: the API's pages, the shop page's pages, the search box's suggestions and the newest
// products.

/**
 * Searches per client address (docs/decisions/014): a search scans product names, so one address cannot
 * keep the database busy with them. Plain browsing and Load More of no search are not counted; a person typing
 * (one search per pause) stays far below it.
 */
export const searchRateRule: RateRule = { name: "search-ip", limit: 60, windowMs: 60_000, message: "Too many searches." };

/**
 * Suggestions while typing: one request per pause in typing, so a person writing a long name makes a few dozen;
 * each is one indexed search (docs/decisions/026-catalog-search.md).
 */
export const suggestionRateRule: RateRule = { name: "suggest-ip", limit: 240, windowMs: 60_000, message: "Too many searches." };

/** Who searches: only the client address is needed. */
export type Searcher = Caller;

type ListContext = Pick<CatalogContext, "db" | "rateLimiter" | "search">;

/** GET /api/products: one page by limit and offset. */
export async function listProducts(ctx: ListContext, input: unknown, searcher: Searcher): Promise<ProductPage> {
  const query = parseInput(productListQuerySchema, input);
  if (query.q) await ctx.rateLimiter.hit(searchRateRule, searcher.clientIp ?? "unknown");
  return queryProducts(ctx, query);
}

/**
 * What a shop list's page answers: its products, the filters it was read with, each filter option's count, and when
 * the filters leave nothing, how many each group's removal would leave (`nearest`, else empty).
 */
export type FilteredShopPage = ProductPage & { page: number; q: string | undefined; filters: ListFilters; facets: FacetCount[]; nearest: CountWithout[] };

/** The first value of a name that may be repeated in an address. */
const firstValue = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * One page of the shop's list, its own twelve plants only: "Load More" is a plain link to the next page (it works
 * without JavaScript), and the browser adds what it brings to the plants already shown (docs/decisions/064), so a
 * page costs the same at any depth. The address's filters are read forgivingly (readListFilters): a value the shop
 * has no filter for is left out.
 */
export async function listShopPages(ctx: ListContext, input: QueryValues, searcher: Searcher): Promise<FilteredShopPage> {
  const { q, page } = parseInput(shopPageQuerySchema, { q: firstValue(input.q), page: firstValue(input.page) });
  const filters = readListFilters(input);
  if (q) await ctx.rateLimiter.hit(searchRateRule, searcher.clientIp ?? "unknown");
  const { limit, offset } = pageRows(page);
  if (q && !narrows(filters) && !filters.sort) {
    // A plain search reads only the windows up to its page's end (docs/decisions/042); its options are counted
    // once one is chosen, which ranks all its matches up to the cap.
    const result = await querySearch(ctx, q, { limit, offset });
    return { ...result, hasMore: result.hasMore && page < SHOP_MAX_PAGES, page, q, filters, facets: [], nearest: [] };
  }
  if (q) {
    const found = await searchFiltered(ctx, q, filters, { limit, offset });
    return { ...found.page, hasMore: found.page.hasMore && page < SHOP_MAX_PAGES, page, q, filters, facets: found.facets, nearest: found.nearest };
  }
  const { listCount, facets } = await countFacetsWithList(ctx.db, {}, filters);
  const result = await filteredPage(ctx, {}, filters, { limit, offset, count: listCount });
  const nearest = listCount === 0 ? await countWithoutEachGroup(ctx.db, {}, filters) : [];
  return { ...result, hasMore: result.hasMore && page < SHOP_MAX_PAGES, page, q, filters, facets, nearest };
}

/** A filtered list's page of product cards, in the filters' order (the shop's own when none). */
export async function filteredPage(
  ctx: Pick<CatalogContext, "db">,
  scope: ListScope,
  filters: ListFilters,
  page: FilteredPageRequest,
  now?: number,
  order: ListOrder = filters.sort ?? "oldest",
): Promise<ProductPage> {
  const found = await readFilteredPage(ctx.db, scope, filters, order, page);
  return { ...(await cardsOf(ctx, found, now)), limit: page.limit, offset: page.after ? 0 : page.offset, nextCursor: found.hasMore && found.last && !filters.sort ? encodeCursor(found.last) : null };
}

/** The product cards of a filtered page, in its order. */
async function cardsOf(ctx: Pick<CatalogContext, "db">, found: FilteredPage, now?: number): Promise<Pick<ProductPage, "items" | "total" | "totalCapped" | "hasMore">> {
  const rows = found.ids.length === 0 ? [] : await summaries(ctx.db).where("p.id", "in", found.ids).execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return {
    items: found.ids.flatMap((id) => (byId.has(id) ? [toSummary(byId.get(id)!, now)] : [])),
    total: found.total,
    totalCapped: found.totalCapped,
    hasMore: found.hasMore,
  };
}

/**
 * A search narrowed by filters or ordered: among the search's matches, at most SEARCH_RESULT_CAP (the search's own
 * bound), so a rare filter over a common word reads no more than the search does. The matches come with their list
 * keys, read in the search's own rows; a list in an order of its own is not ranked, which only orders the matches.
 */
async function searchFiltered(ctx: Pick<CatalogContext, "db" | "search">, q: string, filters: ListFilters, page: { limit: number; offset: number }) {
  const found = await ctx.search.matchesWithKeys(q, !filters.sort);
  const filtered = filterRanked(found.matches, filters, page);
  const cards = await cardsOf(ctx, filtered);
  return {
    page: { ...cards, totalCapped: found.totalCapped && !narrows(filters), limit: page.limit, offset: page.offset, nextCursor: null },
    facets: filtered.facets,
    nearest: filtered.ids.length === 0 ? countMatchesWithoutEachGroup(found.matches, filters) : [],
  };
}

/** GET /api/products/suggestions: the names of the best few matches, for the search box. */
export async function suggestProducts(ctx: ListContext, input: unknown, searcher: Searcher): Promise<{ items: ProductSuggestion[] }> {
  const { q } = parseInput(suggestionQuerySchema, input);
  if (!q) return { items: [] };
  await ctx.rateLimiter.hit(suggestionRateRule, searcher.clientIp ?? "unknown");
  const { ids } = await ctx.search.search(q, { limit: SUGGESTION_COUNT, offset: 0 });
  if (ids.length === 0) return { items: [] };
  const rows = await ctx.db.selectFrom("products").select(["id", "name"]).where("id", "in", ids).execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return { items: ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : [])) };
}

export async function listNewestProducts(ctx: Pick<CatalogContext, "db">, limit: number = NEW_PRODUCTS_COUNT): Promise<ProductSummary[]> {
  const rows = await summaries(ctx.db).orderBy("p.created_at", "desc").orderBy("p.id", "desc").limit(limit).execute();
  return rows.map(toSummary);
}

/**
 * The shop list: oldest first so that Load More pages never shift. No request counts the catalogue: the total is
 * counted up to TOTAL_CAP + 1 rows of an index ("1,000+" beyond), and a key (`after`, the last product's
 * created_at and id) reaches a deep page as cheaply as the first. A search is ranked by the search index instead.
 */
async function queryProducts(ctx: Pick<CatalogContext, "db" | "search">, query: ProductListQuery): Promise<ProductPage> {
  const filters = toListFilters(query);
  if (query.q && (narrows(filters) || filters.sort)) return (await searchFiltered(ctx, query.q, filters, query)).page;
  if (query.q) return querySearch(ctx, query.q, query);
  if (narrows(filters) || filters.sort) {
    const scope = query.categoryId ? { categoryId: query.categoryId } : {};
    return filteredPage(ctx, scope, filters, { limit: query.limit, offset: query.after ? 0 : query.offset, ...(query.after ? { after: decodeCursor(query.after) } : {}) });
  }
  let filtered: ProductsFrom = ctx.db.selectFrom("products as p");
  if (query.categoryId) filtered = filtered.where("p.category_id", "=", query.categoryId);
  let paged = filtered;
  const after = query.after ? decodeCursor(query.after) : undefined;
  // An offset (old clients, at most API_MAX_OFFSET) skips keys in the index alone, then reads its page by key:
  // skipping whole rows with their joins cost 0.1 s at offset 10,000 on PostgreSQL.
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
    cappedCount(ctx, filtered),
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
async function cappedCount(ctx: Pick<CatalogContext, "db">, filtered: ProductsFrom): Promise<number> {
  const row = await ctx.db
    .selectFrom(filtered.select("p.id").limit(TOTAL_CAP + 1).as("capped"))
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function querySearch(ctx: Pick<CatalogContext, "db" | "search">, q: string, query: Pick<ProductListQuery, "limit" | "offset">): Promise<ProductPage> {
  const found = await ctx.search.search(q, { limit: query.limit + 1, offset: query.offset });
  const ids = found.ids.slice(0, query.limit);
  const rows = ids.length === 0 ? [] : await summaries(ctx.db).where("p.id", "in", ids).execute();
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

/**
 * The cards of the products with these ids (at most a page of them, e.g. a wishlist's), by id; an id of no
 * product is left out. One indexed read by primary key, whatever the catalogue's size.
 */
export async function productSummariesOf(ctx: Pick<CatalogContext, "db">, ids: readonly string[]): Promise<Map<string, ProductSummary>> {
  if (ids.length === 0) return new Map();
  const rows = await summaries(ctx.db).where("p.id", "in", [...ids]).execute();
  return new Map(rows.map((row) => [row.id, toSummary(row)]));
}

/** How many sizes each of these products has (decision 048), by id: one read of the sizes' index by product. */
export async function sizeCountsOf(ctx: Pick<CatalogContext, "db">, ids: readonly string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await ctx.db
    .selectFrom("product_variants")
    .select((eb) => ["product_id", eb.fn.countAll<number | string>().as("n")])
    .where("product_id", "in", [...ids])
    .groupBy("product_id")
    .execute();
  return new Map(rows.map((row) => [row.product_id, Number(row.n)]));
}
