import { sql, type Expression, type Kysely, type SqlBool } from "kysely";
import {
  bandsOfRange,
  chosenGroups,
  FACET_CELL_COUNT,
  FACET_OPTIONS,
  facetCell,
  filtersForOption,
  matchingCells,
  NO_FILTERS,
  type CareFilters,
  type CountWithout,
  type FacetCount,
  type FacetOption,
  type ListFilters,
  type ListSort,
  withoutGroup,
} from "#common/catalog/list-filters.ts";
import type { DB } from "../../platform/db/schema.ts";
import { plannedPerRun } from "../../platform/db/pg-statements.ts";
import { toIsoString } from "../../platform/db/values.ts";
import { readBandCounts, readCellCounts, sumBandCells, sumCells, WHOLE_SHOP } from "./cell-counts.ts";
import type { ListKeys } from "./search/ranked-search.ts";
import type { ListCursor } from "./list-cursor.ts";
import { TOTAL_CAP } from "./product-rows.ts";
import { onSaleAt } from "./sale-lists.ts";

// Filtered and ordered lists (common/catalog/list-filters.ts, docs/decisions/049), bounded however large the catalogue: what a list
// reads follows the page asked for and the cap of its count, never the number of products.
//
// A filter is a set of facet cells (migration 0025) and a price range. A list first reads its matches' keys by cell
// and price, at most TOTAL_CAP + 1 of them: that is its count, and when there are no more, the whole list, ordered
// here. When there are more, the matches are at least TOTAL_CAP / catalogue of the rows, and the list is read in its
// order along the order's index, testing each entry's cell and price in the index, until the page is full. The cells
// and price columns of every index a list reads make both reads index-only.
//
// In the whole shop or a category, how many products match is known before any of that from the kept counts
// (./cell-counts.ts, docs/decisions/062 and 063): a read of the scope's row, or with a price range the rows of its
// price bands, summed over the cells; a long list goes straight to its order's index. A sale's list (its membership
// follows the clock) counts by capped reads.

/** Which products a list is of: the whole shop, a category, or what is on sale at `saleAt`. */
export interface ListScope {
  categoryId?: string;
  saleAt?: number;
}

/** The orders a list is read in: the shop's own (oldest first), a shopper's choice, or /sale's saving. */
export type ListOrder = ListSort | "oldest" | "saving";

/** What a list's page holds: product ids in order, and the list's count up to the cap. */
export interface FilteredPage {
  ids: string[];
  hasMore: boolean;
  total: number;
  totalCapped: boolean;
  /** The last row's list key (created_at, id), for a cursor of the shop's own order. */
  last: { created_at: string; id: string } | undefined;
}

interface KeyRow {
  id: string;
  created_at: string | Date;
  price_paise: number;
  /** Not read for /sale, whose orders do not compare them. */
  rating_average?: number;
  review_count?: number;
  compare_at_paise?: number | null;
}

type Db = Kysely<DB>;

const paise = (rupees: number) => rupees * 100;

/** The cells as a literal list: numbers this module computed, so one statement text per choice of cells. */
const cellList = (cells: readonly number[]) => sql.raw(`(${cells.join(", ")})`);

interface Narrowing {
  scope: ListScope;
  cells: number[] | undefined;
  minPaise: number | undefined;
  maxPaise: number | undefined;
}

/** How a count or the short list reads the products: seeking by cell and price (and category). */
const SEEK = { cells: true, price: true, category: true } as const;

function narrowingOf(scope: ListScope, filters: CareFilters & Pick<ListFilters, "minRupees" | "maxRupees">): Narrowing {
  return {
    scope,
    cells: matchingCells(filters),
    minPaise: filters.minRupees === undefined ? undefined : paise(filters.minRupees),
    maxPaise: filters.maxRupees === undefined ? undefined : paise(filters.maxRupees),
  };
}

/**
 * The products of a scope narrowed by cells and price. `seek` says whether the database may look the rows up by
 * those columns (the count, the short list); without it they are only tested, per entry of the order's index: a
 * unary plus (or `|| ''`) keeps a column out of index seeks in both databases, so the long list walks its order.
 */
