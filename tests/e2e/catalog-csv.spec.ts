import { randomUUID } from "node:crypto";
import { catalogCsvMessages as t, ORDERS_CSV_COLUMNS } from "../../common/admin/catalog-csv.ts";
import { formatPrice } from "../../common/shared/money.ts";
import { createProduct } from "../support/factories.ts";
import { catalogueFile, downloadedText, exportedCatalogue, previewPriceEdit } from "./support/catalogue-file.ts";
import { expect, test } from "./support/fixtures.ts";
import { ADMIN, logIn } from "./support/pages.ts";

// The catalogue and the orders as spreadsheets, in the browser (docs/decisions/058): the owner downloads the
// catalogue, edits a price in the file, sees the import's preview, applies it and finds the price in the shop.

test("a price edited in the exported catalogue file is previewed as the one changed row, before → after, and once imported the product page shows it", async ({ page, shopDb }) => {
  test.setTimeout(90_000);
  const plant = await createProduct(shopDb.db, { name: `Spreadsheet Fern ${randomUUID().slice(0, 8)}`, price_paise: 49_900 });
  const { sku } = await shopDb.db.selectFrom("product_variants").select("sku").where("product_id", "=", plant.id).executeTakeFirstOrThrow();
  await logIn(page, ADMIN);

  await page.goto("/admin/products");
  await expect(page.getByText(await previewPriceEdit(page, sku, "449"))).toBeVisible();
  // The preview lists only the rows that are not unchanged: this one.
  const listed = page.getByRole("table").getByRole("row");
  await expect(listed).toHaveCount(2);
  await expect(listed.filter({ hasText: sku })).toContainText(`changed price ${formatPrice(49_900)} → ${formatPrice(44_900)}`);

  await page.getByRole("button", { name: t.apply }).click();
  // The progress page reloads itself until the import has run.
  await expect(page.getByRole("status").filter({ hasText: t.finished })).toHaveText(`${t.finished}: ${t.progress(1, 1)}`, { timeout: 30_000 });

  await page.goto(`/product/${plant.id}`);
  await expect(page.getByText(formatPrice(44_900), { exact: true })).toBeVisible();
});

test("an import left running by a server that stopped in the middle shows as stopped, stops reloading and offers a new upload", async ({ page, shopDb }) => {
  const plant = await createProduct(shopDb.db, { name: `Stopped Import Fern ${randomUUID().slice(0, 8)}`, price_paise: 49_900 });
  const { sku } = await shopDb.db.selectFrom("product_variants").select("sku").where("product_id", "=", plant.id).executeTakeFirstOrThrow();
  await logIn(page, ADMIN);
  await page.goto("/admin/products");
  const { header, body } = await exportedCatalogue(page);
  const edited = body.find((row) => row[header.indexOf("sku")] === sku)!;
  edited[header.indexOf("price")] = "449";
  await page.getByRole("link", { name: "Import CSV" }).click();
  await page.getByLabel(t.chooseFile).setInputFiles(catalogueFile(header, [edited], "one.csv"));
  await page.getByRole("button", { name: t.preview }).click();
  await expect(page.getByRole("button", { name: t.apply })).toBeEnabled();
  const token = new URL(page.url()).searchParams.get("token")!;

  // What a server restarted in the middle of this import leaves: the import running, its last progress ten minutes old.
  const row = await shopDb.db.selectFrom("catalog_imports").select("view").where("token", "=", token).executeTakeFirstOrThrow();
  const running = { ...(JSON.parse(row.view) as object), state: "running", done: 0 };
  const tenMinutesAgo = new Date(Date.now() - 10 * 60 * 1000).toISOString();
  await shopDb.db.updateTable("catalog_imports").set({ state: "running", view: JSON.stringify(running), updated_at: tenMinutesAgo }).where("token", "=", token).execute();

  await page.reload();
  await expect(page.getByRole("status")).toHaveText(t.progress(0, 1));
  await expect(page.getByText(t.stopped)).toBeVisible();
  await expect(page.locator('meta[http-equiv="refresh"]')).toHaveCount(0);
  await page.getByRole("link", { name: "Upload a file" }).click();
  await expect(page.getByLabel(t.chooseFile)).toBeVisible();
});

test("the orders export downloads a CSV file that starts with the orders' header line", async ({ page }) => {
  await logIn(page, ADMIN);
  await page.goto("/admin/orders");
  const downloading = page.waitForEvent("download");
  await page.getByRole("form", { name: t.ordersExportHeading }).getByRole("button", { name: t.exportButton }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  expect((await downloadedText(download)).split(/\r?\n/)[0]).toBe(ORDERS_CSV_COLUMNS.join(","));
});
