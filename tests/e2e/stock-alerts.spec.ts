import type { Page } from "@playwright/test";
import { sellableName } from "../../common/catalog/variant-names.ts";
import { messages } from "../../common/shared/messages.ts";
import { createProductWithSizes } from "../support/factories.ts";
import { extractLinks } from "../support/smtp-capture.ts";
import { expect, test } from "./support/fixtures.ts";
import { mailWithSubjectMatching } from "./support/mail.ts";
import { ADMIN, hydrated, submitLogin } from "./support/pages.ts";

// "Notify me when it's back" in the browser: a visitor asks on a sold-out size, confirms the address from the mail,
// the owner restocks the size, and the alert mail leads straight to it and lets the visitor stop every alert.

const am = messages.alerts;
const MEDIUM = 'Medium · 8" pot';
const LARGE = 'Large · 10" pot';

function linkIn(text: string, pathname: string): string {
  const link = extractLinks(text).find((found) => new URL(found).pathname === pathname);
  if (!link) throw new Error(`no ${pathname} link in: ${text}`);
  return link;
}

/** The visitor asks for an alert on the size the page shows and confirms it from the mail. */
async function askAndConfirm(page: Page, productUrl: string, email: string, plant: string) {
  await page.goto(productUrl);
  await expect(page.getByText(messages.product.notInStock, { exact: true })).toBeVisible();
  const alert = page.getByRole("region", { name: am.heading });
  const field = alert.getByLabel(am.emailLabel);
  await hydrated(field);
  await field.fill(email);
  await alert.getByRole("button", { name: am.notifyMe }).click();
  await expect(alert.getByRole("status")).toHaveText(am.checkInbox);

  const confirmation = await mailWithSubjectMatching(email, new RegExp(`^Confirm your back-in-stock alert for ${plant.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`));
  await page.goto(linkIn(confirmation.text, "/alerts/confirm"));
  await page.getByRole("button", { name: am.confirmButton }).click();
  await expect(page.getByRole("status")).toHaveText(am.confirmed(plant));
}

test("a visitor's alert on a sold-out size: confirmed from the mail, mailed when the owner restocks it, its link shows the size, and its unsubscribe stops every alert", async ({
  page,
  browser,
  shopDb,
}) => {
  // Two confirmations, a restock and the mails between them: more steps than most tests.
  test.slow();
  const name = `Alert Fig ${Date.now()}`;
  const { product, sizeIds } = await createProductWithSizes(shopDb.db, [
    { label: "Small", price_paise: 50_000, stock: 3 },
    { label: MEDIUM, price_paise: 150_000, stock: 0 },
    { label: LARGE, price_paise: 380_000, stock: 0 },
  ], { name });
  const [, mediumId, largeId] = sizeIds as [string, string, string];
  const email = `visitor-${Date.now()}@example.com`;

  await askAndConfirm(page, `/product/${product.id}?variant=${largeId}`, email, sellableName(name, LARGE));
  await askAndConfirm(page, `/product/${product.id}?variant=${mediumId}`, email, sellableName(name, MEDIUM));

  // The owner, in a browser of their own, sets the large size's stock in place.
  const ownerContext = await browser.newContext();
  try {
    const owner = await ownerContext.newPage();
    await owner.goto("/login");
    await submitLogin(owner, ADMIN);
    await owner.waitForURL((url) => url.pathname !== "/login");
    await owner.goto(`/admin/products?q=${encodeURIComponent(name)}`);
    const row = owner.getByTestId("admin-product-row");
    const largeLabel = `Stock of ${sellableName(name, LARGE)}`;
    const largeStock = row.getByLabel(largeLabel);
    await hydrated(largeStock);
    await largeStock.fill("2");
    await row.getByRole("listitem").filter({ has: owner.getByLabel(largeLabel) }).getByRole("button", { name: "Save" }).click();
    await expect(largeStock).toHaveValue("2");
  } finally {
    await ownerContext.close();
  }

  const alert = await mailWithSubjectMatching(email, /is back in stock$/);
  expect(alert.subject).toBe(`${sellableName(name, LARGE)} is back in stock`);
  const productLink = extractLinks(alert.text).find((link) => new URL(link).pathname === `/product/${product.id}`);
  expect(productLink && new URL(productLink).searchParams.get("variant")).toBe(largeId);
  await page.goto(productLink!);
  await expect(page.getByRole("group", { name: messages.product.sizeLegend }).getByRole("radio", { name: LARGE })).toBeChecked();
  await expect(page.getByText(messages.product.availableStock(2), { exact: true })).toBeVisible();

  // The medium size still waits; the mail's unsubscribe link stops it too.
  const waiting = () => shopDb.db.selectFrom("stock_alerts").select("variant_id").where("email", "=", email).execute();
  expect(await waiting()).toEqual([{ variant_id: mediumId }]);
  await page.goto(linkIn(alert.text, "/alerts/unsubscribe"));
  await expect(page.getByText(am.unsubscribeIntro(email))).toBeVisible();
  await page.getByRole("button", { name: am.unsubscribe }).click();
  await expect(page.getByRole("status")).toHaveText(am.unsubscribed);
  expect(await waiting()).toEqual([]);
});
