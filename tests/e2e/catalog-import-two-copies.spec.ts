import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { catalogCsvMessages as t } from "../../common/admin/catalog-csv.ts";
import { formatPrice } from "../../common/shared/money.ts";
import { createProduct } from "../support/factories.ts";
import { createShopper } from "../support/shoppers.ts";
import { previewPriceEdit } from "./support/catalogue-file.ts";
import { copiesOnPostgres, extraPort, insertSessions, type ShopProcess } from "../support/shop-process.ts";

// A catalogue import with two production copies on one fresh PostgreSQL database, in the browser: the owner's
// requests reach either copy (behind a proxy, whichever it picks), so the preview one copy made is started from the
// other, and the first copy shows the import's progress to the end (docs/decisions/058). Runs only when
// TEST_DATABASE_URL is set (playwright.config.ts ignores it otherwise).

const copies = copiesOnPostgres([extraPort(3), extraPort(4)], "plant_shop_import");
test.afterAll(() => copies.stop());

test("a catalogue file previewed on one copy is imported from the other, and the first copy shows the import finished", async ({ page }) => {
  test.setTimeout(120_000);
  const { shops, database } = await copies.start();
  const [one, two] = shops as [ShopProcess, ShopProcess];
  const plant = await createProduct(database.db, { name: `Two Copies Fern ${randomUUID().slice(0, 8)}`, price_paise: 49_900 });
  const { sku } = await database.db.selectFrom("product_variants").select("sku").where("product_id", "=", plant.id).executeTakeFirstOrThrow();
  const admin = await createShopper(database.db, "postgres", { isAdmin: true });
  const [cookie] = await insertSessions(database.db, [admin.id]);
  const [name, value] = cookie!.split(/=(.*)/s);
  // A cookie is the host's, whatever the port: one sign-in for both copies, as behind one address.
  await page.context().addCookies([{ name: name!, value: value!, url: one.url }]);

  await page.goto(`${one.url}/admin/products`);
  const summary = await previewPriceEdit(page, sku, "449");
  await expect(page.getByText(summary)).toBeVisible();
  const token = new URL(page.url()).searchParams.get("token");
  expect(token).toBeTruthy();

  // The same preview, from the other copy, which starts the import.
  await page.goto(`${two.url}/admin/products/import?token=${token}`);
  await expect(page.getByText(summary)).toBeVisible();
  await page.getByRole("button", { name: t.apply }).click();
  await expect(page).toHaveURL(new RegExp(`^${two.url}/admin/products/import\\?token=`));

  // Back on the first copy, which did not run it: the progress page reloads itself until the import has run.
  await page.goto(`${one.url}/admin/products/import?token=${token}`);
  await expect(page.getByRole("status").filter({ hasText: t.finished })).toHaveText(`${t.finished}: ${t.progress(1, 1)}`, { timeout: 30_000 });
  await expect(page.getByRole("button", { name: t.apply })).toHaveCount(0);

  await page.goto(`${one.url}/product/${plant.id}`);
  await expect(page.getByText(formatPrice(44_900), { exact: true })).toBeVisible();
});
