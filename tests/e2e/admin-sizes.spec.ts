import { randomUUID } from "node:crypto";
import type { Locator, Page } from "@playwright/test";
import { sql } from "kysely";
import sharp from "sharp";
import { adminMessages } from "../../common/admin/admin-messages.ts";
import { sellableName } from "../../common/catalog/variant-names.ts";
import { messages } from "../../common/shared/messages.ts";
import { createCategory, createProductWithSizes } from "../support/factories.ts";
import { allowStatusLogs, expect as baseExpect, test } from "./support/fixtures.ts";
import { ADMIN, submitLogin, toast, urlIs } from "./support/pages.ts";

// The owner's sizes (docs/product.md, Product form): a plant made in several sizes, reordered and trimmed, each size's
// stock set in place, a low size on the overview, and a sale on a size shown on the product page.

const f = adminMessages.productForm;
// Saving decodes the picture into WebP and AVIF on a machine shared with other builds: a longer bound on waiting.
const expect = baseExpect.configure({ timeout: 30_000 });

async function hydrated(element: Locator) {
  await expect
    .poll(() => element.evaluate((el) => Object.keys(el).some((key) => key.startsWith("__reactProps"))), { message: "the page hydrates", timeout: 30_000 })
    .toBe(true);
}

const SMALL = 'Small · 6" pot';
const MEDIUM = 'Medium · 8" pot';
const LARGE = 'Large · 10" pot';

/** The row of the n-th size (from 1) in the form. */
const sizeRow = (page: Page, n: number) => page.getByRole("group", { name: `Size ${n}`, exact: true });

async function fillSize(row: Locator, size: { label: string; sku: string; price?: string; stock?: string }) {
  await row.getByLabel("Label", { exact: true }).fill(size.label);
  await row.getByLabel("SKU", { exact: true }).fill(size.sku);
  if (size.price !== undefined) await row.getByLabel("Price (Rs.)", { exact: true }).fill(size.price);
  if (size.stock !== undefined) await row.getByLabel("Stock", { exact: true }).fill(size.stock);
}

/** The sizes the product's JSON lists, in the shop's order. */
async function sizesInJson(page: Page, productId: string) {
  const answer = await page.request.get(`/api/products/${productId}`);
  expect(answer.status()).toBe(200);
  const product = (await answer.json()) as { variants: { label: string; sku: string; pricePaise: number; stock: number; sale: { regularPaise: number } | null }[] };
  return product.variants.map(({ label, sku, pricePaise, stock, sale }) => ({ label, sku, pricePaise, stock, regularPaise: sale?.regularPaise ?? null }));
}

test.describe.configure({ timeout: 240_000 });

