import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { messages } from "../../common/shared/messages.ts";
import type { Database } from "../../server/platform/db/client.ts";
import { createCategory, createProduct } from "../support/factories.ts";
import { expect, test } from "./support/fixtures.ts";
import { hydrated } from "./support/pages.ts";

// The shop's filters (common/catalog/list-filters.ts) on a category of the test's own, so its counts are exact
// whatever else the suite's shop holds: the light and pet-safe boxes, the order, the counts beside each option,
// the address as the whole state (back and forward), and the same form without JavaScript.

const t = messages.filters;

/** Four plants of a new category: two in low light (one known safe for pets), one medium and safe, one bright. */
async function aCategoryOfPlants(shopDb: Database) {
  const tag = randomUUID().slice(0, 8);
  const category = await createCategory(shopDb.db, { name: `Filter Test ${tag}` });
  // Names no other spec searches for: the suite's shop is shared.
  const make = (name: string, fields: Parameters<typeof createProduct>[1]) => createProduct(shopDb.db, { name: `${name} ${tag}`, category_id: category.id, ...fields });
  const plants = {
    snake: await make("Aspidistra", { care_light: "low", care_pet_safe: "no", price_paise: 60_000 }),
    parlour: await make("Chamaedorea", { care_light: "low", care_pet_safe: "yes", price_paise: 90_000 }),
    calathea: await make("Maranta", { care_light: "medium", care_pet_safe: "yes", price_paise: 45_000 }),
    croton: await make("Codiaeum", { care_light: "bright-indirect", care_pet_safe: null, price_paise: 30_000 }),
  };
  return { path: `/category/${category.id}`, tag, plants };
}

/** The names of the product cards shown (the category's list items' headings), in order. */
const shownNames = (page: Page, tag: string) =>
  page
    .getByRole("main")
    .getByRole("listitem")
    .getByRole("heading")
    .filter({ hasText: tag })
    .allTextContents()
    .then((names) => names.map((name) => name.replace(` ${tag}`, "").trim()));

const filters = (page: Page) => page.getByRole("form", { name: t.heading });

// Each test loads a dozen lists one after another on a machine the suite shares.
test.describe.configure({ timeout: 90_000 });

// With JavaScript a tick submits the panel at once, and the panel (keyed by the address) is drawn anew with the new
// counts in its labels. So the boxes are ticked with click(), and the tests then check the address, the list and the
// new boxes: check() would test the clicked box again after the click, and when that box is already replaced it looks
// it up by its old label ("Low light" before a search's counts appear) and waits for it until the test times out.

