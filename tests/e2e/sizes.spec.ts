import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { messages } from "../../common/shared/messages.ts";
import { formatPrice } from "../../common/shared/money.ts";
import type { Database } from "../../server/platform/db/client.ts";
import { createProductWithSizes } from "../support/factories.ts";
import { expect, seriousAccessibilityViolations, test } from "./support/fixtures.ts";
import { LIVE_UPDATE_TIMEOUT, signedInShopper, stillSameDocument } from "./support/live.ts";
import { mailWithSubject } from "./support/mail.ts";
import { hydrated, urlIs } from "./support/pages.ts";
import { cartCountName, cartLink, fillShipping, orderIdFromUrl, orderNumberOf } from "./support/shopper.ts";

// A plant sold in several sizes (docs/decisions/048): the shopper chooses one on its page, with or without
// JavaScript; its price, stock and Add to Cart follow the choice, and the cart and the order keep each size apart.

const origin = `http://127.0.0.1:${process.env.E2E_PORT}`;
const LARGE = 'Large · 10" pot';
const MEDIUM = 'Medium · 8" pot';

/** The sample Fiddle Leaf Fig and its sizes as the database holds them now (other tests in this file buy some). */
async function fig(shopDb: Database) {
  const product = await shopDb.db.selectFrom("products").select(["id"]).where("name", "=", "Fiddle Leaf Fig").executeTakeFirstOrThrow();
  const sizes = await shopDb.db
    .selectFrom("product_variants")
    .select(["id", "label", "sku", "price_paise", "stock"])
    .where("product_id", "=", product.id)
    .orderBy("position")
    .execute();
  const size = (label: string) => {
    const found = sizes.find((variant) => variant.label === label);
    if (!found) throw new Error(`the Fiddle Leaf Fig has no size ${label}`);
    return found;
  };
  return { id: product.id, sizes, size };
}

const sizeGroup = (page: Page) => page.getByRole("group", { name: messages.product.sizeLegend });
/** The product page's own price (the size choice shows each size's too). */
const price = (page: Page) => page.getByTestId("product-price");

