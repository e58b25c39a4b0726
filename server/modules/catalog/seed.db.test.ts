import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCategory, createProduct } from "../../../tests/support/factories.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database.ts";
import { sampleProducts } from "./sample-data.ts";
import { SAMPLE_CATALOGUE_SEED, seedSampleData } from "./seed.ts";
import { toIsoString } from "../../platform/db/values.ts";

let database: TestDatabase;
beforeEach(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  await database.cleanup();
});

const SAMPLE_TABLE = [
  ["Snake Plant", 1500, null, 25, "Indoor Plants"],
  ["Aloe Vera", 800, null, 40, "Succulents"],
  ["Rose Plant", 1200, null, 15, "Flowering Plants"],
  ["Fiddle Leaf Fig", 2500, null, 10, "Indoor Plants"],
  ["Cactus Plant", 600, null, 50, "Succulents"],
  ["Jasmine Plant", 1000, 1250, 20, "Flowering Plants"],
  ["Areca Palm", 1800, null, 18, "Indoor Plants"],
  ["Money Plant", 900, null, 30, "Indoor Plants"],
  ["Marigold Plant", 500, 1000, 35, "Flowering Plants"],
  ["Bougainvillea", 1300, null, 12, "Outdoor Plants"],
] as const;

const productCount = async () =>
  Number((await database.db.selectFrom("products").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);

describe("seedSampleData", () => {
  it("creates the four sample categories and ten sample products on a new database, oldest first in the sample table's order, two of them on sale, each with the table's price and stock as its first size", async () => {
    expect(await seedSampleData(database)).toEqual({ outcome: "seeded", categoriesCreated: 4, productsCreated: 10 });
    const rows = await database.db
      .selectFrom("products as p")
      .innerJoin("categories as c", "c.id", "p.category_id")
      .innerJoin("product_variants as v", (join) => join.onRef("v.product_id", "=", "p.id").on("v.position", "=", 0))
      .select(["p.name", "v.price_paise", "v.compare_at_paise", "v.stock", "c.name as category", "p.description"])
      .orderBy("p.created_at")
      .execute();
    expect(rows.map((r) => [r.name, r.price_paise / 100, r.compare_at_paise === null ? null : r.compare_at_paise / 100, r.stock, r.category])).toEqual(SAMPLE_TABLE.map((r) => [...r]));
    for (const row of rows) expect(row.description.length).toBeGreaterThan(40);
    const categories = await database.db.selectFrom("categories").select("name").orderBy("name").execute();
    expect(categories.map((c) => c.name)).toEqual(["Flowering Plants", "Indoor Plants", "Outdoor Plants", "Succulents"]);
  });

  it("sells the Fiddle Leaf Fig in three pot sizes and the Areca Palm in two, each product's price the lowest of its sizes' and its stock their total", async () => {
    await seedSampleData(database);
    const sizes = await database.db
      .selectFrom("product_variants as v")
      .innerJoin("products as p", "p.id", "v.product_id")
      .select(["p.name", "v.label", "v.sku", "v.price_paise", "v.stock"])
      .where("p.name", "in", ["Fiddle Leaf Fig", "Areca Palm"])
      .orderBy("p.name")
      .orderBy("v.position")
      .execute();
    expect(sizes).toEqual([
      { name: "Areca Palm", label: 'Medium · 8" pot', sku: "ARECA-PALM-1", price_paise: 180_000, stock: 18 },
      { name: "Areca Palm", label: 'Large · 12" pot', sku: "ARECA-PALM-2", price_paise: 320_000, stock: 6 },
      { name: "Fiddle Leaf Fig", label: 'Medium · 8" pot', sku: "FIDDLE-LEAF-FIG-1", price_paise: 250_000, stock: 10 },
      { name: "Fiddle Leaf Fig", label: 'Large · 10" pot', sku: "FIDDLE-LEAF-FIG-2", price_paise: 380_000, stock: 5 },
      { name: "Fiddle Leaf Fig", label: 'Extra large · 12" pot', sku: "FIDDLE-LEAF-FIG-3", price_paise: 520_000, stock: 2 },
    ]);
    const products = await database.db
      .selectFrom("products")
      .select(["name", "price_paise", "max_price_paise", "stock"])
      .where("name", "in", ["Fiddle Leaf Fig", "Areca Palm", "Snake Plant"])
      .orderBy("name")
      .execute();
    expect(products).toEqual([
      { name: "Areca Palm", price_paise: 180_000, max_price_paise: 320_000, stock: 24 },
      { name: "Fiddle Leaf Fig", price_paise: 250_000, max_price_paise: 520_000, stock: 17 },
      { name: "Snake Plant", price_paise: 150_000, max_price_paise: null, stock: 25 },
    ]);
  });

  it("gives every product two pictures that ship with the shop", async () => {
    await seedSampleData(database);
    const images = await database.db.selectFrom("product_images").select(["url", "position"]).execute();
    expect(images).toHaveLength(sampleProducts.length * 2);
    for (const image of images) expect(image.url).toMatch(/^\/illustrations\/products\/[a-z-]+-[12]\.svg$/);
  });

  it("records the seed in the database, in the same run that added the samples", async () => {
    await seedSampleData(database, new Date("2030-05-01T10:00:00Z"));
    const record = await database.db.selectFrom("seed_runs").selectAll().where("name", "=", SAMPLE_CATALOGUE_SEED).executeTakeFirstOrThrow();
    expect({ ...record, ran_at: toIsoString(record.ran_at) }).toEqual({
      name: SAMPLE_CATALOGUE_SEED,
      ran_at: "2030-05-01T10:00:00.000Z",
      categories_created: 4,
      products_created: 10,
    });
  });

  it("gives back neither a deleted nor a renamed sample product at the next start", async () => {
    await seedSampleData(database);
    await database.db.deleteFrom("products").where("name", "=", "Aloe Vera").execute();
    await database.db.updateTable("products").set({ name: "Sansevieria" }).where("name", "=", "Snake Plant").execute();

    expect(await seedSampleData(database)).toEqual({ outcome: "already-seeded", categoriesCreated: 0, productsCreated: 0 });
    const names = (await database.db.selectFrom("products").select("name").execute()).map((p) => p.name);
    expect(names).toHaveLength(9);
    expect(names).toContain("Sansevieria");
    expect(names).not.toContain("Aloe Vera");
    expect(names).not.toContain("Snake Plant");
  });

  it("adds nothing at the next start after the owner emptied the whole catalogue", async () => {
    await seedSampleData(database);
    await database.db.deleteFrom("products").execute();
    await database.db.deleteFrom("categories").execute();
    expect(await seedSampleData(database)).toEqual({ outcome: "already-seeded", categoriesCreated: 0, productsCreated: 0 });
    expect(await productCount()).toBe(0);
  });

  it("counts a database seeded before the seed was recorded as seeded: the catalogue stays as the owner left it", async () => {
    // Before migration 0007 every start re-added missing samples and wrote no record: the same rows, no record.
    await seedSampleData(database);
    await database.db.deleteFrom("seed_runs").execute();
    await database.db.deleteFrom("products").where("name", "=", "Rose Plant").execute();

    expect(await seedSampleData(database)).toEqual({ outcome: "kept-existing-catalogue", categoriesCreated: 0, productsCreated: 0 });
    expect(await productCount()).toBe(9);
    await database.db.deleteFrom("products").where("name", "=", "Cactus Plant").execute();
    expect(await seedSampleData(database)).toEqual({ outcome: "already-seeded", categoriesCreated: 0, productsCreated: 0 });
    expect(await productCount()).toBe(8);
  });

  it("adds no samples beside a catalogue the owner built while seeding was off", async () => {
    const category = await createCategory(database.db, { name: "Herbs" });
    await createProduct(database.db, { name: "Basil", category_id: category.id });
    expect(await seedSampleData(database)).toEqual({ outcome: "kept-existing-catalogue", categoriesCreated: 0, productsCreated: 0 });
    expect((await database.db.selectFrom("products").select("name").execute()).map((p) => p.name)).toEqual(["Basil"]);
    expect((await database.db.selectFrom("categories").select("name").execute()).map((c) => c.name)).toEqual(["Herbs"]);
  });

  it("seeds once when several servers start at the same moment", async () => {
    const results = await Promise.all([seedSampleData(database), seedSampleData(database), seedSampleData(database)]);
    expect(results.map((r) => r.outcome).sort()).toEqual(["already-seeded", "already-seeded", "seeded"]);
    expect(await productCount()).toBe(10);
  });
});

describe("database constraints", () => {
  const product = (overrides: Record<string, unknown>) => ({
    id: randomUUID(),
    name: `Plant ${randomUUID()}`,
    description: "x",
    price_paise: 100,
    stock: 1,
    created_at: new Date().toISOString(),
    updated_at: new Date().toISOString(),
    ...overrides,
  });

  it("refuses negative stock and negative prices", async () => {
    const category = await createCategory(database.db);
    await expect(database.db.insertInto("products").values(product({ category_id: category.id, stock: -1 }) as never).execute()).rejects.toThrow();
    await expect(
      database.db.insertInto("products").values(product({ category_id: category.id, price_paise: -1 }) as never).execute(),
    ).rejects.toThrow();
  });

  it("refuses a second product or category with the same name in another case", async () => {
    const category = await createCategory(database.db, { name: "Herbs" });
    await expect(createCategory(database.db, { name: "HERBS" })).rejects.toThrow();
    await database.db.insertInto("products").values(product({ category_id: category.id, name: "Basil" }) as never).execute();
    await expect(
      database.db.insertInto("products").values(product({ category_id: category.id, name: "basil" }) as never).execute(),
    ).rejects.toThrow();
  });

  it("refuses a product in a category that does not exist", async () => {
    await expect(database.db.insertInto("products").values(product({ category_id: "nope" }) as never).execute()).rejects.toThrow();
  });
});