test("the owner edits a plant's sizes and a sale: adds sizes to a new plant, reorders and removes one, sets a size's stock in place, sees it low on the overview, and puts one size on sale", async ({ page, shopDb }) => {
  const category = await createCategory(shopDb.db, { name: `Size Shelf ${randomUUID().slice(0, 8)}` });
  const name = `Sized Fig ${randomUUID().slice(0, 8)}`;
  const tag = randomUUID().slice(0, 6).toUpperCase();
  const sku = (size: string) => `FIG-${tag}-${size}`;

  await page.goto("/login");
  await submitLogin(page, ADMIN);
  await expect(toast(page, messages.auth.loggedIn)).toBeVisible();

  // A new plant: typed as one size, then given two more.
  await page.goto("/add-product");
  await page.getByLabel("Product Name").fill(name);
  await page.getByLabel("Product Description").fill("Violin-shaped leaves, in three pot sizes.");
  await page.getByLabel("Product Price").fill("900");
  await page.getByLabel("Stock Quantity").fill("7");
  await page.getByLabel("Product Category").fill(category.name);
  const addSize = page.getByRole("button", { name: "Add a size" });
  await hydrated(addSize);
  await addSize.click();
  // The one-size fields became the first row, as typed.
  await expect(sizeRow(page, 1).getByLabel("Price (Rs.)", { exact: true })).toHaveValue("900");
  await expect(sizeRow(page, 1).getByLabel("Stock", { exact: true })).toHaveValue("7");
  await expect(page.getByLabel("Product Price")).toHaveCount(0);
  await fillSize(sizeRow(page, 1), { label: SMALL, sku: sku("S") });
  await fillSize(sizeRow(page, 2), { label: MEDIUM, sku: sku("M"), price: "1,600", stock: "9" });
  await page.getByRole("button", { name: "Add a size" }).click();
  await fillSize(sizeRow(page, 3), { label: LARGE, sku: sku("L"), price: "2400", stock: "4" });
  const picture = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#3a7d44" } }).png().toBuffer();
  await page.getByLabel("Product Images", { exact: true }).setInputFiles({ name: "fig.png", mimeType: "image/png", buffer: picture });
  await expect(page.locator('input[type="hidden"][name="images"]')).toHaveCount(1, { timeout: 60_000 });
  await page.getByRole("button", { name: f.addHeading }).click();

  await expect(page).toHaveURL(/\/product\/[\w-]+$/, { timeout: 120_000 });
  const productId = new URL(page.url()).pathname.split("/").pop()!;
  expect(await sizesInJson(page, productId)).toEqual([
    { label: SMALL, sku: sku("S"), pricePaise: 90_000, stock: 7, regularPaise: null },
    { label: MEDIUM, sku: sku("M"), pricePaise: 160_000, stock: 9, regularPaise: null },
    { label: LARGE, sku: sku("L"), pricePaise: 240_000, stock: 4, regularPaise: null },
  ]);

  // Reordered (Large first) and trimmed (no Medium).
  await page.goto(`/product/${productId}/edit`);
  await expect(page.getByTestId("size-row")).toHaveCount(3);
  const moveLargeUp = page.getByRole("button", { name: `Move '${LARGE}' up` });
  await hydrated(moveLargeUp);
  await moveLargeUp.click();
  await moveLargeUp.click();
  await page.getByRole("button", { name: `Remove '${MEDIUM}'` }).click();
  await expect(page.getByTestId("size-row")).toHaveCount(2);
  await expect(sizeRow(page, 1).getByLabel("Label", { exact: true })).toHaveValue(LARGE);
  await page.getByRole("button", { name: f.updateHeading }).click();
  await expect(page).toHaveURL(urlIs(`/product/${productId}`));
  expect((await sizesInJson(page, productId)).map((size) => size.label)).toEqual([LARGE, SMALL]);

  // A size's stock in place on /admin/products: its own field, named with the size.
  await page.goto(`/admin/products?q=${encodeURIComponent(name)}`);
  const row = page.getByTestId("admin-product-row");
  await expect(row).toHaveCount(1);
  const smallLabel = `Stock of ${sellableName(name, SMALL)}`;
  const smallStock = row.getByLabel(smallLabel);
  await expect(smallStock).toHaveValue("7");
  await expect(row.getByLabel(`Stock of ${sellableName(name, LARGE)}`)).toHaveValue("4");
  await hydrated(smallStock);
  await smallStock.fill("1");
  await row.getByRole("listitem").filter({ has: page.getByLabel(smallLabel) }).getByRole("button", { name: "Save" }).click();
  await expect(row.getByText(adminMessages.products.stockSaved)).toBeVisible();
  const stocks = await shopDb.db.selectFrom("product_variants").select(["label", "stock"]).where("product_id", "=", productId).orderBy("position").execute();
  expect(stocks).toEqual([
    { label: LARGE, stock: 4 },
    { label: SMALL, stock: 1 },
  ]);
  expect((await shopDb.db.selectFrom("products").select("stock").where("id", "=", productId).executeTakeFirstOrThrow()).stock).toBe(5);

  // The overview lists the ten lowest sizes: other tests' low plants are given more stock first, so ours shows.
  const others = shopDb.db.selectFrom("product_variants").select("product_id").where("stock", "<=", 5).where("product_id", "<>", productId);
  await shopDb.db.updateTable("products").set({ stock: sql`stock + 100` }).where("id", "in", others).execute();
  await shopDb.db.updateTable("product_variants").set({ stock: sql`stock + 100` }).where("stock", "<=", 5).where("product_id", "<>", productId).execute();
  await page.goto("/admin");
  const lowStock = page.getByRole("region", { name: "Low in stock" });
  await expect(lowStock.getByRole("listitem").filter({ hasText: sellableName(name, SMALL) })).toContainText("1 left");
  await expect(lowStock.getByRole("listitem").filter({ hasText: sellableName(name, LARGE) })).toContainText("4 left");

  // A sale on the small size, first again and the cheapest: struck through on the product page.
  await page.goto(`/product/${productId}/edit`);
  const moveSmallUp = page.getByRole("button", { name: `Move '${SMALL}' up` });
  await hydrated(moveSmallUp);
  await moveSmallUp.click();
  await sizeRow(page, 1).getByLabel("Compare-at Price (Rs.)", { exact: true }).fill("1200");
  await page.getByLabel("Sale Starts").fill("2020-01-01T09:00");
  await page.getByLabel("Sale Ends").fill("2099-12-31T09:00");
  await page.getByRole("button", { name: f.updateHeading }).click();
  await expect(page).toHaveURL(urlIs(`/product/${productId}`));
  const price = page.getByRole("main").getByTestId("sale-price").first();
  await expect(price).toContainText("Sale price Rs. 900");
  await expect(price.locator("del")).toHaveText("Regular price Rs. 1,200");
  expect(await sizesInJson(page, productId)).toEqual([
    { label: SMALL, sku: sku("S"), pricePaise: 90_000, stock: 1, regularPaise: 120_000 },
    { label: LARGE, sku: sku("L"), pricePaise: 240_000, stock: 4, regularPaise: null },
  ]);

  // The suite shares one shop: a sale running until 2099 would keep /sale from ever being empty for the tests after.
  await shopDb.db.updateTable("product_variants").set({ compare_at_paise: null }).where("product_id", "=", productId).execute();
  await shopDb.db.updateTable("products").set({ compare_at_paise: null, sale_starts_at: null, sale_ends_at: null }).where("id", "=", productId).execute();
});

