import { createHash } from "node:crypto";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import type { PageHandler } from "../../server/pages.ts";
import { createProduct } from "../support/factories.ts";
import { createShopper } from "../support/shoppers.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

let app: TestApp;
let renders = 0;

// Stands in for React Router: a page that shows its render count and carries the response's nonce.
const pages: PageHandler = async (c) => {
  renders++;
  const nonce = c.get("secureHeadersNonce") ?? "";
  const status = c.req.path === "/missing" ? 404 : 200;
  const headers: Record<string, string> = { "Content-Type": "text/html; charset=utf-8" };
  if (c.req.path === "/sets-cookie") headers["Set-Cookie"] = "a=b";
  return new Response(`<p>render ${renders}</p><script nonce="${nonce}">1</script><script nonce="${nonce}">2</script>`, { status, headers });
};

async function page(path: string, headers: Record<string, string> = {}) {
  const response = await app.request(path, { headers });
  const body = await response.text();
  const csp = response.headers.get("content-security-policy") ?? "";
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  return { response, body, nonce };
}

afterEach(async () => {
  await app.cleanup();
  renders = 0;
});

describe("the anonymous page cache", () => {
  it("renders a page once for visitors without cookies; its policy names its inline scripts by hash, never a nonce, when stored and replayed", async () => {
    app = await createTestApp({ PAGE_CACHE_SECONDS: "60" }, { handler: pages });
    const first = await page("/shop");
    const second = await page("/shop");
    expect(first.body).toContain("render 1");
    expect(second.body).toContain("render 1");
    expect(second.response.headers.get("x-page-cache")).toBe("hit");
    const hashes = ["1", "2"].map((script) => `'sha256-${createHash("sha256").update(script).digest("base64")}'`).join(" ");
    for (const answer of [first, second]) {
      expect(answer.nonce).toBeUndefined();
      expect(answer.response.headers.get("content-security-policy")).toContain(`script-src 'self' ${hashes};`);
    }
    // A visitor with cookies gets a page of their own, under a nonce of its own.
    const own = await page("/shop", { Cookie: "session=x" });
    expect(own.nonce).toBeTruthy();
    expect(own.body).toContain(`nonce="${own.nonce}"`);
    expect((await page("/shop?q=fern")).body).toContain("render 3");
  });

  it("never serves the cache to a request with cookies, nor caches errors or responses that set cookies", async () => {
    app = await createTestApp({ PAGE_CACHE_SECONDS: "60" }, { handler: pages });
    await page("/");
    expect((await page("/", { Cookie: "session=x" })).body).toContain("render 2");
    await page("/missing");
    expect((await page("/missing")).body).toContain("render 4");
    await page("/sets-cookie");
    expect((await page("/sets-cookie")).body).toContain("render 6");
  });

  it("is off with PAGE_CACHE_SECONDS=0", async () => {
    app = await createTestApp({ PAGE_CACHE_SECONDS: "0" }, { handler: pages });
    await page("/");
    expect((await page("/")).body).toContain("render 2");
  });

  it("drops a product's cached page and page data as soon as the change feed says it changed, and only that product's", async () => {
    app = await createTestApp({ PAGE_CACHE_SECONDS: "60" }, { handler: pages });
    const [changed, unchanged] = ["/product/p-1", "/product/p-2"];
    await page(changed);
    await page(`${changed}.data`);
    await page(unchanged);
    expect((await page(changed)).response.headers.get("x-page-cache")).toBe("hit");

    app.infrastructure.changes.publish(app.database.db, { type: "product", productId: "p-1", aspects: ["details"] });
    expect((await page(changed)).body).toContain("render 4");
    expect((await page(`${changed}.data`)).body).toContain("render 5");
    expect((await page(unchanged)).response.headers.get("x-page-cache")).toBe("hit");
  });

  it("drops a person's cached profile page and its data when their profile changes, and nothing else; a product change leaves it", async () => {
    app = await createTestApp({ PAGE_CACHE_SECONDS: "60" }, { handler: pages });
    for (const path of ["/profile/u-1", "/profile/u-1.data", "/profile/u-2", "/shop"]) await page(path);
    app.infrastructure.changes.publish(app.database.db, { type: "product", productId: "p-1", aspects: ["details"] });
    expect((await page("/profile/u-1")).response.headers.get("x-page-cache")).toBe("hit");
    expect((await page("/shop")).body, "a product change drops the lists").toContain("render 5");

    app.infrastructure.changes.publish(app.database.db, { type: "profile", userId: "u-1" });
    expect((await page("/profile/u-1")).body).toContain("render 6");
    expect((await page("/profile/u-1.data")).body).toContain("render 7");
    expect((await page("/profile/u-2")).response.headers.get("x-page-cache")).toBe("hit");
    expect((await page("/shop")).response.headers.get("x-page-cache")).toBe("hit");
  });

  it("drops a person's profile page when they change their location or picture through the profile service", async () => {
    app = await createTestApp({ PAGE_CACHE_SECONDS: "60" }, { handler: pages });
    const shopper = await createShopper(app.database.db, app.database.dialect);
    const profilePage = `/profile/${shopper.id}`;
    await page(profilePage);
    expect((await page(profilePage)).response.headers.get("x-page-cache")).toBe("hit");

    const form = { name: shopper.name, username: "asha.k", phone: "+91 98765 43210", address: "12 Garden Road", location: "Pune" };
    await app.services.profiles.updateProfile(shopper, shopper.id, form);
    expect((await page(profilePage)).response.headers.get("x-page-cache")).toBeNull();
    expect((await page(profilePage)).response.headers.get("x-page-cache")).toBe("hit");

    const picture = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#2a7" } }).png().toBuffer();
    await app.services.profiles.setPicture(shopper, shopper.id, new Uint8Array(picture));
    expect((await page(profilePage)).response.headers.get("x-page-cache")).toBeNull();
  });

  it("drops every cached page when the feed may have missed changes (resync)", async () => {
    app = await createTestApp({ PAGE_CACHE_SECONDS: "60" }, { handler: pages });
    await page("/shop");
    await page("/product/p-1");
    app.infrastructure.changes.publish(app.database.db, { type: "resync" });
    expect((await page("/shop")).body).toContain("render 3");
    expect((await page("/product/p-1")).body).toContain("render 4");
  });

  it("does not keep a product page whose render began before the product changed", async () => {
    let publishDuringRender = true;
    const slowPages: PageHandler = async (c, given) => {
      // The change commits while this render is under way: what it read may be from before it.
      if (publishDuringRender) app.infrastructure.changes.publish(app.database.db, { type: "product", productId: "p-1", aspects: ["details"] });
      publishDuringRender = false;
      return pages(c, given);
    };
    app = await createTestApp({ PAGE_CACHE_SECONDS: "60" }, { handler: slowPages });
    await page("/product/p-1");
    expect((await page("/product/p-1")).response.headers.get("x-page-cache")).toBeNull();
    expect((await page("/product/p-1")).response.headers.get("x-page-cache")).toBe("hit");
  });
});

