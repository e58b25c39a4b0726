import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { adminMessages } from "../../common/admin/admin-messages.ts";
import { createProduct } from "../support/factories.ts";
import { insertSessions, SHOP_AUTH_SECRET } from "../support/shop-process.ts";
import { createShopper } from "../support/shoppers.ts";
import { dialectUnderTest } from "../support/test-database.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "../support/test-app.ts";

// Sale prices through the admin products API and the shop's JSON (docs/decisions/047).

let app: TestApp;
beforeEach(async () => {
  app = await createTestApp({ AUTH_SECRET: SHOP_AUTH_SECRET });
});
afterEach(async () => {
  await app.cleanup();
});

const send = (method: string, path: string, cookie: string | null, body?: unknown) =>
  app.request(path, {
    method,
    headers: { Origin: TEST_ORIGIN, ...(cookie ? { Cookie: cookie } : {}), ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

async function adminCookie(): Promise<string> {
  const person = await createShopper(app.database.db, dialectUnderTest, { isAdmin: true });
  return (await insertSessions(app.database.db, [person.id]))[0]!;
}

describe(`sale prices through the API (${dialectUnderTest})`, () => {
  it("sets a compare-at price and a window with ISO instants, then the product's JSON shows the sale while it runs", async () => {
    const cookie = await adminCookie();
    const plant = await createProduct(app.database.db, { price_paise: 75_000 });
    const category = await app.database.db.selectFrom("categories").select("name").where("id", "=", plant.category_id).executeTakeFirstOrThrow();
    const form = { name: plant.name, description: plant.description, price: 750, stock: 10, category: category.name, images: [] };
    const ends = new Date(Date.now() + 3_600_000).toISOString();
    const saved = await send("PUT", `/api/admin/products/${plant.id}`, cookie, { ...form, compareAt: 1000, saleStartsAt: "2020-01-01T00:00:00+05:30", saleEndsAt: ends });
    expect(saved.status).toBe(200);
    const product = await (await send("GET", `/api/products/${plant.id}`, null)).json();
    expect({ price: product.pricePaise, sale: product.sale }).toEqual({ price: 75_000, sale: { regularPaise: 100_000, savingPaise: 25_000, savingPercent: 25 } });
  });

  it("answers 400 with the field's message for a compare-at price not above the price, and for an end before the start", async () => {
    const cookie = await adminCookie();
    const plant = await createProduct(app.database.db, { price_paise: 75_000 });
    const category = await app.database.db.selectFrom("categories").select("name").where("id", "=", plant.category_id).executeTakeFirstOrThrow();
    const form = { name: plant.name, description: plant.description, price: 750, stock: 10, category: category.name, images: [] };
    const low = await send("PUT", `/api/admin/products/${plant.id}`, cookie, { ...form, compareAt: 700 });
    expect({ status: low.status, fieldErrors: (await low.json()).fieldErrors }).toEqual({ status: 400, fieldErrors: { compareAt: adminMessages.productForm.compareAtNotAbove } });
    const backwards = await send("PUT", `/api/admin/products/${plant.id}`, cookie, { ...form, compareAt: 1000, saleStartsAt: "2026-12-02T00:00:00Z", saleEndsAt: "2026-12-01T00:00:00Z" });
    expect({ status: backwards.status, fieldErrors: (await backwards.json()).fieldErrors }).toEqual({ status: 400, fieldErrors: { saleEndsAt: adminMessages.productForm.saleEndsBeforeStart } });
  });
});
