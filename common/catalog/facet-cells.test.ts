import { describe, expect, it } from "vitest";
import { DIFFICULTIES, LIGHT_LEVELS } from "./care-profile.ts";
import { facetCell, matchingCells, PLACE_FILTERS, type CareFilters } from "./list-filters.ts";

/** Every subset of a list, in the list's order. */
const subsets = <T>(values: readonly T[]): T[][] => values.reduce<T[][]>((all, value) => [...all, ...all.map((subset) => [...subset, value])], [[]]);

/** The cells of every profile the filters accept, each profile's cell computed by facetCell, sorted: what matchingCells must answer. */
function cellsOfEveryAcceptedProfile(filters: CareFilters): number[] {
  const cells = new Set<number>();
  for (const light of [null, ...LIGHT_LEVELS])
    for (const petSafe of [null, "yes", "no"])
      for (const difficulty of [null, ...DIFFICULTIES])
        for (const place of [null, "indoor", "outdoor", "both"])
          for (const inStock of [false, true]) {
            const accepted =
              (filters.light.length === 0 || filters.light.includes(light!)) &&
              (!filters.petSafe || petSafe === "yes") &&
              (filters.care.length === 0 || filters.care.includes(difficulty!)) &&
              (!filters.place || place === filters.place || place === "both") &&
              (!filters.inStock || inStock);
            if (accepted) cells.add(facetCell({ light, petSafe, difficulty, place, inStock }));
          }
  return [...cells].sort((a, b) => a - b);
}

describe("the cells a choice of filters matches", () => {
  it("are, for each of the 1,536 choices, in either order of ticking, the sorted cells of every profile the choice accepts", () => {
    let choices = 0;
    for (const light of subsets(LIGHT_LEVELS))
      for (const petSafe of [false, true])
        for (const care of subsets(DIFFICULTIES))
          for (const place of [undefined, ...PLACE_FILTERS])
            for (const inStock of [false, true]) {
              const filters = { light, petSafe, care, place, inStock };
              const expected = cellsOfEveryAcceptedProfile(filters);
              if (light.length || petSafe || care.length || place || inStock) expect(matchingCells(filters)).toEqual(expected);
              else expect(matchingCells(filters)).toBeUndefined();
              expect(matchingCells({ ...filters, light: [...light].reverse(), care: [...care].reverse() }) ?? expected).toEqual(expected);
              choices++;
            }
    expect(choices).toBe(1_536);
  });
});
