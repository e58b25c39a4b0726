import { randomUUID } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { messages } from "../../common/shared/messages.ts";
import type { Database } from "../../server/platform/db/client.ts";
import { sampleProducts } from "../../server/modules/catalog/index.ts";
import { createProduct, setSelling } from "../support/factories.ts";
import { expect, test } from "./support/fixtures.ts";
import { ADMIN, logIn, urlIs } from "./support/pages.ts";
import { addToCart } from "./support/shopper.ts";

// Sale prices (docs/decisions/047): the owner puts a plant on sale in the product form; cards, its page and the
// cart show both prices and the saving, /sale lists it; at the window's end, with nobody editing the catalogue,
// it leaves /sale and shows one price. The server's clock is moved through its test-only clock file
// (TEST_CLOCK_FILE, set by playwright.config.ts); without the file it keeps the system's time.

const clockFile = path.join(process.env.E2E_DATA_DIR!, "test-clock");
const setShopClock = (iso: string) => writeFileSync(clockFile, iso);

/** A product card (home, shop, /sale) by the plant's name. */
const card = (page: Page, name: string) => page.getByRole("article").filter({ has: page.getByRole("link", { name, exact: true }) });

test.afterEach(() => {
  rmSync(clockFile, { force: true });
});

/**
 * The suite's shop is seeded with the sample catalogue, two of whose plants are on sale from the start; these tests
 * watch a sale of their own plants end into an empty /sale, so the samples' compare-at prices are taken away first.
 */
async function onlyOurOwnSales(shopDb: Database) {
  const onSale = sampleProducts.filter((p) => p.compareAtRupees !== undefined).map((p) => p.name);
  const ids = (await shopDb.db.selectFrom("products").select("id").where("name", "in", onSale).execute()).map((p) => p.id);
  for (const id of ids) await setSelling(shopDb.db, id, { compare_at_paise: null });
}

test("the owner puts a plant on sale: both prices and the saving on its card, page and cart line, on /sale from the banner; after the window's end it shows one price and leaves /sale, with no edit", async ({ page, browser, shopDb }) => {
  await onlyOurOwnSales(shopDb);
  // 05:30 in the shop's time zone (Asia/Kolkata); the sale the owner types ends at 12:00 there (06:30 UTC).
  setShopClock("2030-06-01T00:00:00.000Z");
  const name = `Sale Calathea ${randomUUID().slice(0, 8)}`;
  const plant = await createProduct(shopDb.db, { name, price_paise: 75_000, stock: 5 });

  await logIn(page, ADMIN);
  await page.goto(`/product/${plant.id}/edit`);
  await page.getByLabel("Compare-at Price").fill("1000");
  await page.getByLabel("Sale Ends").fill("2030-06-01T12:00");
  await page.getByRole("button", { name: "Update Product" }).click();
  await expect(page).toHaveURL(urlIs(`/product/${plant.id}`));

  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(`/product/${plant.id}`);
  const price = visitor.getByRole("main").getByTestId("sale-price");
  await expect(price).toContainText("Sale price Rs. 750");
  await expect(price.locator("del")).toHaveText("Regular price Rs. 1,000");
  await expect(price).toContainText("Save 25%");

  await visitor.goto("/");
  await expect(card(visitor, name).getByTestId("sale-price")).toContainText("Save 25%");
  await visitor.getByRole("link", { name: messages.home.promoBanner }).click();
  await expect(visitor).toHaveURL(urlIs("/sale"));
  await expect(card(visitor, name).locator("del")).toHaveText("Regular price Rs. 1,000");

  await addToCart(visitor, plant.id, 1);
  await visitor.goto("/cart");
  const line = visitor.getByRole("listitem", { name });
  await expect(line.getByTestId("sale-price")).toContainText("Save 25%");
  await expect(line.locator("del")).toHaveText("Regular price Rs. 1,000");

  // The window ends: nobody touches the catalogue; the shop's clock passes 12:00 in Kolkata.
  setShopClock("2030-06-01T07:00:00.000Z");
  await expect(async () => {
    await visitor.goto("/sale");
    await expect(card(visitor, name)).toHaveCount(0);
  }).toPass({ timeout: 15_000 });
  await expect(visitor.getByText(messages.sale.empty)).toBeVisible();
  await visitor.goto(`/product/${plant.id}`);
  await expect(visitor.getByRole("main").getByTestId("sale-price")).toHaveCount(0);
  await expect(visitor.getByRole("main").getByText("Rs. 1,000", { exact: true })).toBeVisible();
  await visitor.goto("/cart");
  await expect(visitor.getByRole("listitem", { name }).getByText("Rs. 1,000", { exact: true }).first()).toBeVisible();
  await expect(visitor.getByRole("listitem", { name }).locator("del")).toHaveCount(0);
  await visitor.context().close();
});

test("an empty sale says so in a sentence, and the page is reached from the home banner", async ({ page, shopDb }) => {
  await onlyOurOwnSales(shopDb);
  // After every window this suite sets (none of its plants is on sale without one).
  setShopClock("2031-01-01T00:00:00.000Z");
  await page.goto("/");
  await page.getByRole("link", { name: messages.home.promoBanner }).click();
  await expect(page).toHaveURL(urlIs("/sale"));
  await expect(page.getByRole("heading", { level: 1, name: messages.sale.heading })).toBeVisible();
  await expect(async () => {
    await page.goto("/sale");
    await expect(page.getByText(messages.sale.empty)).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });
});
