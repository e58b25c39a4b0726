import { messages } from "../../common/shared/messages.ts";
import { openDatabase, type Database } from "../../server/platform/db/client.ts";
import { createProduct } from "../support/factories.ts";
import { createPostgresDatabase, extraPort, startShopProcess, stopShopProcess, waitUntilHealthy, type ShopProcess } from "../support/shop-process.ts";
import { expect, test } from "./support/fixtures.ts";
import { buyOne, LIVE_UPDATE_TIMEOUT, openLiveProductPage, signedInShopper, stillSameDocument } from "./support/live.ts";

// Two production servers on one PostgreSQL database: a change made through one reaches product pages open on
// the other (LISTEN/NOTIFY). Runs only when TEST_DATABASE_URL is set (playwright.config.ts ignores it otherwise).

const ports = [extraPort(1), extraPort(2)];
const state: { target?: { url: string; drop: () => Promise<void> }; database?: Database; shops: ShopProcess[] } = { shops: [] };

test.afterAll(async () => {
  await Promise.all(state.shops.map((shop) => stopShopProcess(shop)));
  await state.database?.destroy();
  await state.target?.drop();
});

test("a shopper buys on one server; the product page open on another server shows the new stock without reloading", async ({ browser }) => {
  test.setTimeout(180_000);
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("this test needs TEST_DATABASE_URL (playwright.config.ts ignores it otherwise)");
  state.target = await createPostgresDatabase(adminUrl, "plant_shop_live");
  state.shops = ports.map((port) => startShopProcess({ port, databaseUrl: state.target!.url }));
  await Promise.all(state.shops.map((shop) => waitUntilHealthy(shop)));
  const [one, two] = state.shops as [ShopProcess, ShopProcess];
  const database = (state.database = openDatabase({ databaseUrl: state.target.url, poolSize: 2 }));
  const plant = await createProduct(database.db, { stock: 4 });

  const watching = await browser.newContext();
  const buying = await browser.newContext();
  try {
    const watchers = [await watching.newPage(), await watching.newPage()];
    await openLiveProductPage(watchers[0]!, two.url, plant.id);
    await openLiveProductPage(watchers[1]!, one.url, plant.id);
    await signedInShopper(buying, database, one.url);
    await buyOne(await buying.newPage(), one.url, plant.id);
    for (const watcher of watchers) {
      await expect(watcher.getByText(messages.product.availableStock(3))).toBeVisible(LIVE_UPDATE_TIMEOUT);
      expect(await stillSameDocument(watcher)).toBe(true);
    }
  } finally {
    await watching.close();
    await buying.close();
  }
});
