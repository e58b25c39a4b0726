import { DIFFICULTIES, LIGHT_LEVELS, type Difficulty, type LightLevel } from "./care-profile.ts";

// The shop's filters and orders (/shop, a category's page, /sale, a search, GET /api/products): what the address
// holds, how it is read, and which "facet cells" a choice matches. The address is the whole state, so a filtered list
// can be shared, and back and forward work:
//
//   light=low&light=medium   the light of the room (repeatable: any of them)
//   pets=safe                only plants known to be safe for pets (not known is never safe)
//   care=beginner            how much attention (repeatable: any of them)
//   place=indoor|outdoor     where it lives ('both' plants match either)
//   min=500&max=2000         the price in whole rupees, both ends included
//   stock=1                  only plants that can be bought now
//   sort=newest|price-asc|price-desc|rating   (none: the shop's own order, oldest first)
//
// Every choice is a set of cells (below) beside a price range: a list reads only the rows of matching cells.

export const LIST_SORTS = ["newest", "price-asc", "price-desc", "rating"] as const;
export type ListSort = (typeof LIST_SORTS)[number];

/** The places a shopper filters by: 'both' is no choice of its own, it belongs to each. */
export const PLACE_FILTERS = ["indoor", "outdoor"] as const;
export type PlaceFilter = (typeof PLACE_FILTERS)[number];

/** The highest price filter in rupees: well above any plant, and far below where paise overflow. */
export const PRICE_FILTER_MAX_RUPEES = 10_000_000;

export interface ListFilters {
  light: LightLevel[];
  petSafe: boolean;
  care: Difficulty[];
  place: PlaceFilter | undefined;
  /** Rupees, both included. */
  minRupees: number | undefined;
  maxRupees: number | undefined;
  inStock: boolean;
  sort: ListSort | undefined;
}

export const NO_FILTERS: ListFilters = {
  light: [],
  petSafe: false,
  care: [],
  place: undefined,
  minRupees: undefined,
  maxRupees: undefined,
  inStock: false,
  sort: undefined,
};

/** A query string's values by name, repeated names as lists (what both the API and the pages hand in). */
export type QueryValues = Record<string, string | string[] | undefined>;

/** Every value of a name, repeated or not. */
export function queryValues(params: URLSearchParams): QueryValues {
  const values: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const all = params.getAll(key);
    values[key] = all.length === 1 ? all[0]! : all;
  }
  return values;
}

/**
 * The filters of a page's address, forgivingly: a value the shop has no filter for is left out (an old or edited
 * link still shows plants), a price range given backwards is turned round. A shopper never meets an error page here.
 */
export function readListFilters(values: QueryValues): ListFilters {
  const keep = <T extends string>(raw: unknown, allowed: readonly T[]) =>
    [...new Set((Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).filter((v): v is T => allowed.includes(v as T)))];
  const one = (raw: unknown) => (Array.isArray(raw) ? raw[0] : raw) as string | undefined;
  const price = (raw: unknown) => {
    const text = one(raw)?.trim();
    if (!text || !/^\d{1,8}$/.test(text)) return undefined;
    const n = Number(text);
    return n <= PRICE_FILTER_MAX_RUPEES ? n : undefined;
  };
  let minRupees = price(values.min);
  let maxRupees = price(values.max);
  if (minRupees !== undefined && maxRupees !== undefined && minRupees > maxRupees) [minRupees, maxRupees] = [maxRupees, minRupees];
  const place = one(values.place);
  const sort = one(values.sort);
  return {
    light: keep(values.light, LIGHT_LEVELS),
    petSafe: one(values.pets) === "safe",
    care: keep(values.care, DIFFICULTIES),
    place: PLACE_FILTERS.includes(place as PlaceFilter) ? (place as PlaceFilter) : undefined,
    minRupees,
    maxRupees,
    inStock: one(values.stock) === "1",
    sort: LIST_SORTS.includes(sort as ListSort) ? (sort as ListSort) : undefined,
  };
}

