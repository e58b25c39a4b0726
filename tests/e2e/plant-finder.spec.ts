import { randomUUID } from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import { FINDER_QUESTIONS } from "../../common/catalog/plant-finder.ts";
import { messages } from "../../common/shared/messages.ts";
import type { Database } from "../../server/platform/db/client.ts";
import { createCategory, createProduct } from "../support/factories.ts";
import { expect, test } from "./support/fixtures.ts";
import { hydrated } from "./support/pages.ts";

// The plant finder (docs/product.md, "Plant finder"): a pet-safe plant for a dim room in three clicks on the
// finder, ending on the shop's own filtered list with the sentence that says why, with and without JavaScript.

const [light, pets] = FINDER_QUESTIONS;
const dimRoom = light!.options.find((option) => option.value === "dim")!.label;
const petsAtHome = pets!.options.find((option) => option.value === "yes")!.label;

/** A dim-room plant that is safe for pets and one that is not, under names no other spec uses (the suite's shop is shared). */
async function twoDimRoomPlants(shopDb: Database) {
  const tag = randomUUID().slice(0, 8);
  const category = await createCategory(shopDb.db, { name: `Finder Test ${tag}` });
  const safe = await createProduct(shopDb.db, { name: `Parlour Palm ${tag}`, category_id: category.id, care_light: "low", care_pet_safe: "yes" });
  const unsafe = await createProduct(shopDb.db, { name: `Zamioculcas ${tag}`, category_id: category.id, care_light: "low", care_pet_safe: "no" });
  return { tag, safe, unsafe };
}

/** Answers the two questions and sends the form: three clicks. */
async function findAPetSafePlantForADimRoom(page: Page) {
  await page.getByRole("group", { name: light!.legend }).getByLabel(dimRoom).check();
  await page.getByRole("group", { name: pets!.legend }).getByLabel(petsAtHome).check();
  await page.getByRole("button", { name: messages.plantFinder.submit }).click();
}

async function searchTheList(page: Page, text: string) {
  await page.getByRole("combobox", { name: "Search products" }).fill(text);
  await page.getByRole("button", { name: "Search", exact: true }).click();
}

const cardNames = (page: Page) => page.getByRole("main").getByRole("listitem").getByRole("heading").allTextContents();

test("from the home page, three answers on the finder end on the shop's list of pet-safe plants for low light, saying why", async ({ page, shopDb }) => {
  const { tag } = await twoDimRoomPlants(shopDb);
  await page.goto("/");
  await page.getByRole("link", { name: messages.home.findYourPlant }).click();
  await expect(page.getByRole("heading", { level: 1, name: messages.plantFinder.heading })).toBeVisible();
  await hydrated(page.getByRole("button", { name: messages.plantFinder.submit }));

  await findAPetSafePlantForADimRoom(page);
  await expect(page).toHaveURL(/\/shop\?light=low&pets=safe&finder=1$/);
  await expect(page.getByText("These plants cope with low light and are safe for pets, from what you told us.")).toBeVisible();
  await expect(page.getByRole("link", { name: messages.plantFinder.again })).toHaveAttribute("href", "/plant-finder");

  // The list is the shop's own, filtered: a search within it finds the safe plant and not the other.
  await searchTheList(page, tag);
  await expect.poll(() => cardNames(page)).toEqual([`Parlour Palm ${tag}`]);
  await expect(page).toHaveURL(/light=low/);
  await expect(page).toHaveURL(/pets=safe/);
});

async function withoutJavaScript(browser: Browser) {
  const context = await browser.newContext({ javaScriptEnabled: false });
  return { context, page: await context.newPage() };
}

test("without JavaScript the finder's form still ends on the filtered list with its sentence", async ({ browser, shopDb }) => {
  const { tag } = await twoDimRoomPlants(shopDb);
  const { context, page } = await withoutJavaScript(browser);
  await page.goto("/plant-finder");
  await findAPetSafePlantForADimRoom(page);
  await expect(page).toHaveURL(/\/shop\?light=low&pets=safe&finder=1$/);
  await expect(page.getByText("These plants cope with low light and are safe for pets, from what you told us.")).toBeVisible();
  await searchTheList(page, tag);
  expect(await cardNames(page)).toEqual([`Parlour Palm ${tag}`]);
  await context.close();
});

test("answers no plant matches say so instead of 'These plants …', and offer the list one answer less, which says why again", async ({ page, shopDb }) => {
  // Only a plant that is not safe for pets matches the search: the finder's list with pets at home is empty.
  const tag = randomUUID().slice(0, 8);
  const category = await createCategory(shopDb.db, { name: `Finder Test ${tag}` });
  await createProduct(shopDb.db, { name: `Zamioculcas ${tag}`, category_id: category.id, care_light: "low", care_pet_safe: "no" });
  await page.goto(`/shop?q=${tag}&light=low&pets=safe&finder=1`);
  await expect(page.getByText(messages.filters.empty)).toBeVisible();
  await expect(page.getByText(messages.plantFinder.noneYet)).toBeVisible();
  await expect(page.getByText(/^These plants/)).toHaveCount(0);

  // Without the pets answer the search's one plant is there; without the light, none is, so no link offers it.
  const nearest = page.getByRole("navigation", { name: messages.filters.nearest });
  await expect(nearest.getByRole("link")).toHaveText([`${messages.filters.without(messages.filters.petSafe)} (1)`]);
  await hydrated(nearest.getByRole("link"));
  await nearest.getByRole("link").click();
  await expect.poll(() => cardNames(page)).toEqual([`Zamioculcas ${tag}`]);
  await expect(page).toHaveURL(/light=low/);
  await expect(page).not.toHaveURL(/pets=safe/);
  await expect(page.getByText("These plants cope with low light, from what you told us.")).toBeVisible();
});
