import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCategory, createProduct } from "../../../../tests/support/factories.ts";
import { createTestDatabase, type TestDatabase } from "../../../../tests/support/test-database.ts";
import { seedSampleData } from "../seed.ts";
import { createProductSearch, type ProductSearch } from "./product-search.ts";

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
