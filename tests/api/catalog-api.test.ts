import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createProduct } from "../support/factories.ts";
import { createShopper } from "../support/shoppers.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

let app: TestApp;
beforeEach(async () => {
  app = await createTestApp();
});
afterEach(async () => {
  await app.cleanup();
});

describe("GET /api/products", () => {
  it("answers a page of products", async () => {
    const product = await createProduct(app.database.db, { name: "Calathea" });
    const response = await app.request("/api/products?limit=12");
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ total: 1, totalCapped: false, limit: 12, offset: 0, hasMore: false, nextCursor: null });
    expect(body.items[0]).toMatchObject({ id: product.id, name: "Calathea", pricePaise: product.price_paise });
  });

  it("searches with q and filters with categoryId", async () => {
    const fern = await createProduct(app.database.db, { name: "Maidenhair Fern" });
    await createProduct(app.database.db, { name: "Peace Lily" });
    expect((await (await app.request("/api/products?q=FERN")).json()).items).toHaveLength(1);
    const byCategory = await (await app.request(`/api/products?categoryId=${fern.category_id}`)).json();
    expect(byCategory.items.map((p: { id: string }) => p.id)).toEqual([fern.id]);
  });

  it.each([
    ["limit=51", "limit"],
    ["limit=0", "limit"],
    ["limit=abc", "limit"],
    ["offset=-3", "offset"],
    ["offset=1001", "offset"],
    [`q=${"x".repeat(101)}`, "q"],
    ["categoryId=%3Cscript%3E", "categoryId"],
  ])("answers 400 with a field error for %s", async (query, field) => {
    const response = await app.request(`/api/products?${query}`);
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(typeof body.message).toBe("string");
    expect(body.fieldErrors).toHaveProperty(field);
  });

  it("refuses an offset past 1,000 with a message that points to `after`, and serves one at 1,000", async () => {
    const refused = await app.request("/api/products?limit=12&offset=1001");
    expect(refused.status).toBe(400);
    expect((await refused.json()).fieldErrors.offset).toMatch(/after/);
    expect((await app.request("/api/products?limit=12&offset=1000")).status).toBe(200);
  });
});

describe("GET /api/products/{id}", () => {
  it("answers the product, or 404 with a message", async () => {
    const product = await createProduct(app.database.db);
    expect((await (await app.request(`/api/products/${product.id}`)).json()).id).toBe(product.id);
    const missing = await app.request("/api/products/does-not-exist");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: "Product not found" });
  });
});

describe("categories", () => {
  it("lists categories and answers one with its products", async () => {
    const product = await createProduct(app.database.db);
    const list = await (await app.request("/api/categories")).json();
    expect(list.items.map((c: { id: string }) => c.id)).toContain(product.category_id);
    const one = await (await app.request(`/api/categories/${product.category_id}`)).json();
    expect(one.products.map((p: { id: string }) => p.id)).toEqual([product.id]);
    expect((await app.request("/api/categories/unknown")).status).toBe(404);
  });

  it("pages categories by key: limit, then after=nextCursor, each category once; 400 for a limit past 50", async () => {
    await createProduct(app.database.db);
    await createProduct(app.database.db);
    const first = await (await app.request("/api/categories?limit=1")).json();
    expect(first).toMatchObject({ total: 2, totalCapped: false, limit: 1, hasMore: true });
    const second = await (await app.request(`/api/categories?limit=1&after=${first.nextCursor}`)).json();
    expect(second).toMatchObject({ hasMore: false, nextCursor: null });
    expect(new Set([...first.items, ...second.items].map((c: { id: string }) => c.id)).size).toBe(2);
    const refused = await app.request("/api/categories?limit=51");
    expect(refused.status).toBe(400);
    expect((await refused.json()).fieldErrors).toHaveProperty("limit");
  });
});

describe("anything else under /api", () => {
  it("answers 404 in JSON", async () => {
    const response = await app.request("/api/nothing-here");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect((await response.json()).message).toBeTruthy();
  });
});

describe("every response", () => {
  it("carries the security headers and a request id", async () => {
    const response = await app.request("/api/products");
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(response.headers.get("x-request-id")).toMatch(/^[\w-]{8,}$/);
  });

  it("gives the JSON API a policy that runs no script but the shop's own files, with no nonce", async () => {
    const policy = (await app.request("/api/products")).headers.get("content-security-policy");
    expect(policy).toContain("script-src 'self';");
    expect(policy).not.toContain("'nonce-");
  });

  it("answers health checks", async () => {
    expect((await app.request("/healthz")).status).toBe(200);
    expect(await (await app.request("/readyz")).text()).toBe("ok");
  });
});

