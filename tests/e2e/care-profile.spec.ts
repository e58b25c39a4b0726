import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { messages } from "../../common/shared/messages.ts";
import { createProduct } from "../support/factories.ts";
import { allowStatusLogs, expect as baseExpect, seriousAccessibilityViolations, test } from "./support/fixtures.ts";
import { ADMIN, adminWithoutJavaScript, hydrated, logIn } from "./support/pages.ts";

// A plant's care profile (docs/product.md, Product form and Product page): the owner fills the form's Care section,
// and the product page shows it as a care card a screen reader reads line by line, and in its structured data.

const c = messages.careProfile;
// The machine running the suite may be shared: a longer bound on waiting, asserting no timing.
const expect = baseExpect.configure({ timeout: 30_000 });
const unique = (name: string) => `${name} ${randomUUID().slice(0, 8)}`;

/** The product page's structured data, as a search engine reads it. */
async function structuredData(page: Page): Promise<{ additionalProperty?: unknown }> {
  return JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? "{}") as { additionalProperty?: unknown };
}

const careSection = (page: Page) => page.getByRole("group", { name: "Care (optional)" });

test.describe.configure({ timeout: 180_000 });

test("the owner fills a plant's Care section; its page shows the care card in words a screen reader reads, and the structured data lists them", async ({ page, shopDb }) => {
  const plant = await createProduct(shopDb.db, { name: unique("Care Fern"), stock: 4 });
  await page.goto(`/product/${plant.id}`);
  await expect(page.getByRole("heading", { name: plant.name })).toBeVisible();
  await expect(page.getByRole("list", { name: "Plant care" })).toHaveCount(0);
  expect((await structuredData(page)).additionalProperty).toBeUndefined();

  await logIn(page, ADMIN);
  await page.goto(`/product/${plant.id}/edit`);
  const care = careSection(page);
  await hydrated(care.getByLabel("Light"), 30_000);
  await care.getByLabel("Light").selectOption({ label: "Bright indirect light" });
  await care.getByLabel("Watering").fill("When the top 2 cm of soil is dry");
  await care.getByLabel("Water every (days)").fill("weekly");
  await care.getByLabel("Pets").selectOption({ label: "Not pet-safe" });
  await care.getByLabel("Difficulty").selectOption({ label: "Beginner" });
  await care.getByLabel("Where it grows").selectOption({ label: "Indoor" });
  await care.getByLabel("Mature height (cm)").fill("120");
  await care.getByLabel("Flowering season").fill("Spring");
  await page.getByRole("button", { name: "Update Product" }).click();
  // Checked in the browser before anything is sent: the message under its field, which takes the focus.
  const days = care.getByLabel("Water every (days)");
  await expect(days).toHaveAccessibleDescription(c.waterEveryDaysInvalid(90));
  await expect(days).toBeFocused();

  await days.fill("7");
  await page.getByRole("button", { name: "Update Product" }).click();
  await expect(page).toHaveURL(new RegExp(`/product/${plant.id}$`));
  const card = page.getByRole("list", { name: "Plant care" });
  await expect(card.getByRole("listitem")).toHaveText([
    "Light: Bright indirect light",
    "Water: When the top 2 cm of soil is dry (about every 7 days)",
    "Pets: Not pet-safe — keep away from cats and dogs",
    "Care: Beginner",
    "Where: Indoor",
    "Height: up to 120 cm",
    "Flowers: Spring",
  ]);
  // The icons are decoration, hidden from screen readers: what one hears of a line is its words.
  await expect(card.locator("svg")).toHaveCount(7);
  await expect(card.locator('svg[aria-hidden="true"]')).toHaveCount(7);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  expect((await structuredData(page)).additionalProperty).toEqual([
    { "@type": "PropertyValue", name: "Light", value: "Bright indirect light" },
    { "@type": "PropertyValue", name: "Watering", value: "When the top 2 cm of soil is dry (about every 7 days)" },
    { "@type": "PropertyValue", name: "Pet safety", value: "Not pet-safe" },
    { "@type": "PropertyValue", name: "Difficulty", value: "Beginner" },
    { "@type": "PropertyValue", name: "Where it grows", value: "Indoor" },
    { "@type": "PropertyValue", name: "Mature height", value: 120, unitCode: "CMT", unitText: "cm" },
    { "@type": "PropertyValue", name: "Flowering season", value: "Spring" },
  ]);

  // The edit form shows the profile as saved; emptied, the card goes.
  await page.goto(`/product/${plant.id}/edit`);
  await expect(care.getByLabel("Light")).toHaveValue("bright-indirect");
  await expect(care.getByLabel("Mature height (cm)")).toHaveValue("120");
  await hydrated(care.getByLabel("Light"), 30_000);
  for (const label of ["Light", "Pets", "Difficulty", "Where it grows"]) await care.getByLabel(label).selectOption("");
  for (const label of ["Watering", "Water every (days)", "Mature height (cm)", "Flowering season"]) await care.getByLabel(label).fill("");
  await page.getByRole("button", { name: "Update Product" }).click();
  await expect(page).toHaveURL(new RegExp(`/product/${plant.id}$`));
  await expect(page.getByRole("heading", { name: plant.name })).toBeVisible();
  await expect(page.getByRole("list", { name: "Plant care" })).toHaveCount(0);
  expect((await structuredData(page)).additionalProperty).toBeUndefined();
});

test("without JavaScript the Care section's refused value is shown under its field, and a right one is saved", async ({ browser, shopDb, consoleErrors }) => {
  const plant = await createProduct(shopDb.db, { name: unique("Plain Care Fern"), stock: 4 });
  const { context, page } = await adminWithoutJavaScript(browser);
  await page.goto(`/product/${plant.id}/edit`);
  const care = careSection(page);
  await care.getByLabel("Light").selectOption({ label: "Direct sun" });
  await care.getByLabel("Where it grows").selectOption({ label: "Indoor or outdoor" });
  await care.getByLabel("Mature height (cm)").fill("2.5");
  await page.getByRole("button", { name: "Update Product" }).click();
  allowStatusLogs(consoleErrors, 400);
  await expect(care.getByLabel("Mature height (cm)")).toHaveAccessibleDescription(c.heightInvalid(5000));
  await expect(page.locator(".field-error")).toHaveCount(1);

  await care.getByLabel("Light").selectOption({ label: "Direct sun" });
  await care.getByLabel("Where it grows").selectOption({ label: "Indoor or outdoor" });
  await care.getByLabel("Mature height (cm)").fill("250");
  await page.getByRole("button", { name: "Update Product" }).click();
  await expect(page).toHaveURL(new RegExp(`/product/${plant.id}$`));
  await expect(page.getByRole("list", { name: "Plant care" }).getByRole("listitem")).toHaveText(["Light: Direct sun", "Where: Indoor or outdoor", "Height: up to 250 cm"]);
  await context.close();
});