/** The filters as address values, in one order (so one choice is one address): what links and Load More carry. */
export function listFilterParams(filters: ListFilters): [string, string][] {
  const params: [string, string][] = [];
  for (const light of LIGHT_LEVELS) if (filters.light.includes(light)) params.push(["light", light]);
  if (filters.petSafe) params.push(["pets", "safe"]);
  for (const care of DIFFICULTIES) if (filters.care.includes(care)) params.push(["care", care]);
  if (filters.place) params.push(["place", filters.place]);
  if (filters.minRupees !== undefined) params.push(["min", String(filters.minRupees)]);
  if (filters.maxRupees !== undefined) params.push(["max", String(filters.maxRupees)]);
  if (filters.inStock) params.push(["stock", "1"]);
  if (filters.sort) params.push(["sort", filters.sort]);
  return params;
}

/** Whether anything narrows the list (an order alone does not). */
export function narrows(filters: ListFilters): boolean {
  return (
    filters.light.length > 0 ||
    filters.petSafe ||
    filters.care.length > 0 ||
    filters.place !== undefined ||
    filters.minRupees !== undefined ||
    filters.maxRupees !== undefined ||
    filters.inStock
  );
}

/** The groups a list is narrowed by, each one question of the filter panel. */
export const FILTER_GROUPS = ["light", "pets", "care", "place", "stock", "price"] as const;
export type FilterGroup = (typeof FILTER_GROUPS)[number];

/** The groups these filters narrow by, in the panel's order. */
export function chosenGroups(filters: ListFilters): FilterGroup[] {
  return FILTER_GROUPS.filter((group) => withoutGroup(filters, group) !== filters);
}

/** The filters without one group's choice (the order kept); the same object when that group was not chosen. */
export function withoutGroup(filters: ListFilters, group: FilterGroup): ListFilters {
  switch (group) {
    case "light":
      return filters.light.length ? { ...filters, light: [] } : filters;
    case "pets":
      return filters.petSafe ? { ...filters, petSafe: false } : filters;
    case "care":
      return filters.care.length ? { ...filters, care: [] } : filters;
    case "place":
      return filters.place ? { ...filters, place: undefined } : filters;
    case "stock":
      return filters.inStock ? { ...filters, inStock: false } : filters;
    case "price":
      return filters.minRupees !== undefined || filters.maxRupees !== undefined ? { ...filters, minRupees: undefined, maxRupees: undefined } : filters;
  }
}

/**
 * How many plants an empty list would hold without one of its groups (exact up to the cap, "1,000+" beyond): what
 * the list offers a shopper whose choices leave nothing.
 */
export interface CountWithout {
  group: FilterGroup;
  count: number;
  capped: boolean;
}

// ---- Facet cells: one small integer per product from its care profile and whether it is in stock (migration
// 0025-list-filters computes it in the database). Unknown (null) is a value of its own in each part, so "not known"
// never matches a filter.

const LIGHT_CODES = [null, ...LIGHT_LEVELS] as const;
const PET_CODES = [null, "yes", "no"] as const;
const DIFFICULTY_CODES = [null, ...DIFFICULTIES] as const;
const PLACE_CODES = [null, ...PLACE_FILTERS, "both"] as const;

/** How many cells there are: light × pets × difficulty × place × in stock (5 × 3 × 4 × 4 × 2 = 480). */
export const FACET_CELL_COUNT = LIGHT_CODES.length * PET_CODES.length * DIFFICULTY_CODES.length * PLACE_CODES.length * 2;

/** The cell of a profile, from 0 to FACET_CELL_COUNT - 1. */
export function facetCell(p: { light: string | null; petSafe: string | null; difficulty: string | null; place: string | null; inStock: boolean }): number {
  const code = (codes: readonly (string | null)[], value: string | null) => Math.max(0, codes.indexOf(value));
  return (((code(LIGHT_CODES, p.light) * PET_CODES.length + code(PET_CODES, p.petSafe)) * DIFFICULTY_CODES.length + code(DIFFICULTY_CODES, p.difficulty)) * PLACE_CODES.length + code(PLACE_CODES, p.place)) * 2 + (p.inStock ? 1 : 0);
}

