import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Insertable } from "kysely";
import { facetCell, FACET_OPTIONS, optionKey, type CountWithout, type FacetCount } from "#common/catalog/list-filters.ts";
import { createCategory, createProduct, setSelling } from "../../../tests/support/factories.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database.ts";
import type { DB } from "../../platform/db/schema.ts";
import { InvalidInputError } from "../../platform/errors.ts";
import { createRateLimiter } from "../../platform/rate-limit/rate-limit.ts";
import { createCatalogService, TOTAL_CAP, type CatalogService } from "./catalog.ts";

const visitor = { clientIp: "192.0.2.7" };

let database: TestDatabase;
let catalog: CatalogService;

beforeEach(async () => {
  database = await createTestDatabase();
  catalog = createCatalogService(database.db, { rateLimiter: createRateLimiter(database.db) });
});
afterEach(async () => {
  await database.cleanup();
});

const counts = (facets: FacetCount[]) => Object.fromEntries(facets.map((f) => [`${f.name}=${f.value}`, f.capped ? "1000+" : f.count]));

/** A small catalogue whose every care part is known, unknown, or 'both', with prices in rupees. */
async function plants() {
  const db = database.db;
  const category = await createCategory(db);
  const make = (name: string, fields: Partial<Insertable<DB["products"]>>) => createProduct(db, { name, category_id: category.id, ...fields });
  const snake = await make("Snake Plant", { care_light: "low", care_pet_safe: "no", care_difficulty: "beginner", care_place: "indoor", price_paise: 50_000 });
  const calathea = await make("Calathea", { care_light: "medium", care_pet_safe: "yes", care_difficulty: "intermediate", care_place: "indoor", price_paise: 120_000 });
  const fern = await make("Boston Fern", { care_light: "medium", care_pet_safe: "yes", care_difficulty: "beginner", care_place: "both", price_paise: 80_000 });
  const mystery = await make("Mystery Fern", { care_light: "low", care_pet_safe: null, care_difficulty: null, care_place: null, price_paise: 30_000 });
  const rose = await make("Rose", { care_light: "direct-sun", care_pet_safe: "yes", care_difficulty: "expert", care_place: "outdoor", price_paise: 200_000, stock: 0 });
  return { category, snake, calathea, fern, mystery, rose };
}

describe("the database's facet cell", () => {
  it("is the cell the filters compute for every profile, unknown parts and stock included", async () => {
    const { snake, calathea, fern, mystery, rose } = await plants();
    const rows = await database.db.selectFrom("products").select(["id", "care_cell", "care_light", "care_pet_safe", "care_difficulty", "care_place", "stock"]).execute();
    for (const row of rows) {
      expect(row.care_cell).toBe(facetCell({ light: row.care_light, petSafe: row.care_pet_safe, difficulty: row.care_difficulty, place: row.care_place, inStock: row.stock > 0 }));
    }
    expect(new Set(rows.map((row) => row.care_cell)).size).toBe([snake, calathea, fern, mystery, rose].length);
  });

  it("follows the stock as it is sold out and restocked, with no write of its own", async () => {
    const { snake } = await plants();
    const cell = async () => (await database.db.selectFrom("products").select("care_cell").where("id", "=", snake.id).executeTakeFirstOrThrow()).care_cell;
    const inStock = await cell();
    await setSelling(database.db, snake.id, { stock: 0 });
    expect(await cell()).toBe(inStock - 1);
    await setSelling(database.db, snake.id, { stock: 3 });
    expect(await cell()).toBe(inStock);
    await setSelling(database.db, snake.id, { stock: 1 });
    expect(await cell()).toBe(inStock);
  });

  it("follows a care edit and the review totals as well as the in-stock bit", async () => {
    const { snake } = await plants();
    const row = () => database.db.selectFrom("products").select(["care_cell", "care_light", "care_pet_safe", "care_difficulty", "care_place", "stock", "rating_average"]).where("id", "=", snake.id).executeTakeFirstOrThrow();
    await database.db.updateTable("products").set({ care_light: "direct-sun", care_place: "outdoor" }).where("id", "=", snake.id).execute();
    const edited = await row();
    expect(edited.care_cell).toBe(facetCell({ light: "direct-sun", petSafe: edited.care_pet_safe, difficulty: edited.care_difficulty, place: "outdoor", inStock: edited.stock > 0 }));
    await database.db.updateTable("products").set({ review_count: 2, rating_total: 9 }).where("id", "=", snake.id).execute();
    expect((await row()).rating_average).toBe(4.5);
  });
});

