import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SHOP_MAX_PAGES, SHOP_PAGE_SIZE } from "#common/shared/constants.ts";
import { createCategory, createProduct } from "../../../tests/support/factories.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database.ts";
import { createCatalogService, TOTAL_CAP, type CatalogService } from "./catalog.ts";
import { RANK_WINDOW } from "./search/ranked-search.ts";
import { InvalidInputError, NotFoundError } from "../../platform/errors.ts";
import { createRateLimiter } from "../../platform/rate-limit/rate-limit.ts";

const visitor = { clientIp: "192.0.2.1" };

let database: TestDatabase;
let catalog: CatalogService;

beforeEach(async () => {
  database = await createTestDatabase();
  catalog = createCatalogService(database.db, { rateLimiter: createRateLimiter(database.db) });
});
afterEach(async () => {
  await database.cleanup();
});

describe("listProducts", () => {
  it("pages oldest first and says whether more follow", async () => {
    const category = await createCategory(database.db);
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await createProduct(database.db, { category_id: category.id }));

    const first = await catalog.listProducts({ limit: "2" }, visitor);
    expect(first.items.map((p) => p.id)).toEqual([made[0]!.id, made[1]!.id]);
    expect(first).toMatchObject({ total: 5, limit: 2, offset: 0, hasMore: true });

    const last = await catalog.listProducts({ limit: "2", offset: "4" }, visitor);
    expect(last.items.map((p) => p.id)).toEqual([made[4]!.id]);
    expect(last).toMatchObject({ total: 5, hasMore: false });

    expect(await catalog.listProducts({ limit: "2", offset: "10" }, visitor)).toMatchObject({ items: [], total: 5, hasMore: false });
  });

  it("pages by offset through products made in the same instant exactly as one list: every product once, in order", async () => {
    const sameInstant = new Date().toISOString();
    for (let i = 0; i < 7; i++) await createProduct(database.db, { created_at: sameInstant });
    const whole = (await catalog.listProducts({ limit: "50" }, visitor)).items.map((p) => p.id);
    const paged = [];
    for (let offset = 0; offset < 7; offset += 3) paged.push(...(await catalog.listProducts({ limit: "3", offset: String(offset) }, visitor)).items.map((p) => p.id));
    expect(whole).toHaveLength(7);
    expect(paged).toEqual(whole);
  });

  it("searches names ignoring case, over all products", async () => {
    await createProduct(database.db, { name: "Boston Fern" });
    await createProduct(database.db, { name: "Bird's Nest FERN" });
    await createProduct(database.db, { name: "Rubber Plant" });
    const page = await catalog.listProducts({ q: "fern" }, visitor);
    expect(page.items.map((p) => p.name).sort()).toEqual(["Bird's Nest FERN", "Boston Fern"]);
    expect(page.total).toBe(2);
  });

  it("treats % and _ in a search as characters, never as patterns that match every product", async () => {
    await createProduct(database.db, { name: "Sale 50% Palm" });
    await createProduct(database.db, { name: "Snake Plant" });
    expect((await catalog.listProducts({ q: "%" }, visitor)).items).toEqual([]);
    expect((await catalog.listProducts({ q: "_" }, visitor)).items).toEqual([]);
    expect((await catalog.listProducts({ q: "50%" }, visitor)).items).toEqual([]);
  });

  it("pages by key: each nextCursor leads to the next products, the last page has none", async () => {
    const category = await createCategory(database.db);
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await createProduct(database.db, { category_id: category.id }));
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await catalog.listProducts({ limit: "2", ...(after ? { after } : {}) }, visitor);
      seen.push(...page.items.map((p) => p.id));
      if (!page.nextCursor) {
        expect(page.hasMore).toBe(false);
        break;
      }
      after = page.nextCursor;
    }
    expect(seen).toEqual(made.map((p) => p.id));
  });

  it("refuses a page cursor it did not hand out with a field error", async () => {
    for (const after of ["nonsense", Buffer.from('["not a date","x"]').toString("base64url"), "a.b"]) {
      await expect(catalog.listProducts({ after }, visitor), after).rejects.toMatchObject({ status: 400 });
    }
  });

  it(`counts at most ${TOTAL_CAP} products and says the total is capped beyond; a search counts only the ${RANK_WINDOW} it ranked`, async () => {
    const category = await createCategory(database.db);
    const at = Date.parse("2031-01-01T00:00:00Z");
    const rows = Array.from({ length: TOTAL_CAP + 1 }, (_, i) => ({
      id: randomUUID(),
      name: `Bulk plant ${i}`,
      description: "Many of them",
      price_paise: 100,
      stock: 1,
      category_id: category.id,
      created_at: new Date(at + i).toISOString(),
      updated_at: new Date(at + i).toISOString(),
    }));
    for (let i = 0; i < rows.length; i += 200) await database.db.insertInto("products").values(rows.slice(i, i + 200)).execute();
    expect(await catalog.listProducts({ limit: "12" }, visitor)).toMatchObject({ total: TOTAL_CAP, totalCapped: true, hasMore: true });
    // A search counts no further than it reads to rank the page: one window, and more beyond.
    expect(await catalog.listProducts({ q: "bulk" }, visitor)).toMatchObject({ total: RANK_WINDOW, totalCapped: true, hasMore: true });
  });

  it("filters by category and shows each product's first image", async () => {
    const herbs = await createCategory(database.db);
    const basil = await createProduct(database.db, { category_id: herbs.id, images: ["/a.svg", "/b.svg"] });
    await createProduct(database.db);
    const page = await catalog.listProducts({ categoryId: herbs.id }, visitor);
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ id: basil.id, image: { url: "/a.svg", width: 800, height: 800 } });
  });

  it("shows a product without images with none", async () => {
    await createProduct(database.db, { images: [] });
    expect((await catalog.listProducts({}, visitor)).items[0]?.image).toBeNull();
  });

  it("refuses limits above 50 and negative offsets with field errors", async () => {
    await expect(catalog.listProducts({ limit: "51" }, visitor)).rejects.toMatchObject({ status: 400, fieldErrors: { limit: expect.any(String) } });
    await expect(catalog.listProducts({ offset: "-1" }, visitor)).rejects.toBeInstanceOf(InvalidInputError);
    await expect(catalog.listProducts({ limit: "ten" }, visitor)).rejects.toBeInstanceOf(InvalidInputError);
  });
});