describe("the anonymous catalogue JSON cache", () => {
  it("replays a product's JSON and the lists until an admin's stock edit or a review changes the product", async () => {
    app = await createTestApp({ PAGE_CACHE_SECONDS: "3600" });
    const product = await createProduct(app.database.db, { stock: 7 });
    const admin = await createShopper(app.database.db, app.database.dialect, { isAdmin: true });
    const shopper = await createShopper(app.database.db, app.database.dialect);
    const read = async (path: string) => {
      const response = await app.request(path);
      return { hit: response.headers.get("x-api-cache"), body: (await response.json()) as { stock?: number; reviewCount?: number; items?: { id: string; stock: number }[] } };
    };
    const detail = `/api/products/${product.id}`;
    const list = "/api/products?limit=12";
    await read(detail);
    await read(list);
    expect((await read(detail)).hit).toBe("hit");
    expect((await read(list)).hit).toBe("hit");

    await app.services.adminCatalog.setStock(admin, { productId: product.id }, { stock: 3 });
    const afterStock = await read(detail);
    expect(afterStock.hit).toBeNull();
    expect(afterStock.body.stock).toBe(3);
    expect((await read(list)).body.items?.find((item) => item.id === product.id)?.stock).toBe(3);

    await read(detail);
    expect((await read(detail)).hit).toBe("hit");
    await app.services.reviews.saveMyReview(shopper, product.id, { rating: 4, text: "Grows well on a north window." });
    const afterReview = await read(detail);
    expect(afterReview.hit).toBeNull();
    expect(afterReview.body.reviewCount).toBe(1);
  });

  it("drops the reviews a shopper wrote when a checkout saves a new name on their profile", async () => {
    app = await createTestApp({ PAGE_CACHE_SECONDS: "3600" });
    const [reviewed, bought] = [await createProduct(app.database.db), await createProduct(app.database.db, { stock: 5 })];
    const shopper = await createShopper(app.database.db, app.database.dialect, { name: "Asha K" });
    await app.services.reviews.saveMyReview(shopper, reviewed.id, { rating: 5, text: "Flowers all summer." });
    const reviews = `/api/products/${reviewed.id}/reviews`;
    await app.request(reviews);
    expect((await app.request(reviews)).headers.get("x-api-cache")).toBe("hit");

    await app.services.cart.addToCart(shopper, { productId: bought.id, quantity: 1 });
    const details = { name: "Asha Kulkarni", phone: "+91 98765 43210", address: "12 Garden Road\nPune 411001", pin: "411001", saveToProfile: true };
    await app.services.orders.placeOrder(shopper, { ...details, idempotencyKey: "rename-at-checkout-1" });
    const afterCheckout = await app.request(reviews);
    expect(afterCheckout.headers.get("x-api-cache")).toBeNull();
    expect(await afterCheckout.text()).toContain("Asha Kulkarni");
  });
});