/** The SQL that computes facetCell from a products row: the generated column's expression (both databases). */
export function facetCellSql(): string {
  const cases = (column: string, codes: readonly (string | null)[]) =>
    `(case ${column} ${codes.flatMap((value, i) => (value === null ? [] : [`when '${value}' then ${i}`])).join(" ")} else 0 end)`;
  const light = cases("care_light", LIGHT_CODES);
  const pets = cases("care_pet_safe", PET_CODES);
  const difficulty = cases("care_difficulty", DIFFICULTY_CODES);
  const place = cases("care_place", PLACE_CODES);
  return `((((${light} * ${PET_CODES.length} + ${pets}) * ${DIFFICULTY_CODES.length} + ${difficulty}) * ${PLACE_CODES.length} + ${place}) * 2 + (case when stock > 0 then 1 else 0 end))`;
}

// ---- Price bands: the kept counts (server/modules/catalog/cell-counts.ts) count each cell's products per band of
// price, so a price range whose ends are marks below is a sum over whole bands, whatever the catalogue's size. The
// marks are prices shoppers type; each mark is a band of its own (a range includes both ends, so "300 to 500"
// takes ₹300.00 and ₹500.00 but not ₹500.01). A range that ends between marks cuts a band, and only that band's
// part in the range is read. Changing the marks (or the cells) needs a migration that re-creates the counts'
// triggers and re-packs their rows, as 0036-price-band-counts does.

/** Prices in whole rupees at which the bands are cut. */
export const PRICE_MARKS_RUPEES = [100, 200, 250, 300, 400, 500, 750, 1000, 1500, 2000, 2500, 3000, 5000, 10000] as const;

const MARKS_PAISE = PRICE_MARKS_RUPEES.map((rupees) => rupees * 100);

/** Below the first mark, each mark, between two marks, above the last: 2 × marks + 1. */
export const PRICE_BAND_COUNT = 2 * MARKS_PAISE.length + 1;

/** The band of a price in paise: even bands lie between marks, odd ones are a mark's price alone. */
export function priceBand(pricePaise: number): number {
  let band = 0;
  for (const mark of MARKS_PAISE) {
    if (pricePaise < mark) return band;
    if (pricePaise === mark) return band + 1;
    band += 2;
  }
  return band;
}

/** priceBand in SQL, of a price column (both databases). */
export function priceBandSql(column: string): string {
  return `(case ${MARKS_PAISE.map((mark, i) => `when ${column} < ${mark} then ${2 * i} when ${column} = ${mark} then ${2 * i + 1}`).join(" ")} else ${2 * MARKS_PAISE.length} end)`;
}

/** The lowest and highest price of a band, in paise (the last band has no highest). */
function bandBounds(band: number): { low: number; high: number } {
  const i = Math.floor(band / 2);
  if (band % 2 === 1) return { low: MARKS_PAISE[i]!, high: MARKS_PAISE[i]! };
  return { low: i === 0 ? 0 : MARKS_PAISE[i - 1]! + 1, high: i === MARKS_PAISE.length ? Infinity : MARKS_PAISE[i]! - 1 };
}

/** A price range's part in a band it cuts, in paise, both ends included (no highest in the last band). */
export interface CutBand {
  band: number;
  lowPaise: number;
  highPaise: number | undefined;
}

/**
 * The bands a price range (paise, both ends included; undefined for no bound) holds whole, and its parts in the at
 * most two bands it cuts.
 */
export function bandsOfRange(minPaise: number | undefined, maxPaise: number | undefined): { whole: number[]; cut: CutBand[] } {
  const low = minPaise ?? 0;
  const high = maxPaise ?? Infinity;
  const whole: number[] = [];
  const cut: CutBand[] = [];
  for (let band = 0; band < PRICE_BAND_COUNT; band++) {
    const bounds = bandBounds(band);
    if (bounds.high < low || bounds.low > high) continue;
    if (bounds.low >= low && bounds.high <= high) whole.push(band);
    else {
      const highPaise = Math.min(bounds.high, high);
      cut.push({ band, lowPaise: Math.max(bounds.low, low), highPaise: highPaise === Infinity ? undefined : highPaise });
    }
  }
  return { whole, cut };
}

/** What the kept counts count by: a cell and a price band as one number, from 0 to FACET_CELL_COUNT × PRICE_BAND_COUNT - 1. */
export const pricedCell = (cell: number, band: number) => cell * PRICE_BAND_COUNT + band;

