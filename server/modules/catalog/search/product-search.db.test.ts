import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCategory, createProduct } from "../../../../tests/support/factories.ts";
import { createTestDatabase, type TestDatabase } from "../../../../tests/support/test-database.ts";
import { seedSampleData } from "../seed.ts";
import { toIsoString } from "../../../platform/db/values.ts";
import { createProductSearch, SEARCH_RESULT_CAP, type ProductSearch } from "./product-search.ts";
import { RANK_WINDOW, type ListKeys } from "./ranked-search.ts";

// Runs on SQLite (FTS5 trigram) and on PostgreSQL (pg_trgm): the same cases, through the one interface.

let database: TestDatabase;
let search: ProductSearch;
const firstPage = { limit: 12, offset: 0 };

beforeEach(async () => {
  database = await createTestDatabase();
  search = createProductSearch(database.db);
});
afterEach(async () => {
  await database.cleanup();
});

async function names(q: string): Promise<string[]> {
  const { ids } = await search.search(q, firstPage);
  if (ids.length === 0) return [];
  const rows = await database.db.selectFrom("products").select(["id", "name"]).where("id", "in", ids).execute();
  return ids.map((id) => rows.find((row) => row.id === id)!.name);
}

/**
 * `count` products in a category of their own, created a millisecond apart in the order of `each`, which names and
 * describes each one; written 200 rows a statement.
 */
async function insertProducts(count: number, each: (i: number) => { id: string; name: string; description: string; price_paise?: number }) {
  const category = await createCategory(database.db, { name: "Shelf" });
  const at = Date.parse("2031-01-01T00:00:00Z");
  const rows = Array.from({ length: count }, (_, i) => {
    const created = new Date(at + i).toISOString();
    return { price_paise: 100, stock: 1, category_id: category.id, created_at: created, updated_at: created, ...each(i) };
  });
  for (let start = 0; start < rows.length; start += 200) await database.db.insertInto("products").values(rows.slice(start, start + 200)).execute();
}

describe("search over the sample catalogue", () => {
  beforeEach(async () => {
    await seedSampleData(database);
  });

  it("'snak plnt' (two typos) finds Snake Plant first", async () => {
    expect((await names("snak plnt"))[0]).toBe("Snake Plant");
  });

  it("'bougainvilla' (a letter missing) finds Bougainvillea first", async () => {
    expect((await names("bougainvilla"))[0]).toBe("Bougainvillea");
  });

  it("'alo' (part of a word) finds Aloe Vera first", async () => {
    expect((await names("alo"))[0]).toBe("Aloe Vera");
  });

  it("'succulent' finds both products of the Succulents category by its name", async () => {
    expect(await names("succulent")).toEqual(expect.arrayContaining(["Aloe Vera", "Cactus Plant"]));
  });

  it("a whole word as typed finds just the products that have it: 'snake' is Snake Plant alone", async () => {
    expect(await names("snake")).toEqual(["Snake Plant"]);
  });

  it("ignores case: 'ROSE' finds Rose Plant first", async () => {
    expect((await names("ROSE"))[0]).toBe("Rose Plant");
  });

  it("finds nothing for a word unlike any in the catalogue", async () => {
    expect(await search.search("xylophone", firstPage)).toEqual({ ids: [], total: 0, totalCapped: false });
  });

  it("finds nothing, and fails nothing, for punctuation and FTS syntax", async () => {
    for (const q of ['"', "*", "AND OR NOT", "(", "name:x", "'", "50%", "^"]) {
      await expect(search.search(q, firstPage), q).resolves.toMatchObject({ ids: [] });
    }
  });
});

