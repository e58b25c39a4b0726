import type { ProductSummary } from "#common/catalog/catalog-types.ts";
import { salePageQuerySchema, type SaleSort } from "#common/catalog/catalog-schemas.ts";
import { SHOP_MAX_PAGES } from "#common/shared/constants.ts";
import { sql, type SelectQueryBuilder } from "kysely";
import { shopClock } from "../../platform/clock.ts";
import { parseInput } from "../../platform/errors.ts";
import type { CatalogContext } from "./catalog-context.ts";
import type { DB } from "../../platform/db/schema.ts";
import { pageRows, summaries, toSummary } from "./product-rows.ts";
import { narrows, readListFilters, type CountWithout, type FacetCount, type ListFilters, type QueryValues } from "#common/catalog/list-filters.ts";
import { countSaleFacets, countWithoutEachGroup } from "./filtered-lists.ts";
import { filteredPage } from "./product-lists.ts";

// The /sale page's list (docs/decisions/047): the products on sale now, a page of twelve at a time like the shop.

/** What /sale shows: the page's products, whether there are more, the page and order asked for, the filters. */
export interface SalePage {
  items: ProductSummary[];
  hasMore: boolean;
  page: number;
  sort: SaleSort;
  filters: ListFilters;
  facets: FacetCount[];
  /** When the filters leave nothing on sale: how many each group's removal would leave. */
  nearest: CountWithout[];
}

/**
 * Products on sale at `now`: a compare-at price above the price, and now inside the window. The first condition
 * is the partial indexes' own (`compare_at_paise is not null`, migration 0022), so the rows read are only those
 * with a compare-at price, never the whole catalogue.
 */
export function onSaleAt<O>(query: SelectQueryBuilder<DB & { p: DB["products"] }, "p", O>, now: number): SelectQueryBuilder<DB & { p: DB["products"] }, "p", O> {
  const at = new Date(now).toISOString();
  return query
    .where("p.compare_at_paise", "is not", null)
    .where((eb) => eb("p.compare_at_paise", ">", eb.ref("p.price_paise")))
    .where((eb) => eb.or([eb("p.sale_starts_at", "is", null), eb("p.sale_starts_at", "<=", at)]))
    .where((eb) => eb.or([eb("p.sale_ends_at", "is", null), eb("p.sale_ends_at", ">", at)]));
}

/**
 * /sale's page in one of its orders, narrowed by the shop's filters (read forgivingly from the address;
 * /sale keeps its own orders, so the filters' `sort` is its). Unfiltered, the list is read as before; filtered, by
 * the filtered lists' reads within what is on sale (scope `saleAt`).
 */
export async function listSalePages(ctx: Pick<CatalogContext, "db">, input: QueryValues, now: number = shopClock.now()): Promise<SalePage> {
  const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
  const { page, sort } = parseInput(salePageQuerySchema, { page: first(input.page), sort: first(input.sort) });
  const filters = { ...readListFilters(input), sort: undefined };
  const { limit, offset } = pageRows(page);
  const facetsRead = countSaleFacets(ctx.db, now, filters);
  if (narrows(filters)) {
    const [found, facets] = await Promise.all([filteredPage(ctx, { saleAt: now }, filters, { limit, offset }, now, sort), facetsRead]);
    const nearest = found.items.length === 0 ? await countWithoutEachGroup(ctx.db, { saleAt: now }, filters) : [];
    return { items: found.items, hasMore: found.hasMore && page < SHOP_MAX_PAGES, page, sort, filters, facets, nearest };
  }
  let query = onSaleAt(summaries(ctx.db), now);
  // Each order is one of migration 0022's partial indexes, read forwards or backwards until the page is full.
  if (sort === "newest") query = query.orderBy("p.created_at", "desc").orderBy("p.id", "desc");
  else if (sort === "price-asc") query = query.orderBy("p.price_paise").orderBy("p.id");
  else if (sort === "price-desc") query = query.orderBy("p.price_paise", "desc").orderBy("p.id", "desc");
  else query = query.orderBy(sql`((p.compare_at_paise - p.price_paise) * 1.0 / p.compare_at_paise)`, "desc").orderBy("p.id", "desc");
  const [rows, facets] = await Promise.all([query.limit(limit + 1).offset(offset).execute(), facetsRead]);
  return {
    items: rows.slice(0, limit).map((row) => toSummary(row, now)),
    hasMore: rows.length > limit && page < SHOP_MAX_PAGES,
    page,
    sort,
    filters,
    facets,
    nearest: [],
  };
}