test("filters by light and pet safety and sorts by price, with each option's count, in the address; back and forward step through the choices", async ({ page, shopDb }) => {
  const { path, tag } = await aCategoryOfPlants(shopDb);
  await page.goto(path);
  const panel = filters(page);
  await hydrated(panel);
  const light = panel.getByRole("group", { name: t.light });
  await expect(light.getByLabel(`${t.lights.low} (2)`)).toBeVisible();
  await expect(light.getByLabel(`${t.lights.medium} (1)`)).toBeVisible();
  await expect(panel.getByRole("group", { name: t.pets }).getByLabel(`${t.petSafe} (2)`)).toBeVisible();

  await light.getByLabel(`${t.lights.low} (2)`).click();
  await expect(page).toHaveURL(`${path}?light=low`);
  await expect(light.getByLabel(`${t.lights.low} (2)`)).toBeChecked();
  await expect.poll(() => shownNames(page, tag)).toEqual(["Aspidistra", "Chamaedorea"]);
  // Pet safety counted within low light: the aspidistra is not safe, the codiaeum's safety is not known.
  await expect(panel.getByRole("group", { name: t.pets }).getByLabel(`${t.petSafe} (1)`)).toBeVisible();

  await light.getByLabel(`${t.lights.medium} (1)`).click();
  await expect(page).toHaveURL(`${path}?light=low&light=medium`);
  await panel.getByRole("group", { name: t.pets }).getByLabel(`${t.petSafe} (2)`).click();
  await expect(page).toHaveURL(`${path}?light=low&light=medium&pets=safe`);
  await expect.poll(() => shownNames(page, tag)).toEqual(["Chamaedorea", "Maranta"]);
  // Each light counted with pet safety kept.
  await expect(light.getByLabel(`${t.lights.low} (1)`)).toBeChecked();
  await expect(light.getByLabel(`${t.lights["bright-indirect"]} (0)`)).not.toBeChecked();

  await panel.getByLabel(t.sortLabel).selectOption({ label: t.sorts["price-asc"] });
  await expect(page).toHaveURL(`${path}?light=low&light=medium&pets=safe&sort=price-asc`);
  await expect.poll(() => shownNames(page, tag)).toEqual(["Maranta", "Chamaedorea"]);

  await page.goBack();
  await expect(page).toHaveURL(`${path}?light=low&light=medium&pets=safe`);
  await expect.poll(() => shownNames(page, tag)).toEqual(["Chamaedorea", "Maranta"]);
  await expect(panel.getByLabel(t.sortLabel)).toHaveValue("");
  await page.goBack();
  await expect(page).toHaveURL(`${path}?light=low&light=medium`);
  await expect(panel.getByRole("group", { name: t.pets }).getByRole("checkbox")).not.toBeChecked();
  await page.goForward();
  await page.goForward();
  await expect(page).toHaveURL(`${path}?light=low&light=medium&pets=safe&sort=price-asc`);
  await expect.poll(() => shownNames(page, tag)).toEqual(["Maranta", "Chamaedorea"]);
  await expect(panel.getByLabel(t.sortLabel)).toHaveValue("price-asc");

  // The address is shareable: a new page opened on it shows the same list and boxes.
  const shared = await page.context().newPage();
  await shared.goto(page.url());
  await expect.poll(() => shownNames(shared, tag)).toEqual(["Maranta", "Chamaedorea"]);
  await expect(filters(shared).getByRole("group", { name: t.pets }).getByRole("checkbox")).toBeChecked();

  await panel.getByRole("link", { name: t.clear }).click();
  await expect(page).toHaveURL(path);
  await expect.poll(() => shownNames(page, tag)).toEqual(["Aspidistra", "Chamaedorea", "Maranta", "Codiaeum"]);
});

test("narrows a search's results: the options count among the matches once one is chosen, the order replaces the search's, the address keeps the search", async ({ page, shopDb }) => {
  const { tag } = await aCategoryOfPlants(shopDb);
  // The tag is in the four plants' names and nowhere else in the suite's shop.
  await page.goto(`/shop?q=${tag}`);
  const panel = filters(page);
  await hydrated(panel);
  await expect.poll(async () => (await shownNames(page, tag)).sort()).toEqual(["Aspidistra", "Chamaedorea", "Codiaeum", "Maranta"]);
  // A plain search reads only its page's matches: its options are not counted yet.
  const light = panel.getByRole("group", { name: t.light });
  await expect(light.getByLabel(t.lights.low, { exact: true })).toBeVisible();

  await light.getByLabel(t.lights.low, { exact: true }).click();
  await expect(page).toHaveURL(`/shop?q=${tag}&light=low`);
  await expect(light.getByLabel(`${t.lights.low} (2)`)).toBeChecked();
  await expect.poll(async () => (await shownNames(page, tag)).sort()).toEqual(["Aspidistra", "Chamaedorea"]);
  // Counted among the search's matches: within low light one is known safe for pets; medium light has the maranta.
  await expect(panel.getByRole("group", { name: t.pets }).getByLabel(`${t.petSafe} (1)`)).toBeVisible();
  await expect(light.getByLabel(`${t.lights.medium} (1)`)).toBeVisible();

  await light.getByLabel(`${t.lights.medium} (1)`).click();
  await expect(page).toHaveURL(`/shop?q=${tag}&light=low&light=medium`);
  await panel.getByLabel(t.sortLabel).selectOption({ label: t.sorts["price-desc"] });
  await expect(page).toHaveURL(`/shop?q=${tag}&light=low&light=medium&sort=price-desc`);
  await expect.poll(() => shownNames(page, tag)).toEqual(["Chamaedorea", "Aspidistra", "Maranta"]);
  await panel.getByRole("group", { name: t.pets }).getByLabel(`${t.petSafe} (2)`).click();
  await expect(page).toHaveURL(`/shop?q=${tag}&light=low&light=medium&pets=safe&sort=price-desc`);
  await expect.poll(() => shownNames(page, tag)).toEqual(["Chamaedorea", "Maranta"]);
  await expect(light.getByLabel(`${t.lights["bright-indirect"]} (0)`)).not.toBeChecked();
});

