import type { Browser, BrowserContext, Page } from "@playwright/test";
import { messages } from "../../common/shared/messages.ts";
import { openDatabase, type Database } from "../../server/platform/db/client.ts";
import { createProduct } from "../support/factories.ts";
import { extraPort, insertSessions, startShopProcess, stopShopProcess, waitUntilHealthy, type ShopProcess } from "../support/shop-process.ts";
import { createShopper } from "../support/shoppers.ts";
import { expect, test } from "./support/fixtures.ts";
import { hydrated, mainNav } from "./support/pages.ts";
import { cartCountName, cartLink } from "./support/shopper.ts";

// Signed-in shoppers' catalogue pages from one shared render (docs/decisions/045), in a browser: a server of this
// file's own with the page caches on (the suite's server has them off). The page arrives with the person's
// navigation already in it, hydrates without a change or an error, works on without reloading, and works without
// JavaScript.

const port = extraPort(5);
const state: { shop?: ShopProcess; database?: Database } = {};

test.beforeAll(async () => {
  state.shop = startShopProcess({ port, env: { PAGE_CACHE_SECONDS: "300" } });
  await waitUntilHealthy(state.shop);
  state.database = openDatabase({ sqliteFile: `${state.shop.dataDir}/shop.db` });
});

test.afterAll(async () => {
  await state.database?.destroy();
  if (state.shop) await stopShopProcess(state.shop);
});

/** A signed-in shopper of this file's server, in a browser context of their own (with or without JavaScript). */
async function shopperContext(browser: Browser, name: string, javaScriptEnabled = true) {
  const db = state.database!.db;
  const user = await createShopper(db, "sqlite", { name });
  const [cookie] = await insertSessions(db, [user.id]);
  const [cookieName, value] = cookie!.split("=") as [string, string];
  const context = await browser.newContext({ baseURL: state.shop!.url, javaScriptEnabled });
  await context.addCookies([{ name: cookieName, value, url: state.shop!.url }]);
  return { user, context };
}

/** Fails on any console error or page error of the context's pages (a hydration mismatch is one). */
function watchErrors(context: BrowserContext): string[] {
  const errors: string[] = [];
  context.on("page", (page) => {
    page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
    page.on("pageerror", (error) => errors.push(error.message));
  });
  return errors;
}

const headerHtml = (page: Page) => page.locator("header").evaluate((header) => header.outerHTML);

test("a shopper's shared page arrives in spliced gzip with their own navigation, hydrates without changing it, and updates the cart count after Add to Cart", async ({ browser }) => {
  const plant = await createProduct(state.database!.db, { name: "Shared Pothos", stock: 9 });
  // Another shopper's visit renders and keeps the shared page first.
  const other = await shopperContext(browser, "Meera Other");
  const otherPage = await other.context.newPage();
  expect((await otherPage.goto(`/product/${plant.id}`))!.headers()["x-shared-page-cache"]).toBeUndefined();
  await other.context.close();

  const { user, context } = await shopperContext(browser, "Kavya Shared");
  const errors = watchErrors(context);
  const page = await context.newPage();
  const response = await page.goto(`/product/${plant.id}`);
  expect(response!.headers()["x-shared-page-cache"]).toBe("hit");
  // Chromium takes gzip: the answer is the kept render's pieces compressed once with this person's parts spliced in.
  expect(response!.headers()["content-encoding"]).toBe("gzip");
  // The bytes the server sent already hold the person's navigation.
  const served = await response!.text();
  expect(served).toContain('title="Kavya Shared"');
  expect(served).not.toContain("Meera Other");

  const profileLink = mainNav(page).getByRole("link", { name: "Your profile" });
  await hydrated(page.getByRole("button", { name: messages.product.addToCart }));
  await expect(profileLink).toHaveAttribute("href", `/profile/${user.id}`);
  await expect(mainNav(page).getByRole("button", { name: "Logout" })).toBeVisible();
  await expect(mainNav(page).getByRole("link", { name: "Login" })).toHaveCount(0);
  // Hydration kept the server's header as it was: no other person's parts, no visitor's Login, nothing moved.
  const fromServer = await page.evaluate((html) => new DOMParser().parseFromString(html, "text/html").querySelector("header")!.outerHTML, served);
  expect(await headerHtml(page)).toBe(fromServer);

  await page.getByRole("button", { name: messages.product.addToCart }).click();
  await expect(cartLink(page)).toHaveAccessibleName(cartCountName(1));
  // On to another shared page without a reload: still the person's navigation, the new count.
  await mainNav(page).getByRole("link", { name: "Shop", exact: true }).click();
  await expect(page).toHaveURL(/\/shop$/);
  await expect(profileLink).toHaveAttribute("href", `/profile/${user.id}`);
  await expect(cartLink(page)).toHaveAccessibleName(cartCountName(1));
  await context.close();
  expect(errors, "the browser reported errors").toEqual([]);
});