describe("listShopPages", () => {
  it("returns one page's twelve at a time: the second page holds the two after the first's twelve", async () => {
    const category = await createCategory(database.db);
    const made = [];
    for (let i = 0; i < 14; i++) made.push(await createProduct(database.db, { category_id: category.id }));
    const one = await catalog.listShopPages({}, visitor);
    expect(one.items.map((item) => item.id)).toEqual(made.slice(0, 12).map((product) => product.id));
    expect(one).toMatchObject({ page: 1, hasMore: true, total: 14 });
    const two = await catalog.listShopPages({ page: "2" }, visitor);
    expect(two.items.map((item) => item.id)).toEqual(made.slice(12).map((product) => product.id));
    expect(two).toMatchObject({ page: 2, hasMore: false });
  });

  it("returns a search's page by itself, after the previous page's matches", async () => {
    for (let i = 0; i < 14; i++) await createProduct(database.db, { name: `Pagedfern ${String(i).padStart(2, "0")}` });
    const one = await catalog.listShopPages({ q: "pagedfern" }, visitor);
    const two = await catalog.listShopPages({ q: "pagedfern", page: "2" }, visitor);
    expect(one.items).toHaveLength(12);
    expect(two).toMatchObject({ page: 2, hasMore: false, items: { length: 2 } });
    expect(new Set([...one.items, ...two.items].map((item) => item.name)).size).toBe(14);
  });

  it("falls back to the first page for a nonsense page number", async () => {
    expect((await catalog.listShopPages({ page: "abc" }, visitor)).page).toBe(1);
  });

  it("shows at most a hundred pages, the last of them without Load More", async () => {
    const category = await createCategory(database.db);
    const rows = Array.from({ length: SHOP_PAGE_SIZE * SHOP_MAX_PAGES + 1 }, (_, i) => ({
      id: randomUUID(),
      name: `Bulk plant ${i}`,
      description: "One of many",
      price_paise: 100,
      stock: 1,
      category_id: category.id,
      created_at: new Date(Date.UTC(2031, 0, 1) + i * 1000).toISOString(),
      updated_at: new Date(Date.UTC(2031, 0, 1)).toISOString(),
    }));
    for (let i = 0; i < rows.length; i += 500) await database.db.insertInto("products").values(rows.slice(i, i + 500)).execute();
    const last = await catalog.listShopPages({ page: String(SHOP_MAX_PAGES + 5) }, visitor);
    expect(last.page).toBe(SHOP_MAX_PAGES);
    // The hundredth page's own twelve, one plant still after them.
    expect(last.items.map((item) => item.name)).toEqual(rows.slice(SHOP_PAGE_SIZE * (SHOP_MAX_PAGES - 1), SHOP_PAGE_SIZE * SHOP_MAX_PAGES).map((row) => row.name));
    expect(last.hasMore).toBe(false);
    expect((await catalog.listShopPages({ page: String(SHOP_MAX_PAGES - 1) }, visitor)).hasMore).toBe(true);
  });

  it("refuses a search longer than the search box allows, saying so", async () => {
    await expect(catalog.listShopPages({ q: "f".repeat(101) }, visitor)).rejects.toMatchObject({ status: 400, message: "Search at most 100 characters" });
  });
});

describe("listNewestProducts", () => {
  it("shows the six newest, newest first", async () => {
    const made = [];
    for (let i = 0; i < 8; i++) made.push(await createProduct(database.db));
    const newest = await catalog.listNewestProducts();
    expect(newest.map((p) => p.id)).toEqual(made.slice(2).reverse().map((p) => p.id));
  });
});

