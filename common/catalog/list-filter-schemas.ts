import { z } from "zod";
import { DIFFICULTIES, LIGHT_LEVELS } from "./care-profile.ts";
import { LIST_SORTS, PLACE_FILTERS, PRICE_FILTER_MAX_RUPEES, type ListFilters } from "./list-filters.ts";

// The filters' strict schema, for the API and the server (common/catalog/list-filters.ts holds the rest). Apart from
// the helpers the pages use in the browser, because zod probes for `new Function` when an object schema is built
// there, which the shop's Content-Security-Policy reports as a violation (app/shared/lib/zod-in-browser.ts).

const list = <T extends string>(values: readonly T[], what: string) => {
  const one = z.enum(values as unknown as [T, ...T[]], { error: `${what} is one of: ${values.join(", ")}` });
  return z
    .union([one, z.array(one).max(values.length * 2, `${what} is given at most ${values.length * 2} times`)], {
      error: `${what} is one of: ${values.join(", ")}`,
    })
    .optional()
    .transform((chosen) => [...new Set(chosen === undefined ? [] : Array.isArray(chosen) ? chosen : [chosen])]);
};

const rupees = (what: string) =>
  z.coerce
    .number({ error: `${what} is a whole number of rupees` })
    .int(`${what} is a whole number of rupees`)
    .min(0, `${what} is a whole number of rupees`)
    .max(PRICE_FILTER_MAX_RUPEES, `${what} is at most ${PRICE_FILTER_MAX_RUPEES.toLocaleString("en-IN")} rupees`)
    .optional();

/**
 * The filters of a query, strictly: an unknown value is an error naming what is allowed (the API answers 400).
 * Repeatable names come as a list when repeated. Spread into a list's own query schema (q, limit…), with
 * `priceRangeInOrder` beside it.
 */
export const listFilterFields = {
  light: list(LIGHT_LEVELS, "light").meta({ description: "Light of the room, repeatable (any of them)" }),
  pets: z.enum(["safe"], { error: "pets is safe" }).optional().meta({ description: "`safe`: only plants known to be safe for pets" }),
  care: list(DIFFICULTIES, "care").meta({ description: "How much care, repeatable (any of them)" }),
  place: z
    .enum(PLACE_FILTERS, { error: `place is one of: ${PLACE_FILTERS.join(", ")}` })
    .optional()
    .meta({ description: "Where it lives; plants for both match either" }),
  min: rupees("min").meta({ description: "Lowest price in rupees (included)" }),
  max: rupees("max").meta({ description: "Highest price in rupees (included)" }),
  stock: z.enum(["1"], { error: "stock is 1" }).optional().meta({ description: "`1`: only plants in stock" }),
  sort: z
    .enum(LIST_SORTS, { error: `sort is one of: ${LIST_SORTS.join(", ")}` })
    .optional()
    .meta({ description: "Order; none: oldest first (a search: best match first)" }),
};

/** A price range is given low end first. */
export const priceRangeInOrder: [(f: { min?: number | undefined; max?: number | undefined }) => boolean, { message: string; path: string[] }] = [
  (f) => f.min === undefined || f.max === undefined || f.min <= f.max,
  { message: "min is at most max", path: ["min"] },
];

export const listFiltersSchema = z.object(listFilterFields).refine(...priceRangeInOrder);

type ParsedFilters = z.output<typeof listFiltersSchema>;

export function toListFilters(parsed: ParsedFilters): ListFilters {
  return {
    light: parsed.light ?? [],
    petSafe: parsed.pets === "safe",
    care: parsed.care ?? [],
    place: parsed.place,
    minRupees: parsed.min,
    maxRupees: parsed.max,
    inStock: parsed.stock === "1",
    sort: parsed.sort,
  };
}