test("the sizes' messages name their row: a missing label and a SKU another plant has are shown under that size's fields", async ({ page, shopDb, consoleErrors }) => {
  const category = await createCategory(shopDb.db, { name: `Size Shelf ${randomUUID().slice(0, 8)}` });
  const taken = await shopDb.db.selectFrom("product_variants").select("sku").limit(1).executeTakeFirstOrThrow();
  await page.goto("/login");
  await submitLogin(page, ADMIN);
  await expect(toast(page, messages.auth.loggedIn)).toBeVisible();
  await page.goto("/add-product");
  await page.getByLabel("Product Name").fill(`Sized Palm ${randomUUID().slice(0, 8)}`);
  await page.getByLabel("Product Description").fill("Feathery fronds.");
  await page.getByLabel("Product Category").fill(category.name);
  const addSize = page.getByRole("button", { name: "Add a size" });
  await hydrated(addSize);
  await addSize.click();
  await fillSize(sizeRow(page, 1), { label: SMALL, sku: taken.sku.toLowerCase(), price: "500", stock: "3" });
  await fillSize(sizeRow(page, 2), { label: "", sku: `PALM-${randomUUID().slice(0, 6)}`, price: "900", stock: "2" });
  const picture = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#2f6f3e" } }).png().toBuffer();
  await page.getByLabel("Product Images", { exact: true }).setInputFiles({ name: "palm.png", mimeType: "image/png", buffer: picture });
  await expect(page.locator('input[type="hidden"][name="images"]')).toHaveCount(1, { timeout: 60_000 });

  // Checked in the browser first: the missing label, under size 2's Label, which takes the focus.
  await page.getByRole("button", { name: f.addHeading }).click();
  const label2 = sizeRow(page, 2).getByLabel("Label", { exact: true });
  await expect(label2).toHaveAccessibleDescription(f.sizeLabelRequired);
  await expect(label2).toBeFocused();

  // Then the server: the SKU another plant has, under size 1's SKU, with the form as typed.
  await label2.fill(LARGE);
  await page.getByRole("button", { name: f.addHeading }).click();
  await expect(page.getByTestId("failure-reason")).toHaveText(f.skuTaken);
  await expect(sizeRow(page, 1).getByLabel("SKU", { exact: true })).toHaveAccessibleDescription(f.skuTaken);
  await expect(sizeRow(page, 2).getByLabel("Label", { exact: true })).toHaveValue(LARGE);
  allowStatusLogs(consoleErrors, 409);
});

test("the owner gives a size a picture of its own: the product page opens on it when that size is chosen, from the address and by choosing, and on the plant's first picture for the other size", async ({ page, shopDb }) => {
  const name = `Pictured Fig ${randomUUID().slice(0, 8)}`;
  const [firstPicture, secondPicture] = ["/illustrations/products/fiddle-leaf-fig-1.svg", "/illustrations/products/fiddle-leaf-fig-2.svg"];
  const { product, sizeIds } = await createProductWithSizes(
    shopDb.db,
    [
      { label: MEDIUM, price_paise: 250_000, stock: 10 },
      { label: LARGE, price_paise: 380_000, stock: 5 },
    ],
    { name, images: [firstPicture!, secondPicture!] },
  );
  await page.goto("/login");
  await submitLogin(page, ADMIN);
  await expect(toast(page, messages.auth.loggedIn)).toBeVisible();

  await page.goto(`/product/${product.id}/edit`);
  const picture = sizeRow(page, 2).getByLabel("Picture", { exact: true });
  await hydrated(picture);
  await picture.selectOption({ label: "Picture 2" });
  await page.getByRole("button", { name: f.updateHeading }).click();
  await expect(page).toHaveURL(urlIs(`/product/${product.id}`));

  const shownFirst = page.getByRole("region", { name: `Pictures of ${name}` }).locator("img").first();
  await page.goto(`/product/${product.id}?variant=${sizeIds[1]}`);
  await expect(shownFirst).toHaveAttribute("src", secondPicture!);
  const sizes = page.getByRole("group", { name: messages.product.sizeLegend });
  await hydrated(sizes.getByRole("radio", { name: new RegExp(MEDIUM) }));
  await sizes.getByRole("radio", { name: new RegExp(MEDIUM) }).check();
  await expect(shownFirst).toHaveAttribute("src", firstPicture!);
  await sizes.getByRole("radio", { name: new RegExp(LARGE) }).check();
  await expect(shownFirst).toHaveAttribute("src", secondPicture!);
});