describe("getProduct", () => {
  it("returns the product with its images in order and its category", async () => {
    const category = await createCategory(database.db, { name: "Ferns" });
    const product = await createProduct(database.db, { category_id: category.id, images: ["/1.svg", "/2.svg", "/3.svg"] });
    const detail = await catalog.getProduct({ productId: product.id });
    expect(detail.images.map((i) => i.url)).toEqual(["/1.svg", "/2.svg", "/3.svg"]);
    expect(detail.category).toEqual({ id: category.id, name: "Ferns" });
    expect(detail.pricePaise).toBe(product.price_paise);
  });

  it("answers 'Product not found' for an unknown id", async () => {
    await expect(catalog.getProduct({ productId: "missing" })).rejects.toThrow(NotFoundError);
    await expect(catalog.getProduct({ productId: "missing" })).rejects.toThrow("Product not found");
  });

  it("refuses an id that cannot name a record", async () => {
    await expect(catalog.getProduct({ productId: "../etc/passwd" })).rejects.toBeInstanceOf(InvalidInputError);
  });
});

describe("categories", () => {
  it("pages the categories by key, oldest first then by name, with a capped total", async () => {
    const at = "2026-02-01T00:00:00.000Z";
    // Two with the same time: the name orders them, and the key must not skip or repeat either.
    for (const name of ["Cacti", "Bonsai", "Aroids"]) await createCategory(database.db, { name, created_at: name === "Aroids" ? "2026-01-01T00:00:00.000Z" : at });
    const first = await catalog.listCategories({ limit: "2" });
    expect(first).toMatchObject({ total: 3, totalCapped: false, limit: 2, hasMore: true });
    expect(first.items.map((c) => c.name)).toEqual(["Aroids", "Bonsai"]);
    const second = await catalog.listCategories({ limit: "2", after: first.nextCursor });
    expect(second).toMatchObject({ hasMore: false, nextCursor: null });
    expect(second.items.map((c) => c.name)).toEqual(["Cacti"]);
  });

  it("refuses a made-up category cursor and a limit past the API's", async () => {
    await expect(catalog.listCategories({ after: "bm90LWpzb24" })).rejects.toBeInstanceOf(InvalidInputError);
    await expect(catalog.listCategories({ limit: "51" })).rejects.toBeInstanceOf(InvalidInputError);
  });

  it("lists categories and returns one with its products oldest first", async () => {
    const category = await createCategory(database.db, { name: "Palms" });
    const a = await createProduct(database.db, { category_id: category.id });
    const b = await createProduct(database.db, { category_id: category.id });
    await createProduct(database.db);
    expect((await catalog.listCategories()).items.map((c) => c.name)).toContain("Palms");
    const found = await catalog.getCategory({ categoryId: category.id });
    expect(found.name).toBe("Palms");
    expect(found.products.map((p) => p.id)).toEqual([a.id, b.id]);
  });

  it("answers 404 for an unknown category", async () => {
    await expect(catalog.getCategory({ categoryId: "nope" })).rejects.toMatchObject({ status: 404 });
  });
});

describe("category pages", () => {
  it("shows a category's products a page of twelve at a time, with hasMore until the last", async () => {
    const category = await createCategory(database.db);
    const made = [];
    for (let i = 0; i < SHOP_PAGE_SIZE + 3; i++) made.push(await createProduct(database.db, { category_id: category.id }));
    const first = await catalog.getCategory({ categoryId: category.id });
    expect(first.products.map((p) => p.id)).toEqual(made.slice(0, SHOP_PAGE_SIZE).map((p) => p.id));
    expect(first).toMatchObject({ page: 1, hasMore: true });
    const second = await catalog.getCategory({ categoryId: category.id, page: "2" });
    expect(second.products.map((p) => p.id)).toEqual(made.slice(SHOP_PAGE_SIZE).map((p) => p.id));
    expect(second).toMatchObject({ page: 2, hasMore: false });
  });

  it("pages the home page's categories twelve at a time", async () => {
    for (let i = 0; i < SHOP_PAGE_SIZE + 1; i++) await createCategory(database.db);
    expect(await catalog.listCategoryPages({})).toMatchObject({ page: 1, hasMore: true, items: { length: SHOP_PAGE_SIZE } });
    expect(await catalog.listCategoryPages({ page: "2" })).toMatchObject({ page: 2, hasMore: false, items: { length: 1 } });
  });
});

describe("listCategoryChoices", () => {
  it("offers categories by name up to the maximum asked, and says when there are more", async () => {
    for (const name of ["Succulents", "Ferns", "Palms"]) await createCategory(database.db, { name });
    expect(await catalog.listCategoryChoices(5)).toMatchObject({ items: [{ name: "Ferns" }, { name: "Palms" }, { name: "Succulents" }], more: false });
    const two = await catalog.listCategoryChoices(2);
    expect(two.items.map((c) => c.name)).toEqual(["Ferns", "Palms"]);
    expect(two.more).toBe(true);
  });
});