describe("filters on the shop's list", () => {
  it("filters by light and pet safety together; a plant whose safety is not known never counts as safe", async () => {
    const { calathea, fern } = await plants();
    const page = await catalog.listShopPages({ light: ["medium", "low"], pets: "safe" }, visitor);
    expect(page.items.map((p) => p.id)).toEqual([calathea.id, fern.id]);
    expect(page.total).toBe(2);
    // Each light's count keeps the other groups' choices (pet safe): the low-light mystery plant is not known safe.
    expect(counts(page.facets)).toMatchObject({ "light=low": 0, "light=medium": 2, "light=direct-sun": 1, "pets=safe": 2 });
    expect(page.filters).toMatchObject({ light: ["medium", "low"], petSafe: true });
  });

  it("counts every option of the unfiltered shop, 'both' plants under indoor and under outdoor", async () => {
    await plants();
    const page = await catalog.listShopPages({}, visitor);
    expect(counts(page.facets)).toEqual({
      "light=low": 2,
      "light=medium": 2,
      "light=bright-indirect": 0,
      "light=direct-sun": 1,
      "pets=safe": 3,
      "care=beginner": 2,
      "care=intermediate": 1,
      "care=expert": 1,
      "place=indoor": 3,
      "place=outdoor": 2,
      "stock=1": 4,
    });
    expect(page.facets.map(optionKey)).toEqual(FACET_OPTIONS.map(optionKey));
  });

  it("keeps 'both' plants in the indoor list and in the outdoor list", async () => {
    const { snake, calathea, fern, rose } = await plants();
    expect((await catalog.listShopPages({ place: "indoor" }, visitor)).items.map((p) => p.id)).toEqual([snake.id, calathea.id, fern.id]);
    expect((await catalog.listShopPages({ place: "outdoor" }, visitor)).items.map((p) => p.id)).toEqual([fern.id, rose.id]);
  });

  it("narrows by a price range in rupees, both ends included, and to what is in stock", async () => {
    const { snake, fern, calathea } = await plants();
    const page = await catalog.listShopPages({ min: "500", max: "1200", stock: "1" }, visitor);
    expect(page.items.map((p) => p.id)).toEqual([snake.id, calathea.id, fern.id]);
    expect(counts(page.facets)).toMatchObject({ "pets=safe": 2, "stock=1": 3, "care=beginner": 2 });
  });

  it("orders by price both ways, newest first, and best rated first with unrated plants last", async () => {
    const { snake, calathea, fern, mystery, rose } = await plants();
    const ids = async (sort: string) => (await catalog.listShopPages({ sort }, visitor)).items.map((p) => p.id);
    expect(await ids("price-asc")).toEqual([mystery.id, snake.id, fern.id, calathea.id, rose.id]);
    expect(await ids("price-desc")).toEqual([rose.id, calathea.id, fern.id, snake.id, mystery.id]);
    expect(await ids("newest")).toEqual([rose.id, mystery.id, fern.id, calathea.id, snake.id]);
    // The reviews module's totals on the product row, as its writes leave them.
    const rate = (id: string, count: number, total: number) => database.db.updateTable("products").set({ review_count: count, rating_total: total }).where("id", "=", id).execute();
    await rate(fern.id, 1, 4);
    await rate(snake.id, 1, 5);
    await rate(calathea.id, 2, 8);
    const rated = await ids("rating");
    expect(rated.slice(0, 3)).toEqual([snake.id, calathea.id, fern.id]);
    expect(new Set(rated.slice(3))).toEqual(new Set([mystery.id, rose.id]));
  });

  it("leaves out what a page's address asks that the shop has no filter for, and turns a backwards price range round", async () => {
    const { snake, calathea, fern } = await plants();
    const page = await catalog.listShopPages({ light: ["dark", "low"], pets: "maybe", sort: "cheapest", min: "1200", max: "500", place: "moon" }, visitor);
    expect(page.filters).toMatchObject({ light: ["low"], petSafe: false, sort: undefined, minRupees: 500, maxRupees: 1200, place: undefined });
    expect(page.items.map((p) => p.id)).toEqual([snake.id]);
    expect((await catalog.listShopPages({ min: "abc" }, visitor)).items.map((p) => p.id)).toContain(calathea.id);
    expect((await catalog.listShopPages({ care: "beginner" }, visitor)).items.map((p) => p.id)).toEqual([snake.id, fern.id]);
  });

  it("filters and orders a category's page and counts within the category alone", async () => {
    const { category, fern, calathea } = await plants();
    await createProduct(database.db, { care_light: "medium", care_pet_safe: "yes" }); // another category
    const page = await catalog.getFilteredCategory(category.id, { light: "medium", sort: "price-desc" });
    expect(page.products.map((p) => p.id)).toEqual([calathea.id, fern.id]);
    expect(counts(page.facets)).toMatchObject({ "light=medium": 2, "pets=safe": 2 });
  });

  it("filters /sale within what is on sale now, keeping its own orders", async () => {
    const { fern, calathea, snake } = await plants();
    for (const p of [fern, calathea, snake]) await setSelling(database.db, p.id, { compare_at_paise: p.price_paise * 2 });
    const page = await catalog.listSalePages({ pets: "safe", sort: "price-asc" });
    expect(page.items.map((p) => p.id)).toEqual([fern.id, calathea.id]);
    expect(counts(page.facets)).toMatchObject({ "pets=safe": 2, "light=low": 0, "light=medium": 2 });
  });

  it("filters, orders and counts among a search's matches", async () => {
    const { fern, mystery } = await plants();
    const page = await catalog.listShopPages({ q: "fern", sort: "price-desc" }, visitor);
    expect(page.items.map((p) => p.id)).toEqual([fern.id, mystery.id]);
    expect(counts(page.facets)).toMatchObject({ "light=low": 1, "light=medium": 1, "pets=safe": 1 });
    const safe = await catalog.listShopPages({ q: "fern", pets: "safe" }, visitor);
    expect(safe.items.map((p) => p.id)).toEqual([fern.id]);
  });

  it("keeps the search's best-first order among a search's filtered matches when no order is chosen", async () => {
    const { category, fern } = await plants();
    // Older than Boston Fern's newer namesake below but with the word only in its description: ranked after names.
    const mentions = await createProduct(database.db, { name: "Maidenhair", description: "A fern for a shaded bathroom.", category_id: category.id, care_light: "medium", created_at: "2000-01-01T00:00:00.000Z" });
    const named = await createProduct(database.db, { name: "Fern", category_id: category.id, care_light: "medium" });
    const page = await catalog.listShopPages({ q: "fern", light: "medium" }, visitor);
    expect(page.items.map((p) => p.id)).toEqual([named.id, fern.id, mentions.id]);
    const api = await catalog.listProducts({ q: "fern", light: "medium" }, visitor);
    expect(api.items.map((p) => p.id)).toEqual([named.id, fern.id, mentions.id]);
  });
});

