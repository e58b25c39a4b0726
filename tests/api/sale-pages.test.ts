import { afterEach, describe, expect, it } from "vitest";
import type { PageHandler } from "../../server/pages.ts";
import { createProduct } from "../support/factories.ts";
import { checkoutInput, createShopper } from "../support/shoppers.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

// The anonymous page cache during a sale (docs/decisions/044), through the real services on the database under
// test: a stock change that keeps a plant in stock leaves the list pages as they are, one that takes it in or out
// of stock drops them. A stand-in renderer counts renders per path.
let app: TestApp;
const renders = new Map<string, number>();
const pages: PageHandler = async (c) => {
  renders.set(c.req.path, (renders.get(c.req.path) ?? 0) + 1);
  return new Response(`<p>${c.req.path}</p>`, { headers: { "Content-Type": "text/html; charset=utf-8" } });
};

afterEach(async () => {
  await app.cleanup();
  renders.clear();
});

async function hit(path: string) {
  return (await app.request(path)).headers.get(path.startsWith("/api/") ? "x-api-cache" : "x-page-cache") === "hit";
}

async function shopWithPlant(stock: number) {
  app = await createTestApp({ PAGE_CACHE_SECONDS: "3600" }, { handler: pages });
  const plant = await createProduct(app.database.db, { stock });
  const admin = await createShopper(app.database.db, app.database.dialect, { isAdmin: true });
  const lists = ["/shop", "/", `/category/${plant.category_id}`];
  const data = `/product/${plant.id}.data`;
  const json = [`/api/products/${plant.id}`, "/api/products?limit=12"];
  for (const path of [...lists, data, ...json]) await app.request(path);
  return { plant, admin, lists, data, json };
}

describe("list pages during a sale", () => {
  it("stay cached through an owner's stock edits that keep the plant in stock, while its page data and the JSON (exact stock) are dropped", async () => {
    const { plant, admin, lists, data, json } = await shopWithPlant(10);
    await app.services.adminCatalog.setStock(admin, { productId: plant.id }, { stock: "9", stockBefore: "10" });
    await app.services.adminCatalog.setStock(admin, { productId: plant.id }, { stock: "12", stockBefore: "9" });
    for (const path of lists) expect(await hit(path), path).toBe(true);
    expect(await hit(data)).toBe(false);
    for (const path of json) expect(await hit(path), path).toBe(false);
    for (const path of lists) expect(renders.get(path), path).toBe(1);
  });

  it("stay cached through an order that leaves some in stock, and are dropped by the order that takes the last one", async () => {
    const { plant, lists } = await shopWithPlant(3);
    const shopper = await createShopper(app.database.db, app.database.dialect);
    const buy = async (quantity: number, key: string) => {
      await app.services.cart.addToCart(shopper, { productId: plant.id, quantity });
      await app.services.orders.placeOrder(shopper, checkoutInput(`${key}-order`));
    };
    await buy(2, "sale-first");
    for (const path of lists) expect(await hit(path), path).toBe(true);
    await buy(1, "sale-second");
    for (const path of lists) expect(await hit(path), path).toBe(false);
  });

  it("are dropped with the product page when the owner sets the stock to 0, and again when back in stock", async () => {
    const { plant, admin, lists } = await shopWithPlant(4);
    const page = `/product/${plant.id}`;
    await app.request(page);
    await app.services.adminCatalog.setStock(admin, { productId: plant.id }, { stock: "0", stockBefore: "4" });
    for (const path of [...lists, page]) expect(await hit(path), path).toBe(false);
    await app.services.adminCatalog.setStock(admin, { productId: plant.id }, { stock: "5", stockBefore: "0" });
    for (const path of [...lists, page]) expect(await hit(path), path).toBe(false);
    for (const path of [...lists, page]) expect(renders.get(path), path).toBe(3);
  });
});
