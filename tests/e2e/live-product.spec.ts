import { readFileSync } from "node:fs";
import path from "node:path";
import { messages } from "../../common/shared/messages.ts";
import { createProduct } from "../support/factories.ts";
import { setStockAsAdmin } from "./support/api.ts";
import { expect, test } from "./support/fixtures.ts";
import { buyOne, LIVE_UPDATE_TIMEOUT, openLiveProductPage, signedInShopper, stillSameDocument } from "./support/live.ts";

// A product page stays current without a reload (docs/decisions/019): on the suite's own server.

const origin = `http://127.0.0.1:${process.env.E2E_PORT}`;

test.describe("live product page", () => {
  test("two shoppers on one product page: one buys the last plant, the other sees 'Not in Stock' without reloading", async ({ browser, shopDb }) => {
    test.setTimeout(180_000);
    const plant = await createProduct(shopDb.db, { stock: 1 });
    const watching = await browser.newContext();
    const buying = await browser.newContext();
    try {
      const watcher = await watching.newPage();
      await openLiveProductPage(watcher, origin, plant.id);
      await expect(watcher.getByText(messages.product.availableStock(1))).toBeVisible(LIVE_UPDATE_TIMEOUT);

      const secret = readFileSync(path.join(process.env.E2E_DATA_DIR!, "auth-secret"), "utf8").trim();
      await signedInShopper(buying, shopDb, origin, secret);
      await buyOne(await buying.newPage(), origin, plant.id);

      await expect(watcher.getByText(messages.product.notInStock)).toBeVisible(LIVE_UPDATE_TIMEOUT);
      await expect(watcher.getByRole("button", { name: messages.product.addToCart })).toBeDisabled();
      expect(await stillSameDocument(watcher)).toBe(true);
    } finally {
      await watching.close();
      await buying.close();
    }
  });

  test("a change made between the page's render and its subscription is not missed", async ({ page, shopDb }) => {
    test.setTimeout(90_000);
    const plant = await createProduct(shopDb.db, { stock: 7 });
    // The page is rendered with 7; the stock changes before the browser subscribes (its request is held).
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**/api/products/${plant.id}/events`, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`/product/${plant.id}`);
    await expect(page.getByText(messages.product.availableStock(7))).toBeVisible(LIVE_UPDATE_TIMEOUT);
    await setStockAsAdmin(plant.id, 6);
    release();
    await expect(page.getByText(messages.product.availableStock(6))).toBeVisible(LIVE_UPDATE_TIMEOUT);
  });

  test("a review added by another shopper shows on an open product page, with the new average, without reloading", async ({ browser, shopDb }) => {
    test.setTimeout(120_000);
    const plant = await createProduct(shopDb.db, { stock: 4 });
    const watching = await browser.newContext();
    const writing = await browser.newContext();
    try {
      const watcher = await watching.newPage();
      await openLiveProductPage(watcher, origin, plant.id);
      await expect(watcher.getByText(messages.reviews.empty)).toBeVisible(LIVE_UPDATE_TIMEOUT);

      const secret = readFileSync(path.join(process.env.E2E_DATA_DIR!, "auth-secret"), "utf8").trim();
      await signedInShopper(writing, shopDb, origin, secret, { name: "Asha Menon" });
      const saved = await writing.request.put(`${origin}/api/products/${plant.id}/reviews/mine`, {
        headers: { Origin: origin },
        data: { text: "Thrives on a north window", rating: 4 },
      });
      expect(saved.status()).toBe(201);

      await expect(watcher.getByText("Thrives on a north window")).toBeVisible(LIVE_UPDATE_TIMEOUT);
      await expect(watcher.getByText("Asha Menon")).toBeVisible();
      await expect(watcher.getByText(messages.reviews.empty)).toHaveCount(0);
      expect(await stillSameDocument(watcher)).toBe(true);
    } finally {
      await watching.close();
      await writing.close();
    }
  });

  test("an admin's stock edit shows on an open product page without reloading", async ({ browser, shopDb }) => {
    test.setTimeout(120_000);
    const plant = await createProduct(shopDb.db, { stock: 3 });
    const watching = await browser.newContext();
    try {
      const watcher = await watching.newPage();
      await openLiveProductPage(watcher, origin, plant.id);
      await expect(watcher.getByText(messages.product.availableStock(3))).toBeVisible(LIVE_UPDATE_TIMEOUT);

      await setStockAsAdmin(plant.id, 12);

      await expect(watcher.getByText(messages.product.availableStock(12))).toBeVisible(LIVE_UPDATE_TIMEOUT);
      expect(await stillSameDocument(watcher)).toBe(true);
    } finally {
      await watching.close();
    }
  });
});