function narrowed(db: Db, n: Narrowing, seek: { cells: boolean; price: boolean; category: boolean }) {
  let query = db.selectFrom("products as p");
  if (n.scope.saleAt !== undefined) query = onSaleAt(query, n.scope.saleAt);
  if (n.scope.categoryId !== undefined) {
    const categoryId = n.scope.categoryId;
    query = seek.category ? query.where("p.category_id", "=", categoryId) : query.where(sql<string>`p.category_id || ''`, "=", categoryId);
  }
  if (n.cells) {
    const cells = n.cells;
    query = query.where(seek.cells ? sql<SqlBool>`p.care_cell in ${cellList(cells)}` : sql<SqlBool>`+p.care_cell in ${cellList(cells)}`);
  }
  const price = seek.price ? sql`p.price_paise` : sql`+p.price_paise`;
  if (n.minPaise !== undefined) query = query.where(sql<SqlBool>`${price} >= ${n.minPaise}`);
  if (n.maxPaise !== undefined) query = query.where(sql<SqlBool>`${price} <= ${n.maxPaise}`);
  return query;
}

/** The columns the orders compare, in the SQL of each and in a comparison of rows here (the same order). */
const ORDERS: Record<ListOrder, { sql: Expression<unknown>[]; desc: boolean; compare: (a: KeyRow, b: KeyRow) => number }> = {
  oldest: { sql: [sql`p.created_at`, sql`p.id`], desc: false, compare: (a, b) => cmp(iso(a), iso(b)) || cmp(a.id, b.id) },
  newest: { sql: [sql`p.created_at`, sql`p.id`], desc: true, compare: (a, b) => cmp(iso(b), iso(a)) || cmp(b.id, a.id) },
  "price-asc": { sql: [sql`p.price_paise`, sql`p.id`], desc: false, compare: (a, b) => a.price_paise - b.price_paise || cmp(a.id, b.id) },
  "price-desc": { sql: [sql`p.price_paise`, sql`p.id`], desc: true, compare: (a, b) => b.price_paise - a.price_paise || cmp(b.id, a.id) },
  rating: {
    sql: [sql`p.rating_average`, sql`p.review_count`, sql`p.id`],
    desc: true,
    compare: (a, b) => b.rating_average! - a.rating_average! || b.review_count! - a.review_count! || cmp(b.id, a.id),
  },
  saving: {
    sql: [sql`((p.compare_at_paise - p.price_paise) * 1.0 / p.compare_at_paise)`, sql`p.id`],
    desc: true,
    compare: (a, b) => saving(b) - saving(a) || cmp(b.id, a.id),
  },
};

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const iso = (row: KeyRow) => toIsoString(row.created_at);
const saving = (row: KeyRow) => (row.compare_at_paise ? (row.compare_at_paise - row.price_paise) / row.compare_at_paise : 0);

/** Where a filtered list's page starts and how long it is, and its count when the caller has read it already. */
export interface FilteredPageRequest {
  limit: number;
  offset: number;
  after?: ListCursor;
  /** The list's count from `countFacetsWithList` (the whole shop or a category), read with the options' counts. */
  count?: number;
}

/**
 * One page of a filtered list: `offset` rows in (pages of the shop, at most the API's deepest offset) or after a
 * cursor (the shop's own order only), `limit` rows.
 */
