import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCategory, createProduct } from "../../../tests/support/factories.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database.ts";
import { createLocalChangeFeed } from "../../platform/change-feed/change-feed.ts";
import { createSitemapService } from "./sitemaps.ts";

const ORIGIN = "https://shop.example";
// Files of 3 addresses stand in for the protocol's 50,000: the same code, a catalogue small enough for a test.
// Room in the pages file for its three fixed pages (home, shop, sale) and one category.
const URLS_PER_FILE = 5;

let database: TestDatabase;
beforeEach(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  await database.cleanup();
});

async function text(pieces: AsyncGenerator<string>): Promise<string> {
  let out = "";
  for await (const piece of pieces) out += piece;
  return out;
}

const locations = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1]!);

describe("sitemap index", () => {
  it("splits 7 products into files of at most 5, each product in exactly one file, oldest first", async () => {
    const category = await createCategory(database.db);
    const products = [];
    for (let i = 0; i < 7; i++) products.push(await createProduct(database.db, { category_id: category.id }));
    const sitemaps = createSitemapService(database.db, createLocalChangeFeed(), { urlsPerFile: URLS_PER_FILE });

    const index = await sitemaps.index(ORIGIN);
    expect(index).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<sitemapindex xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/);
    expect(locations(index)).toEqual([
      `${ORIGIN}/sitemaps/pages.xml`,
      `${ORIGIN}/sitemaps/products-1.xml`,
      `${ORIGIN}/sitemaps/products-2.xml`,
    ]);
    const files = await Promise.all([1, 2].map(async (n) => locations(await text(await sitemaps.productsFile(n, ORIGIN)))));
    expect(files.map((file) => file.length)).toEqual([5, 2]);
    expect(files.flat()).toEqual(products.map((p) => `${ORIGIN}/product/${p.id}`));
    await expect(sitemaps.productsFile(3, ORIGIN)).rejects.toMatchObject({ status: 404 });

    const pages = await text(sitemaps.pagesFile(ORIGIN));
    expect(locations(pages)).toEqual([`${ORIGIN}/`, `${ORIGIN}/shop`, `${ORIGIN}/sale`, `${ORIGIN}/plant-finder`, `${ORIGIN}/category/${category.id}`]);
  });

  it("never tags two services' layouts alike, as a restarted process or another process would count from the same start", async () => {
    await createProduct(database.db);
    const [before, after] = [1, 2].map(() => createSitemapService(database.db, createLocalChangeFeed(), { urlsPerFile: URLS_PER_FILE }));
    expect(await before!.etag()).not.toBe(await after!.etag());
  });

  it("keeps its layout until the change feed says the catalogue changed, then lists the new product", async () => {
    const changes = createLocalChangeFeed();
    const sitemaps = createSitemapService(database.db, changes, { urlsPerFile: URLS_PER_FILE });
    for (let i = 0; i < URLS_PER_FILE; i++) await createProduct(database.db);
    const etagBefore = await sitemaps.etag();
    expect(locations(await sitemaps.index(ORIGIN))).toHaveLength(2);

    const added = await createProduct(database.db);
    expect(locations(await sitemaps.index(ORIGIN)), "cached until a change is announced").toHaveLength(2);
    changes.publish(database.db, { type: "product", productId: added.id, aspects: ["stock"] });
    expect(locations(await sitemaps.index(ORIGIN)), "a stock change moves no address").toHaveLength(2);

    changes.publish(database.db, { type: "product", productId: added.id, aspects: ["details"] });
    expect(locations(await sitemaps.index(ORIGIN))).toHaveLength(3);
    expect(await sitemaps.etag()).not.toBe(etagBefore);
    expect(locations(await text(await sitemaps.productsFile(2, ORIGIN)))).toEqual([`${ORIGIN}/product/${added.id}`]);
  });
});
