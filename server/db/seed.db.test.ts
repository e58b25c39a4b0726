import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCategory } from "../../tests/support/factories.ts";
import { createTestDatabase, type TestDatabase } from "../../tests/support/test-database.ts";
import { sampleProducts } from "./sample-data.ts";
import { seedSampleData } from "./seed.ts";

let database: TestDatabase;
beforeEach(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  await database.cleanup();
});

const SPEC_TABLE = [
  ["Snake Plant", 1500, 25, "Indoor Plants"],
  ["Aloe Vera", 800, 40, "Succulents"],
  ["Rose Plant", 1200, 15, "Flowering Plants"],
  ["Fiddle Leaf Fig", 2500, 10, "Indoor Plants"],
  ["Cactus Plant", 600, 50, "Succulents"],
  ["Jasmine Plant", 1000, 20, "Flowering Plants"],
  ["Areca Palm", 1800, 18, "Indoor Plants"],
  ["Money Plant", 900, 30, "Indoor Plants"],
  ["Marigold Plant", 500, 35, "Flowering Plants"],
  ["Bougainvillea", 1300, 12, "Outdoor Plants"],
] as const;

describe("seedSampleData", () => {
  it("creates the spec's four categories and ten products, oldest first in the spec's order", async () => {
    expect(await seedSampleData(database)).toEqual({ categoriesCreated: 4, productsCreated: 10 });
    const rows = await database.db
      .selectFrom("products as p")
      .innerJoin("categories as c", "c.id", "p.category_id")
      .select(["p.name", "p.price_paise", "p.stock", "c.name as category", "p.description"])
      .orderBy("p.created_at")
      .execute();
    expect(rows.map((r) => [r.name, r.price_paise / 100, r.stock, r.category])).toEqual(SPEC_TABLE.map((r) => [...r]));
    for (const row of rows) expect(row.description.length).toBeGreaterThan(40);
    const categories = await database.db.selectFrom("categories").select("name").orderBy("name").execute();
    expect(categories.map((c) => c.name)).toEqual(["Flowering Plants", "Indoor Plants", "Outdoor Plants", "Succulents"]);
  });

  it("gives every product two pictures that ship with the shop", async () => {
    await seedSampleData(database);
    const images = await database.db.selectFrom("product_images").select(["url", "position"]).execute();
    expect(images).toHaveLength(sampleProducts.length * 2);
    for (const image of images) expect(image.url).toMatch(/^\/illustrations\/products\/[a-z-]+-[12]\.svg$/);
  });

  it("never duplicates on a restart, and restores only what is missing", async () => {
    await seedSampleData(database);
    expect(await seedSampleData(database)).toEqual({ categoriesCreated: 0, productsCreated: 0 });
    await database.db.deleteFrom("products").where("name", "=", "Aloe Vera").execute();
    expect(await seedSampleData(database)).toEqual({ categoriesCreated: 0, productsCreated: 1 });
    const count = await database.db.selectFrom("products").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(10);
  });

  it("reuses a category that already exists under another case", async () => {
    const existing = await createCategory(database.db, { name: "indoor plants" });
    expect(await seedSampleData(database)).toEqual({ categoriesCreated: 3, productsCreated: 10 });
    const snake = await database.db.selectFrom("products").select("category_id").where("name", "=", "Snake Plant").executeTakeFirstOrThrow();
    expect(snake.category_id).toBe(existing.id);
  });

  it("seeds once when several servers start at the same moment", async () => {
    const results = await Promise.all([seedSampleData(database), seedSampleData(database), seedSampleData(database)]);
    expect(results.reduce((sum, r) => sum + r.productsCreated, 0)).toBe(10);
    expect(results.reduce((sum, r) => sum + r.categoriesCreated, 0)).toBe(4);
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