export async function readFilteredPage(db: Db, scope: ListScope, filters: ListFilters, order: ListOrder, page: FilteredPageRequest): Promise<FilteredPage> {
  const n = narrowingOf(scope, filters);
  const spec = ORDERS[order];
  // The keys every order compares, all in the index read (a row read per match cost 12 ms per 1,000 in SQLite).
  const keyColumns =
    scope.saleAt === undefined
      ? (["p.id", "p.created_at", "p.price_paise", "p.rating_average", "p.review_count"] as const)
      : (["p.id", "p.created_at", "p.price_paise", "p.compare_at_paise"] as const);
  // The count: the caller's, read with the options' counts; or from the kept counts; or on /sale by reading the
  // matches' ids up to the cap by cell and price (products_on_sale_facets).
  const count =
    scope.saleAt !== undefined
      ? (
          await narrowed(db, n, SEEK)
            .select("p.id")
            .where(sql<SqlBool>`1 = 1 ${plannedPerRun}`)
            .limit(TOTAL_CAP + 1)
            .execute()
        ).length
      : (page.count ?? (await countByCells(db, scope.categoryId, [n.cells], n.minPaise, n.maxPaise))[0]!);
  const long = count > TOTAL_CAP;
  // A short list is sought by cell and price and its few matches ordered by the database, which answers the page
  // alone. A long one is read along its order's index, each entry's cell and price tested in the index: its
  // matches are at least TOTAL_CAP / catalogue of the entries, so the page is found within a bounded walk.
  let query = narrowed(db, n, long ? { cells: false, price: order === "price-asc" || order === "price-desc", category: false } : SEEK).select(
    keyColumns,
  );
  if (page.after) {
    const after = page.after;
    query = query.where("p.created_at", ">=", after.createdAt).where((eb) => eb.or([eb("p.created_at", ">", after.createdAt), eb("p.id", ">", after.id)]));
  }
  // A category's short list of chosen cells is sorted by the database after its seek, never read in an index's
  // order: SQLite keeps no statistics, and for the shop's order (oldest or newest) it otherwise walked the whole
  // category in created_at order (products_category), reading each plant's row for its cell, instead of seeking
  // category, cell and price in products_category_facets: 1.2–1.9 ms for the 28 plants of a rare choice among 13,600
  // at 100,000 products, and growing with the category. A first sort key no index holds (zero for every row) leaves
  // SQLite no order to walk; PostgreSQL seeks the same index by its statistics, and sorts the same rows. With a price
  // alone the index has no cell to seek, and the walk, which stops at the page, was the faster of the two.
  if (!long && scope.categoryId !== undefined && n.cells) query = query.orderBy(sql`p.care_cell * 0`);
  for (const column of spec.sql) query = query.orderBy(column, spec.desc ? "desc" : "asc");
  const rows =
    count === 0
      ? []
      : ((await query
          .where(sql<SqlBool>`1 = 1 ${plannedPerRun}`)
          .limit(page.limit + 1)
          .offset(page.offset)
          .execute()) as KeyRow[]);
  const totalCapped = long;
  const total = Math.min(count, TOTAL_CAP);
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  return {
    ids: shown.map((row) => row.id),
    hasMore: rows.length > page.limit,
    total,
    totalCapped,
    last: last ? { created_at: iso(last), id: last.id } : undefined,
  };
}

/** An option's count as the panel shows it: up to the cap, and whether there are more. */
const shownCount = (option: FacetOption, count: number): FacetCount => ({ name: option.name, value: option.value, count: Math.min(count, TOTAL_CAP), capped: count > TOTAL_CAP });

/**
 * How many plants on sale at `saleAt` each option of the panel would leave (filtersForOption), each shown up to the
 * cap: one capped read by cell and price per option, all in one statement (what is on sale follows the clock, so
 * there are no kept counts of it; the whole shop's and a category's are countFacetsWithList's).
 */
export async function countSaleFacets(db: Db, saleAt: number, filters: ListFilters): Promise<FacetCount[]> {
  const range = narrowingOf({ saleAt }, filters);
  const counts = await cappedCounts(db, FACET_OPTIONS.map((option) => ({ ...range, cells: matchingCells(filtersForOption(filters, option)) })));
  return FACET_OPTIONS.map((option, i) => shownCount(option, counts[i]!));
}

/**
 * How many products each narrowing holds, up to TOTAL_CAP + 1: one capped read by cell and price each, all in one
 * statement. Prepared, not planned per run: every sub-select seeks by cell and price whatever the values, and
 * planning eleven of them on each run cost about 8 ms on PostgreSQL even at 10 products.
 */
async function cappedCounts(db: Db, narrowings: Narrowing[]): Promise<number[]> {
  const counted = await db
    .selectNoFrom((eb) =>
      narrowings.map((n, i) => {
        const capped = narrowed(db, n, SEEK).select(sql<number>`1`.as("one")).limit(TOTAL_CAP + 1);
        return eb
          .selectFrom(capped.as(`c${i}`))
          .select((inner) => inner.fn.countAll<number>().as("n"))
          .as(`n${i}`);
      }),
    )
    .executeTakeFirstOrThrow();
  const row = counted as Record<string, number | string | null>;
  return narrowings.map((_, i) => Number(row[`n${i}`] ?? 0));
}

