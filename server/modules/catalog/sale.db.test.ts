import { Hono } from "hono";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { adminMessages } from "#common/admin/admin-messages.ts";
import { createProduct } from "../../../tests/support/factories.ts";
import { createShopper } from "../../../tests/support/shoppers.ts";
import { createTestDatabase, dialectUnderTest, type TestDatabase } from "../../../tests/support/test-database.ts";
import { createLocalChangeFeed, type Change } from "../../platform/change-feed/change-feed.ts";
import { setTestClock, shopClock } from "../../platform/clock.ts";
import { InvalidInputError } from "../../platform/errors.ts";
import { createCacheRules } from "../../platform/http/cache-rules.ts";
import type { PlatformEnv } from "../../platform/http/http-env.ts";
import { anonymousPageCache } from "../../platform/http/page-cache.ts";
import { createRateLimiter } from "../../platform/rate-limit/rate-limit.ts";
import type { SessionUser } from "../../platform/session-user.ts";
import { createCatalogEditingService, createCatalogService, registerCatalogCacheRules, watchSaleBoundaries, type CatalogImages, type SaleBoundaries } from "./index.ts";

const m = adminMessages.productForm;
const NOW = Date.parse("2026-12-01T06:00:00.000Z");
const iso = (ms: number) => new Date(ms).toISOString();
const HOUR = 3_600_000;

const noImages: CatalogImages = {
  async fromUpload() {
    throw new Error("no uploads in these tests");
  },
  async removeUpload() {},
  async remove() {},
};

let database: TestDatabase;
let watcher: SaleBoundaries | undefined;
beforeEach(async () => {
  database = await createTestDatabase();
  // The shop's clock, which the tests move (the same one the server's test clock moves).
  setTestClock(NOW);
});
afterEach(async () => {
  watcher?.close();
  watcher = undefined;
  setTestClock(Date.now());
  await database.cleanup();
});

const catalog = () => createCatalogService(database.db, { rateLimiter: createRateLimiter(database.db) });
const names = (page: { items: { name: string }[] }) => page.items.map((item) => item.name);

