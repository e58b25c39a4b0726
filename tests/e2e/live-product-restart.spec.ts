import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { messages } from "../../common/shared/messages.ts";
import { openDatabase } from "../../server/platform/db/client.ts";
import { createProduct } from "../support/factories.ts";
import { extraPort, startShopProcess, waitUntilHealthy, type ShopProcess } from "../support/shop-process.ts";
import { OWNER, withShopServices } from "../support/shop-services.ts";
import { expect, test } from "./support/fixtures.ts";
import { allowRefusedConnections, LIVE_UPDATE_TIMEOUT, openLiveProductPage, stillSameDocument } from "./support/live.ts";

// A server of its own on a SQLite data folder of its own, so it can be stopped and started again under an
// open product page (playwright.config.ts leaves this file out of the PostgreSQL pass, as server-process.spec.ts).

const port = extraPort(0);
const origin = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(path.join(os.tmpdir(), "plant-shop-live-restart-"));
let shop: ShopProcess | undefined;

/** SIGTERM and wait; the data folder stays for the next start. */
async function stop(running: ShopProcess) {
  running.child.kill("SIGTERM");
  return running.exited;
}

test.afterAll(async () => {
  if (shop && shop.child.exitCode === null) await stop(shop);
  rmSync(dataDir, { recursive: true, force: true });
});

test("after the server restarts, an open product page reconnects and shows what changed while it was down", async ({ page, consoleErrors }) => {
  test.setTimeout(120_000);
  shop = startShopProcess({ port, dataDir });
  await waitUntilHealthy(shop);
  const database = openDatabase({ sqliteFile: path.join(dataDir, "shop.db") });
  try {
    const plant = await createProduct(database.db, { stock: 9 });
    await openLiveProductPage(page, origin, plant.id);
    await expect(page.getByText(messages.product.availableStock(9))).toBeVisible(LIVE_UPDATE_TIMEOUT);

    // The open event stream does not hold the shutdown up to its budget: the server ends it at once.
    const first = shop;
    expect(await stop(first)).toBe(0);
    expect(first.output()).not.toContain("shutdown budget spent");

    // Changed while no server was running, through the catalogue's own service on the data folder: no event can
    // tell the page; its reconnection must.
    await withShopServices({ dataDir }, (services) => services.adminCatalog.setStock(OWNER, { productId: plant.id }, { stock: 3 }));
    const resubscribed = page.waitForResponse((response) => response.url() === `${origin}/api/products/${plant.id}/events` && response.status() === 200);
    shop = startShopProcess({ port, dataDir });
    await waitUntilHealthy(shop);
    await resubscribed;
    await expect(page.getByText(messages.product.availableStock(3))).toBeVisible(LIVE_UPDATE_TIMEOUT);
    expect(await stillSameDocument(page)).toBe(true);
  } finally {
    await database.destroy();
  }
  allowRefusedConnections(consoleErrors);
});