describe("a list its filters leave empty", () => {
  const nearest = (page: { nearest: CountWithout[] }) => page.nearest.map(({ group, count, capped }) => `${group}:${count}${capped ? "+" : ""}`);

  it("counts how many plants each chosen filter's removal would leave, in the whole shop and in a category, a price range included", async () => {
    const { category } = await plants();
    // Low light and safe for pets: none of the five. Without the light: the three safe plants; without pets: the two low-light ones.
    expect(nearest(await catalog.listShopPages({ light: "low", pets: "safe" }, visitor))).toEqual(["light:3", "pets:2"]);
    expect(nearest(await catalog.getFilteredCategory(category.id, { light: "low", pets: "safe" }))).toEqual(["light:3", "pets:2"]);
    // With ₹400 to ₹900 as well: Boston Fern (₹800) is safe, Snake Plant (₹500) is low light; without the range, still none.
    const priced = { light: "low", pets: "safe", min: "400", max: "900" };
    expect(nearest(await catalog.listShopPages(priced, visitor))).toEqual(["light:1", "pets:1", "price:0"]);
    expect(nearest(await catalog.getFilteredCategory(category.id, priced))).toEqual(["light:1", "pets:1", "price:0"]);
  });

  it("counts nothing for a list that shows plants, or for an empty one no filter narrows", async () => {
    await plants();
    expect((await catalog.listShopPages({ light: "low" }, visitor)).nearest).toEqual([]);
    expect((await catalog.listShopPages({ q: "xylophone", sort: "price-asc" }, visitor)).nearest).toEqual([]);
  });

  it("counts within what is on sale on /sale, and among the matches of a search", async () => {
    const { fern, calathea, snake } = await plants();
    for (const p of [fern, calathea, snake]) await setSelling(database.db, p.id, { compare_at_paise: p.price_paise * 2 });
    expect(nearest(await catalog.listSalePages({ light: "low", pets: "safe" }))).toEqual(["light:2", "pets:1"]);
    // 'fern' matches Boston Fern (medium light) and Mystery Fern (low light): neither likes direct sun.
    expect(nearest(await catalog.listShopPages({ q: "fern", light: "direct-sun", stock: "1" }, visitor))).toEqual(["light:2", "stock:0"]);
  });
});