describe("ranking", () => {
  it("puts a product named by the word before one that only mentions it in its description", async () => {
    const category = await createCategory(database.db, { name: "Shelf Plants" });
    await createProduct(database.db, { name: "Window Palm", description: "Grows well beside a fern.", category_id: category.id });
    await createProduct(database.db, { name: "Boston Fern", description: "Feathery fronds.", category_id: category.id });
    expect(await names("fern")).toEqual(["Boston Fern", "Window Palm"]);
  });

  it("finds a product by a word of its category's name, and after a rename by the new name", async () => {
    const category = await createCategory(database.db, { name: "Carnivorous" });
    await createProduct(database.db, { name: "Venus Flytrap", description: "Snaps shut.", category_id: category.id });
    expect(await names("carnivorous")).toEqual(["Venus Flytrap"]);
    await database.db.updateTable("categories").set({ name: "Insect Eaters" }).where("id", "=", category.id).execute();
    expect(await names("carnivorous")).toEqual([]);
    expect(await names("insect")).toEqual(["Venus Flytrap"]);
  });

  it("follows every product change: a new name is found, the old one and a deleted product are not", async () => {
    const product = await createProduct(database.db, { name: "Peace Lily", description: "White flowers." });
    await database.db.updateTable("products").set({ name: "Calathea" }).where("id", "=", product.id).execute();
    expect(await names("lily")).toEqual([]);
    expect(await names("calathea")).toEqual(["Calathea"]);
    await database.db.deleteFrom("products").where("id", "=", product.id).execute();
    expect(await names("calathea")).toEqual([]);
  });

  it("pages the ranked results by offset and counts them", async () => {
    const category = await createCategory(database.db, { name: "Ferns" });
    for (let i = 0; i < 5; i++) await createProduct(database.db, { name: `Fern number ${i}`, category_id: category.id });
    const first = await search.search("fern", { limit: 2, offset: 0 });
    const rest = await search.search("fern", { limit: 10, offset: 2 });
    expect(first.ids).toHaveLength(2);
    expect(first.total).toBe(5);
    expect(new Set([...first.ids, ...rest.ids]).size).toBe(5);
  });
});

describe("a word more products have than one ranked window", () => {
  const count = RANK_WINDOW * 2 + 20;
  beforeEach(async () => {
    await insertProducts(count, (i) => ({
      id: `many-${String(i).padStart(3, "0")}`,
      // Names of different lengths, so that ranking by likeness reorders each window.
      name: `Quillwort ${"x".repeat(i % 7)} ${i}`,
      description: "A fern ally.",
    }));
  });

  it("pages through every match once, in pages of 12 by offset, however many windows the pages span", async () => {
    const seen: string[] = [];
    for (let offset = 0; offset < count; offset += 12) seen.push(...(await search.search("quillwort", { limit: 12, offset })).ids);
    expect(seen).toHaveLength(count);
    expect(new Set(seen).size).toBe(count);
  });

  it("answers a later page with the products a one-page read of the same windows ranks there", async () => {
    const whole = await search.search("quillwort", { limit: RANK_WINDOW * 2, offset: 0 });
    const page = await search.search("quillwort", { limit: 12, offset: RANK_WINDOW + 6 });
    expect(page.ids).toEqual(whole.ids.slice(RANK_WINDOW + 6, RANK_WINDOW + 18));
  });

  it("counts the first page's window with more beyond, and every match exactly once a page reads them all", async () => {
    expect(await search.search("quillwort", { limit: 12, offset: 0 })).toMatchObject({ total: RANK_WINDOW, totalCapped: true });
    expect(await search.search("quillwort", { limit: 12, offset: count - 5 })).toMatchObject({ ids: { length: 5 }, total: count, totalCapped: false });
  });
});

describe("a word a few names have and more products only mention", () => {
  const named = 5;
  const mentioned = RANK_WINDOW + 10;
  beforeEach(async () => {
    // The named products are the oldest, first in the index of every field too: a read of the other fields that
    // brought them again would bring that many mentions fewer.
    await insertProducts(named + mentioned, (i) => ({
      id: `mix-${String(i).padStart(3, "0")}`,
      name: i < named ? `Quillwort ${i}` : `Horsetail ${i}`,
      description: i < named ? "A fern ally." : "A quillwort's cousin.",
    }));
  });

  it("lists the named products first, then every mention, each once across pages of 12, and counts them exactly at the end", async () => {
    const seen: string[] = [];
    let last;
    for (let offset = 0; offset < named + mentioned; offset += 12) {
      last = await search.search("quillwort", { limit: 12, offset });
      seen.push(...last.ids);
    }
    expect(seen).toHaveLength(named + mentioned);
    expect(new Set(seen).size).toBe(named + mentioned);
    expect(seen.slice(0, named).every((id) => Number(id.slice(4)) < named)).toBe(true);
    expect(last).toMatchObject({ total: named + mentioned, totalCapped: false });
    expect(await search.search("quillwort", { limit: 12, offset: 0 })).toMatchObject({ total: RANK_WINDOW, totalCapped: true });
  });

  it("gives a search filtered or ordered every named product and every mention, each once", async () => {
    for (const ranked of [true, false]) {
      const found = await search.matchesWithKeys("quillwort", ranked);
      expect(found.totalCapped).toBe(false);
      expect(found.matches).toHaveLength(named + mentioned);
      expect(new Set(found.matches.map((match) => match.id)).size).toBe(named + mentioned);
    }
  });
});