/** The cell and the price band of a priced cell (pricedCell's inverse). */
export const splitPricedCell = (priced: number) => ({ cell: Math.floor(priced / PRICE_BAND_COUNT), band: priced % PRICE_BAND_COUNT });

/** pricedCell in SQL, of a row's care_cell and price_paise columns (`new.`, `old.` or none). */
export const pricedCellSql = (row: string) => `(${row}care_cell * ${PRICE_BAND_COUNT} + ${priceBandSql(`${row}price_paise`)})`;

/** The care parts of the filters (not price or order): which of them a facet count varies. */
export type CareFilters = Pick<ListFilters, "light" | "petSafe" | "care" | "place" | "inStock">;

/**
 * The cells matching the care filters, in ascending order; undefined when they match every cell (no care filter).
 * Each list page asks for a dozen of these (its own and one per option), so they are counted out digit by digit in
 * the cells' mixed radix, each part's codes ascending, rather than computed cell by cell and sorted: that took about
 * 0.3 ms a page, most of what a filtered list of ten plants costs in all.
 */
export function matchingCells(filters: CareFilters): number[] | undefined {
  if (filters.light.length === 0 && !filters.petSafe && filters.care.length === 0 && !filters.place && !filters.inStock) return undefined;
  const every = (codes: readonly unknown[]) => codes.map((_, i) => i);
  const chosen = (codes: readonly (string | null)[], values: readonly string[]) => [...new Set(values.map((value) => Math.max(0, codes.indexOf(value))))].sort((a, b) => a - b);
  const lights = filters.light.length ? chosen(LIGHT_CODES, filters.light) : every(LIGHT_CODES);
  const pets = filters.petSafe ? chosen(PET_CODES, ["yes"]) : every(PET_CODES);
  const difficulties = filters.care.length ? chosen(DIFFICULTY_CODES, filters.care) : every(DIFFICULTY_CODES);
  const places = filters.place ? chosen(PLACE_CODES, [filters.place, "both"]) : every(PLACE_CODES);
  const stocks = filters.inStock ? [1] : [0, 1];
  const cells: number[] = [];
  for (const light of lights)
    for (const pet of pets)
      for (const difficulty of difficulties)
        for (const place of places) {
          const base = (((light * PET_CODES.length + pet) * DIFFICULTY_CODES.length + difficulty) * PLACE_CODES.length + place) * 2;
          for (const stock of stocks) cells.push(base + stock);
        }
  return cells;
}

/** The options whose counts a filter panel shows, each a change to the filters. */
export type FacetOption =
  | { name: "light"; value: LightLevel }
  | { name: "pets"; value: "safe" }
  | { name: "care"; value: Difficulty }
  | { name: "place"; value: PlaceFilter }
  | { name: "stock"; value: "1" };

export const FACET_OPTIONS: readonly FacetOption[] = [
  ...LIGHT_LEVELS.map((value) => ({ name: "light" as const, value })),
  { name: "pets", value: "safe" },
  ...DIFFICULTIES.map((value) => ({ name: "care" as const, value })),
  ...PLACE_FILTERS.map((value) => ({ name: "place" as const, value })),
  { name: "stock", value: "1" },
];

/**
 * What an option's count counts: the list with the other groups' choices kept and this group's choice replaced by
 * the option alone. So a count says how many plants the option leaves of what the rest of the panel allows, the same
 * whether the option is ticked or not (ticking two lights shows the plants of either: the sum).
 */
export function filtersForOption(filters: CareFilters, option: FacetOption): CareFilters {
  switch (option.name) {
    case "light":
      return { ...filters, light: [option.value] };
    case "pets":
      return { ...filters, petSafe: true };
    case "care":
      return { ...filters, care: [option.value] };
    case "place":
      return { ...filters, place: option.value };
    case "stock":
      return { ...filters, inStock: true };
  }
}

/** The key of an option in a counts map: `light=low`. */
export const optionKey = (option: { name: string; value: string }) => `${option.name}=${option.value}`;

/** Each option's count of plants, counted up to the list's cap: a count above it is shown as "1,000+". */
export interface FacetCount {
  name: FacetOption["name"];
  value: string;
  count: number;
  capped: boolean;
}