test("a shopper without JavaScript gets the shared page with their own navigation and cart count", async ({ browser }) => {
  const plant = await createProduct(state.database!.db, { name: "Shared Peperomia", stock: 9 });
  const { user, context } = await shopperContext(browser, "Arjun NoScript", false);
  const page = await context.newPage();
  // Twice: the second is the kept render, filled for this person.
  await page.goto("/shop");
  const response = await page.goto("/shop");
  expect(response!.headers()["x-shared-page-cache"]).toBe("hit");
  await expect(mainNav(page).getByRole("link", { name: "Your profile" })).toHaveAttribute("href", `/profile/${user.id}`);
  await expect(cartLink(page)).toHaveAccessibleName(cartCountName(0));

  // Add to Cart as a form post, then the next shared page shows the count.
  await page.goto(`/product/${plant.id}`);
  await page.getByRole("button", { name: messages.product.addToCart }).click();
  await page.goto("/shop");
  await expect(cartLink(page)).toHaveAccessibleName(cartCountName(1));
  await context.close();
});

test("a shopper's saved plant arrives pressed in the shared pages, hydrates as served, and its heart toggles in place", async ({ browser }) => {
  const plant = await createProduct(state.database!.db, { name: "Shared Calathea", stock: 9 });
  // Another shopper's visits render and keep the shared pages, every heart in them marked, none filled.
  const other = await shopperContext(browser, "Nisha Other");
  const otherPage = await other.context.newPage();
  // (The plant's own category page: this file's plants are written straight into the database, which no kept /shop hears of.)
  await otherPage.goto(`/product/${plant.id}`);
  await otherPage.goto(`/category/${plant.category_id}`);
  await other.context.close();

  const { context } = await shopperContext(browser, "Tara Hearts");
  const errors = watchErrors(context);
  const saved = await context.request.put(`/api/wishlist/${plant.id}`, { headers: { Origin: state.shop!.url } });
  expect(saved.status()).toBe(201);
  const page = await context.newPage();
  const heart = page.getByRole("button", { name: messages.wishlist.remove(plant.name) });

  const grid = await page.goto(`/category/${plant.category_id}`);
  expect(grid!.headers()["x-shared-page-cache"]).toBe("hit");
  await hydrated(heart);
  await expect(heart).toHaveAttribute("aria-pressed", "true");

  const response = await page.goto(`/product/${plant.id}`);
  expect(response!.headers()["x-shared-page-cache"]).toBe("hit");
  const served = await response!.text();
  await hydrated(heart);
  // Hydration kept the heart's form exactly as the server filled it in.
  const form = (html: string) => new DOMParser().parseFromString(html, "text/html").querySelector('form[action="/wishlist"]')!.outerHTML;
  expect(await page.locator('form[action="/wishlist"]').evaluate((element) => element.outerHTML)).toBe(await page.evaluate(form, served));

  await heart.click();
  const emptyHeart = page.getByRole("button", { name: messages.wishlist.save(plant.name) });
  await expect(emptyHeart).toHaveAttribute("aria-pressed", "false");
  await expect(page).toHaveURL(new RegExp(`/product/${plant.id}$`));
  const list = await context.request.get("/api/wishlist");
  expect(((await list.json()) as { items: unknown[] }).items).toEqual([]);
  await context.close();
  expect(errors, "the browser reported errors").toEqual([]);
});