describe("every word counts", () => {
  it("finds only the product that has both words of a two-word search", async () => {
    await createProduct(database.db, { name: "Quillwort Palm", description: "Tall." });
    await createProduct(database.db, { name: "Tall Quillwort Cane", description: "Short." });
    expect(await names("quillwort palm")).toEqual(["Quillwort Palm"]);
  });
});

describe("paging a search that needed its typos forgiven", () => {
  it("finds the second page of 'plnt' matches and counts them past the last page", async () => {
    const category = await createCategory(database.db, { name: "Greens" });
    for (let i = 0; i < 3; i++) await createProduct(database.db, { name: `Plant number ${i}`, category_id: category.id });
    expect(await search.search("plnt", { limit: 2, offset: 2 })).toMatchObject({ ids: { length: 1 }, total: 3 });
    expect(await search.search("plnt", { limit: 2, offset: 10 })).toEqual({ ids: [], total: 3, totalCapped: false });
  });
});

describe("a typo of a word only a category's name has", () => {
  it("'succulnt' finds the products of the Succulents category (names first, then every field)", async () => {
    await seedSampleData(database);
    expect(await names("succulnt")).toEqual(expect.arrayContaining(["Aloe Vera", "Cactus Plant"]));
  });
});

describe("every match with its list keys, for a search filtered or ordered", () => {
  /** The list keys of these products as the products table holds them, read here on their own. */
  async function keysInTable(ids: string[]) {
    const rows = await database.db
      .selectFrom("products")
      .select(["id", "created_at", "price_paise", "rating_average", "review_count", "compare_at_paise", "care_cell"])
      .where("id", "in", ids)
      .execute();
    return new Map(rows.map(({ id, created_at, ...keys }) => [id, { ...keys, created_at: toIsoString(created_at), rating_average: Number(keys.rating_average) }]));
  }
  const asRead = (matches: { id: string; keys: ListKeys }[]) =>
    new Map(matches.map(({ id, keys }) => [id, { ...keys, created_at: toIsoString(keys.created_at) }]));

  it.each([
    ["a word in names and descriptions", "quillwort"],
    ["a word only a category's name has", "allies"],
    ["a typo forgiven", "quilwort"],
    ["a word too short for the index, by name prefix", "qu"],
  ])("%s ('%s'): the search's ranked matches, best first, each with the keys the products table holds", async (_, q) => {
    const category = await createCategory(database.db, { name: "Fern allies" });
    await createProduct(database.db, { name: "Quillwort Palm", category_id: category.id, price_paise: 45_000, care_light: "low", care_pet_safe: "yes" });
    await createProduct(database.db, { name: "Tall Quillwort Cane", category_id: category.id, price_paise: 12_300, compare_at_paise: 20_000 });
    await createProduct(database.db, { name: "Horsetail", description: "A quillwort's cousin.", category_id: category.id, price_paise: 9_900, care_difficulty: "expert" });
    const ranked = await search.matchesWithKeys(q, true);
    const page = await search.search(q, { limit: 1000, offset: 0 });
    expect(ranked.matches.map((match) => match.id)).toEqual(page.ids);
    expect(ranked.matches.length).toBeGreaterThan(0);
    expect(asRead(ranked.matches)).toEqual(await keysInTable(page.ids));
    const unranked = await search.matchesWithKeys(q, false);
    expect(new Set(unranked.matches.map((match) => match.id))).toEqual(new Set(page.ids));
    expect(asRead(unranked.matches)).toEqual(asRead(ranked.matches));
  });

  it("stops at the search's cap and says more matched", async () => {
    await insertProducts(SEARCH_RESULT_CAP + 3, (i) => ({ id: `cap-${String(i).padStart(4, "0")}`, name: `Quillwort ${i}`, description: "A fern ally.", price_paise: 100 + i }));
    for (const ranked of [true, false]) {
      const found = await search.matchesWithKeys("quillwort", ranked);
      expect(found.matches).toHaveLength(SEARCH_RESULT_CAP);
      expect(found.totalCapped).toBe(true);
    }
  });

  it("finds nothing, and says nothing more matched, for a word unlike any", async () => {
    await createProduct(database.db, { name: "Quillwort Palm" });
    expect(await search.matchesWithKeys("xylophone", true)).toEqual({ matches: [], totalCapped: false });
  });
});
