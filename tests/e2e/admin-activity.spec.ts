import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { adminMessages } from "../../common/admin/admin-messages.ts";
import { formatPriceExact } from "../../common/shared/money.ts";
import { createProduct } from "../support/factories.ts";
import { setStockAsAdmin } from "./support/api.ts";
import { expect, test } from "./support/fixtures.ts";
import { signedInShopper } from "./support/live.ts";
import { ADMIN, hydrated, logIn, urlIs } from "./support/pages.ts";

// The audit trail as the owner reads it (docs/decisions/057): a change made through the product form shows on
// /admin/activity with who, what and before → after, and each line's links narrow the page to its thing or person.

const origin = () => `http://127.0.0.1:${process.env.E2E_PORT}`;
const authSecret = () => readFileSync(path.join(process.env.E2E_DATA_DIR!, "auth-secret"), "utf8").trim();

test("a price changed in the product form shows on the activity page with who and before → after; its product's link shows only that product's lines, its person's link only theirs", async ({ page, browser, shopDb }) => {
  test.setTimeout(90_000);
  const plant = await createProduct(shopDb.db, { name: `Audited Fern ${randomUUID().slice(0, 8)}`, price_paise: 49_900, stock: 10 });
  const other = await createProduct(shopDb.db, { name: `Other Fern ${randomUUID().slice(0, 8)}`, stock: 10 });

  // Another admin, in a browser of their own, changes the same plant's stock: a line about it that is not the owner's.
  const colleagueContext = await browser.newContext();
  const colleague = await signedInShopper(colleagueContext, shopDb, origin(), authSecret(), { name: "Ravi Menon", isAdmin: true });
  const stockSet = await colleagueContext.request.patch(`${origin()}/api/admin/products/${plant.id}/stock`, { data: { stock: 7 }, headers: { Origin: origin() } });
  expect(stockSet.status()).toBe(200);
  await colleagueContext.close();
  // And the owner changes another plant: a line of theirs that is not about this plant.
  await setStockAsAdmin(other.id, 4);

  await logIn(page, ADMIN);
  await page.goto(`/product/${plant.id}/edit`);
  await expect(page.getByLabel("Product Price")).toHaveValue("499");
  const save = page.getByRole("button", { name: adminMessages.productForm.updateHeading });
  await hydrated(save, 30_000);
  await page.getByLabel("Product Price").fill("449");
  await save.click();
  await expect(page).toHaveURL(urlIs(`/product/${plant.id}`));

  await page.goto("/admin/activity");
  const changes = page.getByRole("list", { name: "Changes" }).getByRole("listitem");
  const priceLine = changes.filter({ hasText: `Price of ${plant.name} ${formatPriceExact(49_900)} → ${formatPriceExact(44_900)}` });
  await expect(priceLine).toHaveCount(1);
  await expect(priceLine.getByRole("link", { name: `(${ADMIN.email})` })).toBeVisible();

  await priceLine.getByRole("link", { name: plant.name, exact: true }).click();
  await expect(page).toHaveURL(urlIs(`/admin/activity?kind=product&thing=${plant.id}`));
  // The owner's price and the colleague's stock, newest first; the other plant's line is gone.
  await expect(changes).toHaveText([new RegExp(`^Price of ${plant.name} `), new RegExp(`^Stock of ${plant.name} 10 → 7.*Ravi Menon`)]);

  await changes.first().getByRole("link", { name: `(${ADMIN.email})` }).click();
  await expect(page).toHaveURL(/\/admin\/activity\?actor=[^&]+$/);
  await expect(changes.filter({ hasText: `Stock of ${other.name} 10 → 4` })).toHaveCount(1);
  await expect(changes.filter({ hasText: `Price of ${plant.name} ` })).toHaveCount(1);
  // Nothing of the colleague's: every line is the owner's.
  await expect(changes.filter({ hasText: colleague.name })).toHaveCount(0);
  for (const line of await changes.all()) await expect(line.getByRole("link", { name: `(${ADMIN.email})` })).toBeVisible();
});