test.describe("sizes", () => {
  test("choosing 'Large · 10\" pot' shows its price and stock and puts ?variant= in the URL without a reload, a scroll jump or a history entry; Add to Cart adds that size", async ({ page, shopDb }) => {
    const plant = await fig(shopDb);
    const large = plant.size(LARGE);
    const medium = plant.size(MEDIUM);
    await page.goto(`/product/${plant.id}`);
    const group = sizeGroup(page);
    await expect(group.getByRole("radio")).toHaveCount(3);
    // No choice in the URL: the first size.
    await expect(group.getByRole("radio", { name: MEDIUM })).toBeChecked();
    await expect(price(page)).toHaveText(formatPrice(medium.price_paise));
    await expect(page.getByText(messages.product.availableStock(medium.stock), { exact: true })).toBeVisible();

    const largeRadio = group.getByRole("radio", { name: LARGE });
    await hydrated(largeRadio);
    await page.evaluate(() => ((window as unknown as { liveTestMark: string }).liveTestMark = "same document"));
    // Scrolled down to the choice on a short window: choosing must not jump to the top, nor add a history entry.
    await page.setViewportSize({ width: 800, height: 400 });
    await page.evaluate(() => window.scrollTo(0, 200));
    const before = await page.evaluate(() => ({ y: window.scrollY, entries: history.length }));
    expect(before.y).toBeGreaterThan(0);
    await largeRadio.check();
    await expect(page).toHaveURL(urlIs(`/product/${plant.id}?variant=${large.id}`));
    expect(await page.evaluate(() => ({ y: window.scrollY, entries: history.length }))).toEqual(before);
    await expect(price(page)).toHaveText("Rs. 3,800");
    await expect(page.getByText(messages.product.availableStock(large.stock), { exact: true })).toBeVisible();
    // With JavaScript the choice shows at once: the button for pages without it is gone, and the page never reloaded.
    await expect(page.getByRole("button", { name: messages.product.showSize })).toHaveCount(0);
    expect(await stillSameDocument(page)).toBe(true);

    await page.getByRole("button", { name: messages.product.addToCart }).click();
    await expect(cartLink(page)).toHaveAccessibleName(cartCountName(1));
    await cartLink(page).click();
    await expect(page.getByRole("listitem", { name: `Fiddle Leaf Fig (${LARGE})`, exact: true })).toContainText(`Size: ${LARGE}`);
  });

  test("a sold-out size stays choosable and says so; the page then says 'Not in Stock' and Add to Cart is disabled", async ({ page, shopDb }) => {
    const { product: plant } = await createProductWithSizes(shopDb.db, [
      { label: "Small", price_paise: 50_000, stock: 3 },
      { label: "Large", price_paise: 90_000, stock: 0 },
    ]);
    await page.goto(`/product/${plant.id}`);
    const soldOut = sizeGroup(page).getByRole("radio", { name: new RegExp(`^Large .*${messages.product.sizeSoldOut}$`) });
    await expect(soldOut).toBeEnabled();
    await hydrated(soldOut);
    await soldOut.check();
    await expect(page.getByText(messages.product.notInStock, { exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: messages.product.addToCart })).toBeDisabled();
    await sizeGroup(page).getByRole("radio", { name: /^Small / }).check();
    await expect(page.getByText(messages.product.availableStock(3), { exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: messages.product.addToCart })).toBeEnabled();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });

  test("without JavaScript: 'Show this size' reloads the page at ?variant=, which shows that size, and Add to Cart adds it", async ({ browser, shopDb }) => {
    const plant = await fig(shopDb);
    const large = plant.size(LARGE);
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(`${origin}/product/${plant.id}`);
      await sizeGroup(page).getByRole("radio", { name: LARGE }).check();
      await page.getByRole("button", { name: messages.product.showSize }).click();
      await expect(page).toHaveURL(urlIs(`/product/${plant.id}?variant=${large.id}`));
      await expect(sizeGroup(page).getByRole("radio", { name: LARGE })).toBeChecked();
      await expect(price(page)).toHaveText("Rs. 3,800");
      await expect(page.getByText(messages.product.availableStock(large.stock), { exact: true })).toBeVisible();

      await page.getByRole("button", { name: messages.product.addToCart }).click();
      // The answer to the post is the page again, at the size added.
      await expect(sizeGroup(page).getByRole("radio", { name: LARGE })).toBeChecked();
      await page.goto(`${origin}/cart`);
      await expect(page.getByRole("listitem", { name: `Fiddle Leaf Fig (${LARGE})` })).toContainText(`Size: ${LARGE}`);
    } finally {
      await context.close();
    }
  });

  test("two sizes of one plant are two cart lines, named by their sizes; the order and its mail keep each size's label and SKU", async ({ browser, shopDb }) => {
    test.setTimeout(90_000);
    const plant = await fig(shopDb);
    const large = plant.size(LARGE);
    const medium = plant.size(MEDIUM);
    const context = await browser.newContext();
    try {
      const secret = readFileSync(path.join(process.env.E2E_DATA_DIR!, "auth-secret"), "utf8").trim();
      const shopper = await signedInShopper(context, shopDb, origin, secret, { name: "Anika Rao" });
      const page = await context.newPage();
      await page.goto(`${origin}/product/${plant.id}?variant=${large.id}`);
      const add = page.getByRole("button", { name: messages.product.addToCart });
      await hydrated(add);
      await add.click();
      await expect(cartLink(page)).toHaveAccessibleName(cartCountName(1));
      await sizeGroup(page).getByRole("radio", { name: MEDIUM }).check();
      await expect(page).toHaveURL(urlIs(`/product/${plant.id}?variant=${medium.id}`));
      await add.click();
      await expect(cartLink(page)).toHaveAccessibleName(cartCountName(2));

      await cartLink(page).click();
      const largeLine = page.getByRole("listitem", { name: `Fiddle Leaf Fig (${LARGE})`, exact: true });
      const mediumLine = page.getByRole("listitem", { name: `Fiddle Leaf Fig (${MEDIUM})`, exact: true });
      await expect(largeLine).toContainText(`Size: ${LARGE}`);
      await expect(largeLine).toContainText("Rs. 3,800");
      await expect(mediumLine).toContainText(`Size: ${MEDIUM}`);
      // A screen reader tells the two lines' buttons apart by the size.
      await expect(largeLine.getByRole("button", { name: `One more Fiddle Leaf Fig (${LARGE})` })).toBeVisible();
      await expect(mediumLine.getByRole("button", { name: `Remove Fiddle Leaf Fig (${MEDIUM})` })).toBeVisible();

      await page.getByRole("link", { name: messages.cart.checkOut }).click();
      await fillShipping(page);
      await page.getByRole("button", { name: messages.checkout.placeOrder }).click();
      await expect(page).toHaveURL(/\/orders\/[\w-]+$/);
      const orderId = orderIdFromUrl(page);
      const number = await orderNumberOf(shopDb, orderId);
      const orderLines = page.getByRole("table", { name: "Order lines" });
      await expect(orderLines).toContainText(`Size: ${LARGE} · SKU ${large.sku}`);
      await expect(orderLines).toContainText(`Size: ${MEDIUM} · SKU ${medium.sku}`);

      const mail = await mailWithSubject(shopper.email, `Order ${number} is placed`);
      expect(mail.text).toContain(`Fiddle Leaf Fig (${LARGE}) · SKU ${large.sku}`);
      expect(mail.text).toContain(`Fiddle Leaf Fig (${MEDIUM}) · SKU ${medium.sku}`);
      // The sizes' own stock went down, one each.
      const after = await fig(shopDb);
      expect([after.size(LARGE).stock, after.size(MEDIUM).stock]).toEqual([large.stock - 1, medium.stock - 1]);
    } finally {
      await context.close();
    }
  });

  test("a page open at one size shows that size's stock live when someone buys it", async ({ browser, shopDb }) => {
    test.setTimeout(120_000);
    const plant = await fig(shopDb);
    const large = plant.size(LARGE);
    const watching = await browser.newContext();
    const buying = await browser.newContext();
    try {
      const watcher = await watching.newPage();
      const subscribed = watcher.waitForResponse((response) => response.url() === `${origin}/api/products/${plant.id}/events`);
      await watcher.goto(`${origin}/product/${plant.id}?variant=${large.id}`);
      expect((await subscribed).status()).toBe(200);
      await expect(watcher.getByText(messages.product.availableStock(large.stock), { exact: true })).toBeVisible();

      const secret = readFileSync(path.join(process.env.E2E_DATA_DIR!, "auth-secret"), "utf8").trim();
      await signedInShopper(buying, shopDb, origin, secret);
      const buyer = await buying.newPage();
      await buyer.goto(`${origin}/product/${plant.id}?variant=${large.id}`);
      const add = buyer.getByRole("button", { name: messages.product.addToCart });
      await hydrated(add);
      await add.click();
      await expect(cartLink(buyer)).toHaveAccessibleName(cartCountName(1));
      await buyer.goto(`${origin}/checkout`);
      await fillShipping(buyer);
      await buyer.getByRole("button", { name: messages.checkout.placeOrder }).click();
      await expect(buyer).toHaveURL(/\/orders\/[\w-]+$/);

      await expect(watcher.getByText(messages.product.availableStock(large.stock - 1), { exact: true })).toBeVisible(LIVE_UPDATE_TIMEOUT);
      await expect(sizeGroup(watcher).getByRole("radio", { name: LARGE })).toBeChecked();
    } finally {
      await watching.close();
      await buying.close();
    }
  });

  test("a card says 'From Rs. 2,500' when the sizes' prices differ, in the shop's search and on the category page; a one-price plant's card does not", async ({ page, shopDb }) => {
    const category = await shopDb.db
      .selectFrom("products")
      .innerJoin("categories", "categories.id", "products.category_id")
      .select("categories.id")
      .where("products.name", "=", "Fiddle Leaf Fig")
      .executeTakeFirstOrThrow();
    const card = (name: string) => page.getByRole("article").filter({ has: page.getByRole("link", { name, exact: true }) });
    await page.goto("/shop?q=fiddle");
    await expect(card("Fiddle Leaf Fig")).toContainText("From Rs. 2,500");
    await page.goto("/shop?q=snake");
    await expect(card("Snake Plant")).toContainText("Rs. 1,500");
    await expect(card("Snake Plant")).not.toContainText("From");
    await page.goto(`/category/${category.id}`);
    await expect(page.getByRole("listitem").filter({ hasText: "Fiddle Leaf Fig" })).toContainText("From Rs. 2,500.00");
  });

  test("the structured data has one offer per size, each with its SKU, price in rupees and link to the size", async ({ page, shopDb }) => {
    const plant = await fig(shopDb);
    await page.goto(`/product/${plant.id}`);
    const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? "{}");
    expect(jsonLd.offers.offers).toEqual(
      plant.sizes.map((size) => ({
        "@type": "Offer",
        name: size.label,
        sku: size.sku,
        url: `${origin}/product/${plant.id}?variant=${size.id}`,
        priceCurrency: "INR",
        price: (size.price_paise / 100).toFixed(2),
        availability: size.stock > 0 ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
      })),
    );
    expect(plant.sizes).toHaveLength(3);
  });
});