describe("link preview pictures", () => {
  it("render an illustration as a 1200×630 PNG", async () => {
    const response = await app.request("/share/illustrations/hero-1.png");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    const { format, width, height } = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect({ format, width, height }).toEqual({ format: "png", width: 1200, height: 630 });
  });

  it("answer 404 for anything that is not one of the shop's illustrations", async () => {
    for (const path of ["/share/illustrations/no-such-picture.png", "/share/illustrations/%2e%2e/%2e%2e/package.png", "/share/media/x.png"]) {
      expect((await app.request(path)).status, path).toBe(404);
    }
  });
});

describe("sitemap and robots", () => {
  it("serves /sitemap.xml as an index whose files list the products and categories at the public address", async () => {
    const product = await createProduct(app.database.db);
    const sitemap = await app.request("/sitemap.xml");
    expect(sitemap.headers.get("content-type")).toContain("application/xml");
    const index = await sitemap.text();
    expect(index).toContain("<sitemapindex");
    expect(locations(index)).toEqual(["http://127.0.0.1:4999/sitemaps/pages.xml", "http://127.0.0.1:4999/sitemaps/products-1.xml"]);

    const pages = await (await app.request("/sitemaps/pages.xml")).text();
    expect(locations(pages)).toEqual(["http://127.0.0.1:4999/", "http://127.0.0.1:4999/shop", "http://127.0.0.1:4999/sale", "http://127.0.0.1:4999/plant-finder", `http://127.0.0.1:4999/category/${product.category_id}`]);
    const products = await app.request("/sitemaps/products-1.xml");
    expect(products.headers.get("content-type")).toContain("application/xml");
    expect(locations(await products.text())).toEqual([`http://127.0.0.1:4999/product/${product.id}`]);
    expect(await (await app.request("/robots.txt")).text()).toContain("Sitemap: http://127.0.0.1:4999/sitemap.xml");
  });

  it("answers 404 for a products file past the last, and 304 to a crawler that has the current index", async () => {
    await createProduct(app.database.db);
    expect((await app.request("/sitemaps/products-2.xml")).status).toBe(404);
    expect((await app.request("/sitemaps/products-0.xml")).status).toBe(404);
    const etag = (await app.request("/sitemap.xml")).headers.get("etag")!;
    expect((await app.request("/sitemap.xml", { headers: { "If-None-Match": etag } })).status).toBe(304);
  });

  it("answers a products file afresh every time, with no ETag to match: its lastmod moves with every stock change", async () => {
    const product = await createProduct(app.database.db, { stock: 5 });
    const admin = await createShopper(app.database.db, app.database.dialect, { isAdmin: true });
    const lastmod = async () => /<lastmod>([^<]+)<\/lastmod>/.exec(await (await app.request("/sitemaps/products-1.xml")).text())?.[1];
    const first = await app.request("/sitemaps/products-1.xml");
    expect(first.headers.get("etag")).toBeNull();
    const before = await lastmod();
    const indexTag = (await app.request("/sitemap.xml")).headers.get("etag")!;

    await new Promise((resolve) => setTimeout(resolve, 5)); // a later millisecond for updated_at
    await app.services.adminCatalog.setStock(admin, { productId: product.id }, { stock: 2 });
    expect(await lastmod()).not.toBe(before);
    const asked = await app.request("/sitemaps/products-1.xml", { headers: { "If-None-Match": indexTag } });
    expect(asked.status).toBe(200);
    expect((await app.request("/sitemap.xml", { headers: { "If-None-Match": indexTag } })).status, "a stock change moves no file of the index").toBe(304);
  });
});

describe("GET /api/products/suggestions", () => {
  it("suggests the names of matching products, typos forgiven, and nothing for an empty box", async () => {
    const product = await createProduct(app.database.db, { name: "Bougainvillea" });
    expect(await (await app.request("/api/products/suggestions?q=bougainvilla")).json()).toEqual({
      items: [{ id: product.id, name: "Bougainvillea" }],
    });
    expect(await (await app.request("/api/products/suggestions?q=")).json()).toEqual({ items: [] });
  });

  it("refuses a search longer than the box allows with a 400", async () => {
    expect((await app.request(`/api/products/suggestions?q=${"x".repeat(101)}`)).status).toBe(400);
  });
});

function locations(xml: string): string[] {
  return [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1]!);
}