/**
 * The options' counts of a list of the whole shop or a category, and the list's own count (for readFilteredPage),
 * from one reading of the kept counts: with a price range, the range's band rows and the reads of the bands it cuts
 * are made once for all of them, instead of once for the page and again for the panel.
 */
export async function countFacetsWithList(db: Db, scope: Pick<ListScope, "categoryId">, filters: ListFilters): Promise<{ listCount: number; facets: FacetCount[] }> {
  const n = narrowingOf(scope, filters);
  const cellSets = [n.cells, ...FACET_OPTIONS.map((option) => matchingCells(filtersForOption(filters, option)))];
  const [listCount, ...counts] = await countByCells(db, scope.categoryId, cellSets, n.minPaise, n.maxPaise);
  return { listCount: listCount!, facets: FACET_OPTIONS.map((option, i) => shownCount(option, counts[i]!)) };
}

/**
 * For a list its filters left empty: how many products it would hold without each group chosen, so the page can
 * offer the nearest lists instead of a dead end. Read only for an empty list: from the kept counts in the whole shop
 * or a category (one reading for the care groups, one without the range when a price is chosen), by capped reads
 * within what is on sale.
 */
export async function countWithoutEachGroup(db: Db, scope: ListScope, filters: ListFilters): Promise<CountWithout[]> {
  const groups = chosenGroups(filters);
  if (groups.length === 0) return [];
  let counts: number[];
  if (scope.saleAt !== undefined) {
    counts = await cappedCounts(db, groups.map((group) => narrowingOf(scope, withoutGroup(filters, group))));
  } else {
    const n = narrowingOf(scope, filters);
    const careGroups = groups.filter((group) => group !== "price");
    const [care, priceless] = await Promise.all([
      careGroups.length ? countByCells(db, scope.categoryId, careGroups.map((group) => matchingCells(withoutGroup(filters, group))), n.minPaise, n.maxPaise) : Promise.resolve([]),
      groups.includes("price") ? countByCells(db, scope.categoryId, [n.cells], undefined, undefined) : Promise.resolve([]),
    ]);
    counts = groups.map((group) => (group === "price" ? priceless[0]! : care[careGroups.indexOf(group)]!));
  }
  return groups.map((group, i) => ({ group, count: Math.min(counts[i]!, TOTAL_CAP), capped: counts[i]! > TOTAL_CAP }));
}

/** Which cells a set holds, by cell (1: held), for testing up to a thousand matches against a dozen sets. */
function cellMembership(cells: number[] | undefined): Uint8Array | undefined {
  if (!cells) return undefined;
  const held = new Uint8Array(FACET_CELL_COUNT);
  for (const cell of cells) held[cell] = 1;
  return held;
}

/**
 * Whether a match's list keys pass the filters' price range and cells: how a search's matches are filtered and
 * counted (filterRanked, countMatchesWithoutEachGroup).
 */
function passes(filters: CareFilters & Pick<ListFilters, "minRupees" | "maxRupees">): (keys: Pick<ListKeys, "price_paise" | "care_cell">) => boolean {
  const held = cellMembership(matchingCells(filters));
  const min = filters.minRupees === undefined ? -Infinity : paise(filters.minRupees);
  const max = filters.maxRupees === undefined ? Infinity : paise(filters.maxRupees);
  return (keys) => keys.price_paise >= min && keys.price_paise <= max && (!held || held[keys.care_cell] === 1);
}

/** countWithoutEachGroup among a search's matches (at most the search's cap), counted here from their list keys. */
export function countMatchesWithoutEachGroup(matches: { keys: ListKeys }[], filters: ListFilters): CountWithout[] {
  return chosenGroups(filters).map((group) => {
    const kept = passes(withoutGroup(filters, group));
    const count = matches.filter(({ keys }) => kept(keys)).length;
    return { group, count: Math.min(count, TOTAL_CAP), capped: count > TOTAL_CAP };
  });
}

