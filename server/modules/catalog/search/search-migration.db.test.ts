import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createTestDatabase, migrateToLatest, type TestDatabase } from "../../../../tests/support/test-database.ts";
import { sampleCategories, sampleProducts } from "../sample-data.ts";
import { createProductSearch } from "./product-search.ts";

// A shop from before the search index (migrations up to 0007) with its catalogue: migration 0012 builds the index
// for the products already there.

let database: TestDatabase;
beforeEach(async () => {
  database = await createTestDatabase({ upTo: "0007-seeding-record" });
});
afterEach(async () => {
  await database.cleanup();
});

/** The sample catalogue with only the columns the schema had then (today's seed writes later ones, such as sale prices). */
async function insertSamplesAsThen() {
  const created_at = new Date().toISOString();
  const categoryIds = new Map(sampleCategories.map((category) => [category.name, randomUUID()]));
  await database.db
    .insertInto("categories")
    .values(sampleCategories.map((c) => ({ id: categoryIds.get(c.name)!, name: c.name, description: c.description, image_url: `/illustrations/categories/${c.image}.svg`, image_width: 600, image_height: 600, created_at })))
    .execute();
  await database.db
    .insertInto("products")
    .values(sampleProducts.map((p) => ({ id: randomUUID(), name: p.name, description: p.description, price_paise: p.rupees * 100, stock: p.stock, category_id: categoryIds.get(p.category)!, created_at, updated_at: created_at })))
    .execute();
}

it("builds the search index for the products a shop already has when it is migrated", async () => {
  await insertSamplesAsThen();
  await database.db.updateTable("products").set({ name: "Sansevieria" }).where("name", "=", "Snake Plant").execute();
  await migrateToLatest(database);

  const search = createProductSearch(database.db);
  const firstName = async (q: string) => {
    const [id] = (await search.search(q, { limit: 1, offset: 0 })).ids;
    return id && (await database.db.selectFrom("products").select("name").where("id", "=", id).executeTakeFirstOrThrow()).name;
  };
  expect(await firstName("bougainvilla")).toBe("Bougainvillea");
  expect(await firstName("sansevieria")).toBe("Sansevieria");
  expect(await firstName("sansevera")).toBe("Sansevieria");
  expect(await firstName("succulent")).toMatch(/^(Aloe Vera|Cactus Plant)$/);
});