describe(`the /sale list (${dialectUnderTest})`, () => {
  it("lists only products with a compare-at price above their price whose window holds now, each with its price and saving", async () => {
    await createProduct(database.db, { name: "Full price" });
    await createProduct(database.db, { name: "No window", price_paise: 75_000, compare_at_paise: 100_000 });
    await createProduct(database.db, { name: "Inside window", price_paise: 50_000, compare_at_paise: 100_000, sale_starts_at: iso(NOW - HOUR), sale_ends_at: iso(NOW + HOUR) });
    await createProduct(database.db, { name: "Not yet", price_paise: 50_000, compare_at_paise: 100_000, sale_starts_at: iso(NOW + HOUR) });
    await createProduct(database.db, { name: "Over", price_paise: 50_000, compare_at_paise: 100_000, sale_ends_at: iso(NOW) });
    await createProduct(database.db, { name: "Compare-at below", price_paise: 50_000, compare_at_paise: 40_000 });
    const page = await catalog().listSalePages({});
    expect(names(page).sort()).toEqual(["Inside window", "No window"]);
    const noWindow = page.items.find((item) => item.name === "No window")!;
    expect({ price: noWindow.pricePaise, sale: noWindow.sale }).toEqual({ price: 75_000, sale: { regularPaise: 100_000, savingPaise: 25_000, savingPercent: 25 } });
  });

  it("charges the compare-at price, with no sale shown, for a product outside its window in the shop's lists", async () => {
    const product = await createProduct(database.db, { name: "Not yet", price_paise: 50_000, compare_at_paise: 100_000, sale_starts_at: iso(NOW + HOUR) });
    const { items } = await catalog().listShopPages({}, { clientIp: "127.0.0.1" });
    expect(items.find((item) => item.id === product.id)).toMatchObject({ pricePaise: 100_000, sale: null });
    expect(await catalog().getProduct({ productId: product.id })).toMatchObject({ pricePaise: 100_000, sale: null });
  });

  it("shows 12 a page newest first, each page its own, and says when there are more", async () => {
    for (let i = 0; i < 14; i++) await createProduct(database.db, { name: `Sale ${String(i).padStart(2, "0")}`, price_paise: 10_000, compare_at_paise: 20_000 });
    await createProduct(database.db, { name: "Full price" });
    const first = await catalog().listSalePages({});
    expect(names(first)).toEqual(Array.from({ length: 12 }, (_, i) => `Sale ${String(13 - i).padStart(2, "0")}`));
    expect(first.hasMore).toBe(true);
    const second = await catalog().listSalePages({ page: "2" });
    expect(names(second)).toEqual(["Sale 01", "Sale 00"]);
    expect(second.hasMore).toBe(false);
  });

  it("sorts by price both ways and by the biggest saving, and reads an unknown sort as newest", async () => {
    await createProduct(database.db, { name: "Cheap small saving", price_paise: 9_000, compare_at_paise: 10_000 });
    await createProduct(database.db, { name: "Dear half off", price_paise: 50_000, compare_at_paise: 100_000 });
    await createProduct(database.db, { name: "Middle quarter off", price_paise: 30_000, compare_at_paise: 40_000 });
    expect(names(await catalog().listSalePages({ sort: "price-asc" }))).toEqual(["Cheap small saving", "Middle quarter off", "Dear half off"]);
    expect(names(await catalog().listSalePages({ sort: "price-desc" }))).toEqual(["Dear half off", "Middle quarter off", "Cheap small saving"]);
    expect(names(await catalog().listSalePages({ sort: "saving" }))).toEqual(["Dear half off", "Middle quarter off", "Cheap small saving"]);
    const unknown = await catalog().listSalePages({ sort: "drop table" });
    expect({ sort: unknown.sort, names: names(unknown) }).toEqual({ sort: "newest", names: ["Middle quarter off", "Dear half off", "Cheap small saving"] });
  });

  it("says there is nothing on sale with an empty list, not an error", async () => {
    await createProduct(database.db, { name: "Full price" });
    expect(await catalog().listSalePages({})).toMatchObject({ items: [], hasMore: false, page: 1, sort: "newest" });
  });
});