/**
 * How many products of the whole shop or a category match each set of cells (undefined: every cell) within a price
 * range, exact up to TOTAL_CAP + 1. Summed from the kept counts: per cell without a range, else per cell in each of
 * the price bands the range holds whole. A range ending between two marks cuts a band at either end; a count the
 * whole bands leave at or under the cap, with products of its cells in a cut band, reads those in the range's part
 * of it, at most as many as it lacks to pass the cap. Every count's reads are one statement of the same text
 * whichever counts read (a count that needs none reads with a limit of 0).
 */
async function countByCells(
  db: Db,
  categoryId: string | undefined,
  cellSets: (number[] | undefined)[],
  minPaise: number | undefined,
  maxPaise: number | undefined,
): Promise<number[]> {
  const scope = categoryId ?? WHOLE_SHOP;
  if (minPaise === undefined && maxPaise === undefined) {
    const counts = await readCellCounts(db, scope);
    return cellSets.map((cells) => sumCells(counts, cells));
  }
  const { whole, cut } = bandsOfRange(minPaise, maxPaise);
  const cutBands = cut.map((part) => part.band);
  const bands = [...whole, ...cutBands];
  const bandCounts = await readBandCounts(db, scope, Math.min(...bands), Math.max(...bands));
  const sums = cellSets.map((cells) => sumBandCells(bandCounts, cells, whole));
  const lacking = cellSets.map((cells, i) => (sums[i]! <= TOTAL_CAP && sumBandCells(bandCounts, cells, cutBands) > 0 ? TOTAL_CAP + 1 - sums[i]! : 0));
  if (lacking.every((n) => n === 0)) return sums;
  const counted = (await db
    .selectNoFrom((eb) =>
      cellSets.flatMap((cells, i) =>
        cut.map((part, j) => {
          const n: Narrowing = { scope: { categoryId }, cells, minPaise: part.lowPaise, maxPaise: part.highPaise };
          const capped = narrowed(db, n, SEEK).select(sql<number>`1`.as("one")).limit(lacking[i]!);
          return eb
            .selectFrom(capped.as(`c${i}_${j}`))
            .select((inner) => inner.fn.countAll<number>().as("n"))
            .as(`n${i}_${j}`);
        }),
      ),
    )
    .executeTakeFirstOrThrow()) as Record<string, number | string | null>;
  return sums.map((sum, i) => cut.reduce((total, _, j) => total + Number(counted[`n${i}_${j}`] ?? 0), sum));
}

/**
 * A search's matches filtered, ordered and counted: the search reads at most SEARCH_RESULT_CAP products (its own
 * bound) with their list keys, which are filtered, counted and ordered here. `ranked` are the search's matches, best
 * first; with no order chosen the list keeps the search's.
 */
export function filterRanked(
  ranked: { id: string; keys: ListKeys }[],
  filters: ListFilters,
  page: { limit: number; offset: number },
): FilteredPage & { facets: FacetCount[] } {
  const rows = ranked.map((match): KeyRow & { care_cell: number } => ({ id: match.id, ...match.keys }));
  // The options' counts keep the list's price range (filtersForOption changes care parts only), so it is tested once.
  const inRange = rows.filter(passes({ ...NO_FILTERS, minRupees: filters.minRupees, maxRupees: filters.maxRupees }));
  const kept = (care: CareFilters) => inRange.filter(passes({ ...care, minRupees: undefined, maxRupees: undefined }));
  const matches = kept(filters);
  // The rows are in the search's order, best first, and filtering keeps it.
  const sorted = filters.sort ? matches.sort(ORDERS[filters.sort].compare) : matches;
  const shown = sorted.slice(page.offset, page.offset + page.limit);
  const facets = FACET_OPTIONS.map((option) => shownCount(option, kept(filtersForOption(filters, option)).length));
  const last = shown.at(-1);
  return {
    ids: shown.map((row) => row.id),
    hasMore: sorted.length > page.offset + page.limit,
    total: Math.min(sorted.length, TOTAL_CAP),
    totalCapped: false,
    last: last ? { created_at: iso(last), id: last.id } : undefined,
    facets,
  };
}

/** The facet cell of a profile as the database computes it (for tests and the bench to compare with). */
export { facetCell };
