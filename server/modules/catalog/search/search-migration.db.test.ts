import { afterEach, beforeEach, expect, it } from "vitest";
import { createTestDatabase, migrateBesideOtherTests, migrateToLatest, type TestDatabase } from "../../../../tests/support/test-database.ts";
import { seedSampleData } from "../seed.ts";
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

it("builds the search index for the products a shop already has when it is migrated", async () => {
  await seedSampleData(database);
  await database.db.updateTable("products").set({ name: "Sansevieria" }).where("name", "=", "Snake Plant").execute();
  await migrateBesideOtherTests(() => migrateToLatest(database));

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