describe("GET /api/products's filters", () => {
  it("takes the same filters and orders as the pages", async () => {
    const { fern, calathea } = await plants();
    const page = await catalog.listProducts({ light: ["medium"], pets: "safe", sort: "price-asc", limit: "1" }, visitor);
    expect(page.items.map((p) => p.id)).toEqual([fern.id]);
    expect(page).toMatchObject({ total: 2, hasMore: true, nextCursor: null });
    expect((await catalog.listProducts({ light: "medium", sort: "price-asc", limit: "1", offset: "1" }, visitor)).items.map((p) => p.id)).toEqual([calathea.id]);
  });

  it("pages the default order of a filtered list by cursor", async () => {
    const { calathea, fern } = await plants();
    const first = await catalog.listProducts({ pets: "safe", stock: "1", limit: "1" }, visitor);
    expect(first.items.map((p) => p.id)).toEqual([calathea.id]);
    const second = await catalog.listProducts({ pets: "safe", stock: "1", limit: "1", after: first.nextCursor! }, visitor);
    expect(second.items.map((p) => p.id)).toEqual([fern.id]);
    expect(second.hasMore).toBe(false);
  });

  it.each([
    [{ light: "dark" }, "light is one of: low, medium, bright-indirect, direct-sun"],
    [{ pets: "maybe" }, "pets is safe"],
    [{ place: "both" }, "place is one of: indoor, outdoor"],
    [{ sort: "cheapest" }, "sort is one of: newest, price-asc, price-desc, rating"],
    [{ min: "ten" }, "min is a whole number of rupees"],
    [{ min: "2000", max: "500" }, "min is at most max"],
    [{ sort: "newest", after: "abc" }, "`after` pages the default order: with sort, page with offset"],
  ])("refuses %o with a message saying what is allowed", async (input, message) => {
    const refused = catalog.listProducts(input, visitor);
    await expect(refused).rejects.toBeInstanceOf(InvalidInputError);
    await expect(refused).rejects.toMatchObject({ status: 400 });
    await expect(refused.catch((error: InvalidInputError) => JSON.stringify(error.fieldErrors))).resolves.toContain(message);
  });
});

