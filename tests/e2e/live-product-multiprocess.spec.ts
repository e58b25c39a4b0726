import { messages } from "../../common/shared/messages.ts";
import { createProduct } from "../support/factories.ts";
import { copiesOnPostgres, extraPort, type ShopProcess } from "../support/shop-process.ts";
import { expect, test } from "./support/fixtures.ts";
import { buyOne, LIVE_UPDATE_TIMEOUT, openLiveProductPage, signedInShopper, stillSameDocument } from "./support/live.ts";

// Two production servers on one PostgreSQL database: a change made through one reaches product pages open on
// the other (LISTEN/NOTIFY). Runs only when TEST_DATABASE_URL is set (playwright.config.ts ignores it otherwise).

const copies = copiesOnPostgres([extraPort(1), extraPort(2)], "plant_shop_live");
test.afterAll(() => copies.stop());

test("a shopper buys on one server; the product page open on another server shows the new stock without reloading", async ({ browser }) => {
  test.setTimeout(180_000);
  const { shops, database } = await copies.start();
  const [one, two] = shops as [ShopProcess, ShopProcess];
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
