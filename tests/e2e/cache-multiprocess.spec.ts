import { expect, test } from "@playwright/test";
import { createProduct } from "../support/factories.ts";
import { createShopper } from "../support/shoppers.ts";
import { copiesOnPostgres, extraPort, insertSessions, type ShopProcess } from "../support/shop-process.ts";

// Two production servers on one fresh PostgreSQL database, each with its anonymous caches on (a long safety
// lifetime, so only the change feed can drop what they keep): an admin edit through one server shows at once in
// the other's cached product page and cached JSON (docs/decisions/027). Needs no browser; runs only when
// TEST_DATABASE_URL is set (playwright.config.ts ignores it otherwise).

const copies = copiesOnPostgres([extraPort(3), extraPort(4)], "plant_shop_cache");
test.afterAll(() => copies.stop());

async function get(shop: ShopProcess, path: string) {
  const response = await fetch(shop.url + path);
  return { status: response.status, body: await response.text(), hit: response.headers.get("x-page-cache") ?? response.headers.get("x-api-cache") };
}

test("an admin's product edit on one server drops the cached product page and JSON on every server", async () => {
  test.setTimeout(120_000);
  const { shops, database } = await copies.start({ PAGE_CACHE_SECONDS: "3600" });
  const [one, two] = shops as [ShopProcess, ShopProcess];
  const plant = await createProduct(database.db, { name: "Cached Calathea" });
  const admin = await createShopper(database.db, "postgres", { isAdmin: true });
  const [cookie] = await insertSessions(database.db, [admin.id]);

  // Warm both servers' caches: the second request of each is a replay.
  const watched = [`/product/${plant.id}`, `/api/products/${plant.id}`, "/shop", "/api/products?limit=48"];
  for (const shop of shops) {
    for (const path of watched) {
      expect((await get(shop, path)).body).toContain("Cached Calathea");
      const replay = await get(shop, path);
      expect(replay.hit, `${shop.url}${path} replayed from the cache`).toBe("hit");
      expect(replay.body).toContain("Cached Calathea");
    }
  }

  // The edit, through server one's admin API.
  const form = (await (await fetch(`${one.url}/api/admin/products/${plant.id}`, { headers: { Cookie: cookie! } })).json()) as {
    name: string;
    description: string;
    pricePaise: number;
    stock: number;
    categoryName: string;
    images: { id: string }[];
  };
  const saved = await fetch(`${one.url}/api/admin/products/${plant.id}`, {
    method: "PUT",
    headers: { Cookie: cookie!, Origin: one.url, "Content-Type": "application/json" },
    body: JSON.stringify({
      name: "Renamed Calathea",
      description: form.description,
      price: (form.pricePaise / 100).toFixed(2),
      stock: String(form.stock),
      category: form.categoryName,
      images: form.images.map((image) => `image:${image.id}`),
    }),
  });
  expect(saved.status, await saved.clone().text()).toBe(200);

  // Both servers answer with the new name: the other one heard the change over LISTEN/NOTIFY, well before the
  // caches' hour-long safety lifetime.
  for (const shop of [two, one]) {
    for (const path of watched) {
      await expect.poll(async () => (await get(shop, path)).body, { message: `${shop.url}${path}`, timeout: 10_000 }).toContain("Renamed Calathea");
      expect((await get(shop, path)).body).not.toContain("Cached Calathea");
    }
  }
});
