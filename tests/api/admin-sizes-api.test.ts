import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { adminMessages } from "../../common/admin/admin-messages.ts";
import { createProduct } from "../support/factories.ts";
import { insertSessions, SHOP_AUTH_SECRET } from "../support/shop-process.ts";
import { createShopper } from "../support/shoppers.ts";
import { dialectUnderTest } from "../support/test-database.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "../support/test-app.ts";

// A size's stock set in place through /api/admin/products/:productId/variants/:variantId/stock (docs/product.md,
// Admin): the size's own stock, with its product's total following.

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

async function signedIn(isAdmin: boolean): Promise<string> {
  const person = await createShopper(app.database.db, dialectUnderTest, { isAdmin });
  return (await insertSessions(app.database.db, [person.id]))[0]!;
}

/** A plant in two sizes: the factory's first (under the product's id, 4 in stock) and a large one with 6. */
async function plantInTwoSizes() {
  const plant = await createProduct(app.database.db, { stock: 10 });
  await app.database.db.updateTable("product_variants").set({ stock: 4, label: "Small" }).where("id", "=", plant.id).execute();
  const largeId = randomUUID();
  const now = new Date().toISOString();
  await app.database.db
    .insertInto("product_variants")
    .values({ id: largeId, product_id: plant.id, position: 1, label: "Large", sku: `L-${plant.id}`, price_paise: 150_000, compare_at_paise: null, stock: 6, created_at: now, updated_at: now })
    .execute();
  return { plant, largeId };
}

const stocks = async (productId: string) => ({
  product: (await app.database.db.selectFrom("products").select("stock").where("id", "=", productId).executeTakeFirstOrThrow()).stock,
  sizes: (await app.database.db.selectFrom("product_variants").select("stock").where("product_id", "=", productId).orderBy("position").execute()).map((row) => row.stock),
});

describe("a size's stock in place", () => {
  it("sets one size's stock and moves its product's total by as much", async () => {
    const { plant, largeId } = await plantInTwoSizes();
    const admin = await signedIn(true);
    const answer = await send("PATCH", `/api/admin/products/${plant.id}/variants/${largeId}/stock`, admin, { stock: 9, stockBefore: 6 });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ productId: plant.id, variantId: largeId, stock: 9, productStock: 13 });
    expect(await stocks(plant.id)).toEqual({ product: 13, sizes: [4, 9] });
  });

  it("answers 404 for a size of another product, and changes neither", async () => {
    const { plant, largeId } = await plantInTwoSizes();
    const other = await createProduct(app.database.db, { stock: 3 });
    const admin = await signedIn(true);
    const answer = await send("PATCH", `/api/admin/products/${other.id}/variants/${largeId}/stock`, admin, { stock: 1 });
    expect(answer.status).toBe(404);
    expect(await stocks(plant.id)).toEqual({ product: 10, sizes: [4, 6] });
    expect(await stocks(other.id)).toEqual({ product: 3, sizes: [3] });
  });

  it("refuses a size's stock that moved from the one shown (409, naming the stock now)", async () => {
    const { plant, largeId } = await plantInTwoSizes();
    const admin = await signedIn(true);
    const answer = await send("PATCH", `/api/admin/products/${plant.id}/variants/${largeId}/stock`, admin, { stock: 9, stockBefore: 7 });
    expect(answer.status).toBe(409);
    expect((await answer.json()).fieldErrors).toEqual({ stock: adminMessages.productForm.stockChanged(6) });
  });

  it("refuses a visitor (401) and a shopper (403)", async () => {
    const { plant, largeId } = await plantInTwoSizes();
    expect((await send("PATCH", `/api/admin/products/${plant.id}/variants/${largeId}/stock`, null, { stock: 1 })).status).toBe(401);
    expect((await send("PATCH", `/api/admin/products/${plant.id}/variants/${largeId}/stock`, await signedIn(false), { stock: 1 })).status).toBe(403);
    expect(await stocks(plant.id)).toEqual({ product: 10, sizes: [4, 6] });
  });

  it("keeps the product's stock route for a plant in one size (its only size's, whatever its id) and refuses it for a plant in several", async () => {
    const admin = await signedIn(true);
    // A size with an id of its own, as the product form makes it (the factory's is the product's).
    const single = await createProduct(app.database.db, { stock: 2 });
    const ownId = randomUUID();
    await app.database.db.updateTable("product_variants").set({ id: ownId }).where("id", "=", single.id).execute();
    expect(await (await send("PATCH", `/api/admin/products/${single.id}/stock`, admin, { stock: 5 })).json()).toEqual({ productId: single.id, stock: 5 });
    expect(await stocks(single.id)).toEqual({ product: 5, sizes: [5] });

    const { plant } = await plantInTwoSizes();
    const refused = await send("PATCH", `/api/admin/products/${plant.id}/stock`, admin, { stock: 1 });
    expect(refused.status).toBe(409);
    expect((await refused.json()).fieldErrors).toEqual({ stock: adminMessages.productForm.hasSizes });
  });

  it("lists each product's sizes with their stock on /api/admin/products", async () => {
    const { plant, largeId } = await plantInTwoSizes();
    const admin = await signedIn(true);
    const page = await (await send("GET", "/api/admin/products", admin)).json();
    const row = page.items.find((item: { id: string }) => item.id === plant.id);
    expect(row.variants).toEqual([
      { id: plant.id, label: "Small", stock: 4 },
      { id: largeId, label: "Large", stock: 6 },
    ]);
  });
});
