import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createProduct } from "../support/factories.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

// GET /api/products's filters and orders (common/catalog/list-filters.ts) through the HTTP edge: repeated names
// arrive as lists, every value the shop has no filter for is a 400 naming what is allowed.

let app: TestApp;
beforeEach(async () => {
  app = await createTestApp();
});
afterEach(async () => {
  await app.cleanup();
});

describe("GET /api/products with filters", () => {
  it("reads a repeated light as any of them, with pet safety and an order by price", async () => {
    const low = await createProduct(app.database.db, { name: "Parlour Palm", care_light: "low", care_pet_safe: "yes", price_paise: 90_000 });
    const medium = await createProduct(app.database.db, { name: "Calathea", care_light: "medium", care_pet_safe: "yes", price_paise: 45_000 });
    await createProduct(app.database.db, { name: "Snake Plant", care_light: "low", care_pet_safe: "no", price_paise: 30_000 });
    const response = await app.request("/api/products?light=low&light=medium&pets=safe&sort=price-asc");
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.items.map((p: { id: string }) => p.id)).toEqual([medium.id, low.id]);
    expect(body).toMatchObject({ total: 2, totalCapped: false, hasMore: false });
  });

  it.each([
    ["light=dark", "light", "light is one of: low, medium, bright-indirect, direct-sun"],
    ["light=low&light=dark", "light", "light is one of"],
    ["care=easy", "care", "care is one of: beginner, intermediate, expert"],
    ["pets=yes", "pets", "pets is safe"],
    ["place=both", "place", "place is one of: indoor, outdoor"],
    ["stock=yes", "stock", "stock is 1"],
    ["min=-1", "min", "whole number of rupees"],
    ["max=1.5", "max", "whole number of rupees"],
    ["min=900&max=100", "min", "min is at most max"],
    ["sort=cheapest", "sort", "sort is one of: newest, price-asc, price-desc, rating"],
  ])("answers 400 for %s, naming what is allowed", async (query, field, message) => {
    const response = await app.request(`/api/products?${query}`);
    expect(response.status).toBe(400);
    expect((await response.json()).fieldErrors[field]).toContain(message);
  });
});