test("the filters work without JavaScript: a plain form whose Apply loads the filtered, sorted list, its counts within the price range", async ({ browser, shopDb }) => {
  const { path, tag } = await aCategoryOfPlants(shopDb);
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(path);
  const panel = filters(page);
  await panel.getByRole("group", { name: t.light }).getByLabel(`${t.lights.low} (2)`).check();
  await panel.getByRole("group", { name: t.pets }).getByLabel(`${t.petSafe} (2)`).check();
  await panel.getByLabel(t.maxPrice).fill("1000");
  await panel.getByLabel(t.sortLabel).selectOption({ label: t.sorts["price-desc"] });
  await panel.getByRole("button", { name: t.apply }).click();
  await expect(page).toHaveURL(new RegExp(`${path}\\?light=low&place=&pets=safe&min=&max=1000&sort=price-desc$`));
  expect(await shownNames(page, tag)).toEqual(["Chamaedorea"]);
  await expect(panel.getByRole("group", { name: t.light }).getByLabel(`${t.lights.low} (1)`)).toBeChecked();

  await panel.getByRole("group", { name: t.light }).getByLabel(`${t.lights.medium} (1)`).check();
  await panel.getByRole("button", { name: t.apply }).click();
  expect(await shownNames(page, tag)).toEqual(["Chamaedorea", "Maranta"]);

  // A lowest price between two price marks (₹400 and ₹500): the list and the counts leave out the ₹450 maranta.
  await panel.getByLabel(t.minPrice).fill("455");
  await panel.getByRole("button", { name: t.apply }).click();
  expect(await shownNames(page, tag)).toEqual(["Chamaedorea"]);
  await expect(panel.getByRole("group", { name: t.light }).getByLabel(`${t.lights.medium} (0)`)).toBeChecked();
  await expect(panel.getByRole("group", { name: t.light }).getByLabel(`${t.lights.low} (1)`)).toBeChecked();
  await context.close();
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the groups fold behind 'Show filters' so the plants start on the first screen; opened, a tick filters the list and the fold stays open, naming how many groups are chosen", async ({ page, shopDb }) => {
    const { path, tag } = await aCategoryOfPlants(shopDb);
    await page.goto(path);
    const panel = filters(page);
    const lowLight = panel.getByRole("group", { name: t.light }).getByLabel(`${t.lights.low} (2)`);
    await expect(lowLight).toBeHidden();
    await expect(page.getByRole("main").getByRole("listitem").first()).toBeInViewport();

    const fold = panel.getByText(t.show, { exact: true });
    await hydrated(panel.getByRole("button", { name: t.apply }));
    await fold.click();
    await lowLight.click();
    await expect(page).toHaveURL(new RegExp(`${path}\\?light=low$`));
    await expect.poll(() => shownNames(page, tag)).toEqual(["Aspidistra", "Chamaedorea"]);
    await expect(panel.getByRole("group", { name: t.light }).getByLabel(`${t.lights.low} (2)`)).toBeChecked();
    await expect(panel.locator("summary")).toHaveText(`${t.hide} ${t.chosen(1)}`, { useInnerText: true });
  });

  test("without JavaScript the fold still opens (a native disclosure) and its Apply loads the filtered list, which shows the fold open", async ({ browser, shopDb }) => {
    const { path, tag } = await aCategoryOfPlants(shopDb);
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(path);
    const panel = filters(page);
    await panel.getByText(t.show, { exact: true }).click();
    await panel.getByRole("group", { name: t.pets }).getByLabel(`${t.petSafe} (2)`).check();
    await panel.getByRole("button", { name: t.apply }).click();
    expect(await shownNames(page, tag)).toEqual(["Chamaedorea", "Maranta"]);
    await expect(panel.getByRole("group", { name: t.pets }).getByLabel(`${t.petSafe} (2)`)).toBeVisible();
    await context.close();
  });
});