describe("past the count's cap", () => {
  it(`counts up to ${TOTAL_CAP} and says more, and reads a long list in its order page by page`, async () => {
    const category = await createCategory(database.db);
    const rows: Insertable<DB["products"]>[] = [];
    const at = Date.parse("2026-01-01T00:00:00Z");
    for (let i = 0; i < TOTAL_CAP + 30; i++) {
      const when = new Date(at + i * 1000).toISOString();
      rows.push({
        id: `many-${String(i).padStart(5, "0")}`,
        name: `Many ${i}`,
        description: "One of many",
        price_paise: 10_000 + ((i * 7919) % 997) * 100,
        stock: 1,
        category_id: category.id,
        created_at: when,
        updated_at: when,
        care_light: i % 2 ? "low" : "medium",
        care_pet_safe: "yes",
      });
    }
    for (let start = 0; start < rows.length; start += 200) await database.db.insertInto("products").values(rows.slice(start, start + 200)).execute();
    const page = await catalog.listShopPages({ pets: "safe", sort: "price-asc", page: "2" }, visitor);
    expect(page.totalCapped).toBe(true);
    expect(counts(page.facets)).toMatchObject({ "pets=safe": "1000+", "light=low": 515, "light=medium": 515 });
    const expected = [...rows].sort((a, b) => a.price_paise - b.price_paise || (a.id! < b.id! ? -1 : 1)).slice(12, 24).map((r) => r.id);
    expect(page.items.map((p) => p.id)).toEqual(expected);
    const low = await catalog.listShopPages({ light: "low", sort: "price-desc" }, visitor);
    expect(low).toMatchObject({ total: 515, totalCapped: false });
    const lowExpected = rows.filter((r) => r.care_light === "low").sort((a, b) => b.price_paise - a.price_paise || (a.id! < b.id! ? 1 : -1)).slice(0, 12).map((r) => r.id);
    expect(low.items.map((p) => p.id)).toEqual(lowExpected);
  });

  it("counts a price range exactly, whether its ends are price marks or fall between them, with the prices at its ends included", async () => {
    const category = await createCategory(database.db);
    const other = await createCategory(database.db);
    const rows: Insertable<DB["products"]>[] = [];
    for (let i = 0; i < TOTAL_CAP + 30; i++) {
      // Every whole rupee from ₹100 to ₹1,096 about once, so each mark's own price is held by a plant.
      rows.push({ id: `priced-${i}`, name: `Priced ${i}`, description: "Priced", price_paise: 10_000 + ((i * 7919) % 997) * 100, stock: i % 5 ? 1 : 0, category_id: i % 10 ? category.id : other.id, care_light: i % 2 ? "low" : "medium", care_pet_safe: "yes", created_at: "2026-01-01T00:00:00.000Z", updated_at: "2026-01-01T00:00:00.000Z" });
    }
    for (let start = 0; start < rows.length; start += 200) await database.db.insertInto("products").values(rows.slice(start, start + 200)).execute();
    const shown = (n: number) => (n > TOTAL_CAP ? "1000+" : n);
    const ranges: [string | undefined, string | undefined][] = [
      ["300", "500"], // both ends marks
      ["333", "777"], // both ends between marks
      ["301", "399"], // inside one band
      ["250", "250"], // a mark's price alone
      ["100", undefined], // from the first mark up, past the cap
      [undefined, "1001"], // up to just past a mark
      ["1097", undefined], // nothing
    ];
    for (const light of [undefined, "low"] as const)
      for (const [min, max] of ranges) {
        const inRange = rows.filter((r) => r.price_paise >= Number(min ?? 0) * 100 && r.price_paise <= (max === undefined ? Infinity : Number(max) * 100));
        const listed = light ? inRange.filter((r) => r.care_light === light) : inRange;
        const page = await catalog.listShopPages({ min, max, light }, visitor);
        const label = `light=${light} min=${min} max=${max}`;
        expect({ total: page.total, capped: page.totalCapped }, label).toEqual({ total: Math.min(listed.length, TOTAL_CAP), capped: listed.length > TOTAL_CAP });
        expect(counts(page.facets), label).toEqual({
          "light=low": shown(inRange.filter((r) => r.care_light === "low").length),
          "light=medium": shown(inRange.filter((r) => r.care_light === "medium").length),
          "light=bright-indirect": 0,
          "light=direct-sun": 0,
          "pets=safe": shown(listed.length),
          "care=beginner": 0,
          "care=intermediate": 0,
          "care=expert": 0,
          "place=indoor": 0,
          "place=outdoor": 0,
          "stock=1": shown(listed.filter((r) => r.stock! > 0).length),
        });
        const inCategory = await catalog.getFilteredCategory(category.id, { min, max, light, stock: "1" });
        const listedInCategory = listed.filter((r) => r.category_id === category.id && r.stock! > 0);
        expect(inCategory.total, `${label} in the category, in stock`).toBe(Math.min(listedInCategory.length, TOTAL_CAP));
        expect(counts(inCategory.facets)["light=low"], `${label} in the category, in stock`).toBe(
          shown(inRange.filter((r) => r.category_id === category.id && r.stock! > 0 && r.care_light === "low").length),
        );
      }
  });
});