describe(`the product form's sale fields (${dialectUnderTest})`, () => {
  let admin: SessionUser;
  const form = (overrides: Record<string, unknown>) => ({ name: "Sale fern", description: "Feathery.", price: "750", stock: "3", category: "Ferns", images: [], ...overrides });
  const editing = () => createCatalogEditingService({ database, changes: createLocalChangeFeed(), images: noImages, timeZone: "Asia/Kolkata" });
  const refusal = async (overrides: Record<string, unknown>) => {
    const product = await createProduct(database.db);
    const error = await editing()
      .updateProduct(admin, { productId: product.id }, form({ category: (await database.db.selectFrom("categories").select("name").executeTakeFirstOrThrow()).name, ...overrides }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInputError);
    return (error as InvalidInputError).fieldErrors;
  };
  beforeEach(async () => {
    admin = await createShopper(database.db, dialectUnderTest, { isAdmin: true });
  });

  it("refuses a compare-at price that is not above the price, or not an amount, with the price field's kind of message", async () => {
    expect(await refusal({ compareAt: "750" })).toMatchObject({ compareAt: m.compareAtNotAbove });
    expect(await refusal({ compareAt: "10,00" })).toMatchObject({ compareAt: m.compareAtInvalid });
  });

  it("refuses a window without a compare-at price, an end not after the start, and a time that is none", async () => {
    expect(await refusal({ saleStartsAt: "2026-12-01T09:00" })).toMatchObject({ compareAt: m.saleWithoutCompareAt });
    expect(await refusal({ compareAt: "1000", saleStartsAt: "2026-12-01T09:00", saleEndsAt: "2026-12-01T09:00" })).toMatchObject({ saleEndsAt: m.saleEndsBeforeStart });
    expect(await refusal({ compareAt: "1000", saleStartsAt: "2026-12-01T09:00", saleEndsAt: "2026-12-01T03:00:00Z" })).toMatchObject({ saleEndsAt: m.saleEndsBeforeStart });
    expect(await refusal({ compareAt: "1000", saleEndsAt: "2026-02-30T09:00" })).toMatchObject({ saleEndsAt: m.saleTimeInvalid });
    expect(await refusal({ compareAt: "1000", saleEndsAt: "tomorrow" })).toMatchObject({ saleEndsAt: m.saleTimeInvalid });
  });

  it("stores the window typed in the shop's time zone as instants, gives it back as typed, and clears it when emptied", async () => {
    const product = await createProduct(database.db);
    const category = (await database.db.selectFrom("categories").select("name").executeTakeFirstOrThrow()).name;
    await editing().updateProduct(admin, { productId: product.id }, form({ category, compareAt: "1,000", saleStartsAt: "2026-12-01T09:00", saleEndsAt: "2026-12-08T21:30" }));
    const row = await database.db.selectFrom("products").select(["compare_at_paise", "sale_starts_at", "sale_ends_at"]).where("id", "=", product.id).executeTakeFirstOrThrow();
    expect({ compareAt: row.compare_at_paise, starts: new Date(row.sale_starts_at!).toISOString(), ends: new Date(row.sale_ends_at!).toISOString() }).toEqual({
      compareAt: 100_000,
      starts: "2026-12-01T03:30:00.000Z",
      ends: "2026-12-08T16:00:00.000Z",
    });
    expect(await editing().getProductForEdit(admin, { productId: product.id })).toMatchObject({ compareAtPaise: 100_000, saleStartsAt: "2026-12-01T09:00", saleEndsAt: "2026-12-08T21:30" });
    await editing().updateProduct(admin, { productId: product.id }, form({ category, compareAt: "", saleStartsAt: "", saleEndsAt: "" }));
    expect(await editing().getProductForEdit(admin, { productId: product.id })).toMatchObject({ compareAtPaise: null, saleStartsAt: null, saleEndsAt: null });
  });
});

describe(`a sale window's end (${dialectUnderTest})`, () => {
  it("publishes a change of the product when its window ends, with no catalogue edit, and none for another product", async () => {
    const ending = await createProduct(database.db, { price_paise: 50_000, compare_at_paise: 100_000, sale_ends_at: iso(NOW + HOUR) });
    await createProduct(database.db, { price_paise: 50_000, compare_at_paise: 100_000, sale_ends_at: iso(NOW + 2 * HOUR) });
    const changes = createLocalChangeFeed();
    const published: Change[] = [];
    changes.subscribe((change) => published.push(change));
    watcher = watchSaleBoundaries({ db: database.db, changes });
    await watcher.check();
    expect(published).toEqual([]);
    setTestClock(NOW + HOUR);
    await watcher.check();
    expect(published).toEqual([{ type: "product", productId: ending.id, aspects: ["details"] }]);
  });

  it("makes a cached /sale page again when a window ends, so the page no longer shows the product past its end", async () => {
    await createProduct(database.db, { name: "Ending fern", price_paise: 50_000, compare_at_paise: 100_000, sale_ends_at: iso(NOW + HOUR) });
    const changes = createLocalChangeFeed();
    const rules = createCacheRules();
    registerCatalogCacheRules(rules);
    const app = new Hono<PlatformEnv>();
    app.use(anonymousPageCache({ ttlMs: 24 * HOUR, maxBytes: 1024 * 1024, rules, changes, now: () => shopClock.now() }));
    const service = catalog();
    app.get("/sale", async (c) => c.html(`<ul>${(await service.listSalePages({})).items.map((item) => `<li>${item.name}</li>`).join("")}</ul>`));
    watcher = watchSaleBoundaries({ db: database.db, changes });
    await watcher.check();

    const before = await app.request("/sale");
    expect(await before.text()).toContain("Ending fern");
    expect((await app.request("/sale")).headers.get("x-page-cache")).toBe("hit");

    setTestClock(NOW + HOUR);
    await watcher.check();
    const after = await app.request("/sale");
    expect(after.headers.get("x-page-cache")).not.toBe("hit");
    expect(await after.text()).not.toContain("Ending fern");
  });
});
