import { describe, expect, it } from "vitest";
import { createProduct } from "../support/factories.ts";
import { useAppWithPages } from "../support/app-with-pages.ts";
import { insertSessions, SHOP_AUTH_SECRET } from "../support/shop-process.ts";
import { createShopper } from "../support/shoppers.ts";
import { TEST_ORIGIN } from "../support/test-app.ts";

// The owner's activity over HTTP, as a browser without JavaScript and an API client see it (docs/decisions/057).

const shop = useAppWithPages({ AUTH_SECRET: SHOP_AUTH_SECRET });

async function signedIn(fields: { isAdmin?: boolean } = {}) {
  const user = await createShopper(shop.app.database.db, shop.app.database.dialect, fields);
  const [cookie] = await insertSessions(shop.app.database.db, [user.id]);
  return { user, cookie: cookie! };
}
const get = (path: string, cookie: string | null) => shop.app.request(`${TEST_ORIGIN}${path}`, { headers: cookie ? { Cookie: cookie } : {} });

describe("the activity page and API", () => {
  it("show an admin the stock change made through the API, filtered by the product, and refuse a shopper and a visitor", async () => {
    const admin = await signedIn({ isAdmin: true });
    const shopper = await signedIn();
    const plant = await createProduct(shop.app.database.db, { name: "Audited Fern", stock: 4 });
    const other = await createProduct(shop.app.database.db, { name: "Other Palm", stock: 1 });
    await shop.app.services.adminCatalog.setStock(admin.user, { productId: plant.id }, { stock: "9" });
    await shop.app.services.adminCatalog.setStock(admin.user, { productId: other.id }, { stock: "2" });

    const html = await (await get(`/admin/activity?kind=product&thing=${plant.id}`, admin.cookie)).text();
    expect(html).toContain("Stock of Audited Fern 4 → 9");
    expect(html).not.toContain("Other Palm");
    const api = await get(`/api/admin/activity?thing=${plant.id}`, admin.cookie);
    expect(api.status).toBe(200);
    expect(((await api.json()) as { items: { summary: string }[] }).items.map((i) => i.summary)).toEqual(["Stock of Audited Fern 4 → 9"]);

    for (const [cookie, status] of [[shopper.cookie, 403], [null, 401]] as const) {
      expect((await get("/api/admin/activity", cookie)).status).toBe(status);
      expect((await get("/admin/activity", cookie)).status).not.toBe(200);
    }
    expect((await get("/api/admin/activity?kind=spaceship", admin.cookie)).status).toBe(400);
  });
});
