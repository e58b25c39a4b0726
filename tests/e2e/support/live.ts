import { expect, type BrowserContext, type Page } from "@playwright/test";
import { messages } from "../../../common/shared/messages.ts";
import type { Database } from "../../../server/platform/db/client.ts";
import { insertSessions } from "../../support/shop-process.ts";
import { createShopper } from "../../support/shoppers.ts";
import { cartCountName, cartLink, fillShipping } from "./shopper.ts";

// The live product page's browser steps, shared by the live-product spec files.

/** How long a test waits for a page to show a change (the machine running the suite may be busy). */
export const LIVE_UPDATE_TIMEOUT = { timeout: 30_000 };

/** Opens the product page and waits until it has subscribed to the product's events. */
export async function openLiveProductPage(page: Page, origin: string, productId: string) {
  const subscribed = page.waitForResponse((response) => response.url() === `${origin}/api/products/${productId}/events`);
  await page.goto(`${origin}/product/${productId}`);
  expect((await subscribed).status()).toBe(200);
  // Marks this document: still marked later means the page changed without a reload.
  await page.evaluate(() => ((window as unknown as { liveTestMark: string }).liveTestMark = "same document"));
}

/** True when the page is still the document openLiveProductPage marked (no reload, no full navigation). */
export async function stillSameDocument(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as unknown as { liveTestMark?: string }).liveTestMark === "same document");
}

/** A verified shopper written into `database` and signed in in `context` (sessions signed with `secret`). */
export async function signedInShopper(context: BrowserContext, database: Database, origin: string, secret?: string, overrides: { name?: string; isAdmin?: boolean } = {}) {
  const user = await createShopper(database.db, database.dialect, { name: "Leela Nair", ...overrides });
  const [cookie] = await insertSessions(database.db, [user.id], secret);
  const [name, value] = cookie!.split(/=(.*)/s);
  await context.addCookies([{ name: name!, value: value!, url: origin }]);
  return user;
}

/** Through the pages, as a shopper does: Add to Cart on the product page, then checkout and Place Order. */
export async function buyOne(page: Page, origin: string, productId: string) {
  await page.goto(`${origin}/product/${productId}`);
  const button = page.getByRole("button", { name: messages.product.addToCart });
  // Generous waits: these tests run several servers and browser pages on a machine shared with other work.
  await expect
    .poll(() => button.evaluate((el) => Object.keys(el).some((key) => key.startsWith("__reactProps"))), { message: "the page hydrates", timeout: 30_000 })
    .toBe(true);
  await button.click();
  await expect(cartLink(page)).toHaveAccessibleName(cartCountName(1), { timeout: 30_000 });
  await page.goto(`${origin}/checkout`);
  await expect(page.getByRole("heading", { name: messages.checkout.heading, level: 1 })).toBeVisible(LIVE_UPDATE_TIMEOUT);
  await fillShipping(page);
  await page.getByRole("button", { name: messages.checkout.placeOrder }).click();
  await expect(page).toHaveURL(/\/orders\/[\w-]+$/, { timeout: 30_000 });
}

/**
 * Drops Chrome's console lines for connections refused while a server was stopped on purpose (the page's event
 * stream retrying; Chrome names no address in them).
 */
export function allowRefusedConnections(consoleErrors: string[]) {
  const refused = /^Failed to load resource: net::ERR_CONNECTION_REFUSED$/;
  consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((error) => !refused.test(error)));
}
