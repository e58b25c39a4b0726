import { describe, expect, it } from "vitest";
import { rank, similarity, trigrams, type Candidate } from "./ranked-search.ts";

const candidate = (id: string, name: string, categoryName = "", order: string | number = id): Candidate => ({ id, name, categoryName, order });

describe("rank", () => {
  it("puts a word in the name before the same word in the category, and that before the description", () => {
    const found = [candidate("d", "Window Palm"), candidate("c", "Shelf Palm", "Ferns"), candidate("n", "Boston Fern")];
    expect(rank(found, [["fern"]], "fern")).toEqual(["n", "c", "d"]);
  });

  it("puts the name closer to the search first among names that have every word", () => {
    const found = [candidate("long", "Variegated Snake Plant 'Aurora', 9 cm pot"), candidate("short", "Snake Plant")];
    expect(rank(found, [["snak", "snake"], ["plnt", "plant"]], "snak plnt")).toEqual(["short", "long"]);
  });

  it("breaks a tie by the order key, smaller (older) first", () => {
    expect(rank([candidate("b", "Fern", "", 2), candidate("a", "Fern", "", 1)], [["fern"]], "fern")).toEqual(["a", "b"]);
  });
});

describe("similarity", () => {
  it("is pg_trgm's: shared trigrams over all trigrams ('rose' to 'rose plant' is 5 of 11)", () => {
    expect(similarity("rose plant", [...trigrams("rose")])).toBeCloseTo(5 / 11);
  });

  it("is 1 for the same word and 0 for nothing shared", () => {
    expect(similarity("fern", [...trigrams("fern")])).toBe(1);
    expect(similarity("palm", [...trigrams("fern")])).toBe(0);
  });
});
