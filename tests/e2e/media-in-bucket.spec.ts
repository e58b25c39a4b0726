import { randomUUID } from "node:crypto";
import path from "node:path";
import { expect, test } from "@playwright/test";
import sharp from "sharp";
import { adminMessages } from "../../common/admin/admin-messages.ts";
import { openDatabase, type Database } from "../../server/platform/db/client.ts";
import { createCategory } from "../support/factories.ts";
import { startTestS3Server, type TestS3Server } from "../support/s3-server.ts";
import { extraPort, startShopProcess, stopShopProcess, waitUntilHealthy, type ShopProcess } from "../support/shop-process.ts";
import { freshPostgresDatabase } from "./support/e2e-database.ts";
import { ADMIN } from "./support/pages.ts";
import { fileOf, fillProductDetails, hydrated, logInAsAdmin, removeFiles } from "./support/upload-files.ts";

// A built server with MEDIA_S3_* pointing at a real S3-protocol server (s3rver) on loopback: a picture an admin adds
// in the browser is stored in the bucket, and the product page's <img> is loaded from the bucket's address (the
// shop's /media answers a redirect there, and the page's Content-Security-Policy lets it through).

const state: { s3?: TestS3Server; shop?: ShopProcess; database?: Database } = {};

test.afterAll(async () => {
  if (state.shop) await stopShopProcess(state.shop);
  await state.database?.destroy();
  await state.s3?.close();
  removeFiles();
});

test("a product picture added in the browser is stored in the bucket and the product page shows it from the bucket's address", async ({ browser }) => {
  // A picture is decoded into WebP and AVIF on a machine other builds may share: a bound, not a timing claim.
  test.setTimeout(180_000);
  const s3 = (state.s3 = await startTestS3Server());
  const databaseUrl = process.env.E2E_DATABASE_URL ? freshPostgresDatabase(process.env.E2E_DATABASE_URL) : undefined;
  const shop = (state.shop = startShopProcess({
    port: extraPort(0),
    ...(databaseUrl ? { databaseUrl } : {}),
    env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ...s3.env },
  }));
  await waitUntilHealthy(shop);
  const database = (state.database = databaseUrl ? openDatabase({ databaseUrl, poolSize: 2 }) : openDatabase({ sqliteFile: path.join(shop.dataDir, "shop.db") }));
  const category = await createCategory(database.db, { name: `Bucket Shelf ${randomUUID().slice(0, 8)}` });

  const context = await browser.newContext({ baseURL: shop.url });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  await logInAsAdmin(page);
  await page.goto("/add-product");
  const name = `bucket fern ${randomUUID().slice(0, 8)}`;
  await fillProductDetails(page, name, category.name);
  const productImages = page.getByLabel("Product Images", { exact: true });
  await hydrated(productImages);
  const png = await sharp({ create: { width: 320, height: 240, channels: 3, background: "#52796f" } }).png().toBuffer();
  await productImages.setInputFiles(fileOf(`bucket-${randomUUID().slice(0, 8)}.png`, png));
  await expect(page.locator('input[type="hidden"][name="images"]')).toHaveCount(1, { timeout: 60_000 });

  const fromBucket = page.waitForResponse((response) => response.url().startsWith(`${s3.settings.publicUrl}/`) && response.status() === 200, { timeout: 60_000 });
  await page.getByRole("button", { name: adminMessages.productForm.addHeading }).click();
  await expect(page).toHaveURL(/\/product\/[\w-]+$/, { timeout: 120_000 });
  const bucketResponse = await fromBucket;
  expect(bucketResponse.headers()["content-type"]).toMatch(/^image\/(webp|avif)$/);

  const picture = page.locator("main img").first();
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 30_000 }).toBeGreaterThan(0);
  expect(await picture.getAttribute("src")).toMatch(/^\/media\//);
  expect(errors, "the browser reported errors (a picture the policy blocked is one)").toEqual([]);
  await context.close();
});
