import { randomUUID } from "node:crypto";
import { messages } from "../../common/shared/messages.ts";
import { createCategory, createProduct } from "../support/factories.ts";
import { expect, seriousAccessibilityViolations, test } from "./support/fixtures.ts";
import { hydrated } from "./support/pages.ts";

test.describe("shop", () => {
  test("shows twelve at a time; Load More appends the next page and hides at the end", async ({ page, shopDb }) => {
    const prefix = `Zeta${randomUUID().slice(0, 6)}`;
    const category = await createCategory(shopDb.db);
    const names: string[] = [];
    for (let i = 1; i <= 15; i++) {
      const name = `${prefix} Fern ${String(i).padStart(2, "0")}`;
      names.push(name);
      await createProduct(shopDb.db, { name, category_id: category.id });
    }

    await page.goto("/shop");
    await expect(page.getByText(messages.shop.banner)).toBeVisible();
    await expect(page.getByRole("heading", { name: messages.shop.heading })).toBeVisible();
    await expect(page.getByRole("article")).toHaveCount(12);
    await expect(page.getByRole("link", { name: messages.shop.loadMore })).toBeVisible();

    await page.goto(`/shop?q=${prefix}`);
    const cards = page.getByRole("article");
    await expect(cards).toHaveCount(12);
    await expect(cards.getByRole("heading")).toHaveText(names.slice(0, 12));
    await page.getByRole("link", { name: messages.shop.loadMore }).click();
    await expect(cards).toHaveCount(15);
    await expect(cards.getByRole("heading")).toHaveText(names);
    await expect(page.getByRole("link", { name: messages.shop.loadMore })).toHaveCount(0);
    await expect(page).toHaveURL(new RegExp(`/shop\\?q=${prefix}&page=2$`));
  });

  test("Load More asks the server for the next page's plants alone and adds them to those shown; back from a plant finds the whole list, a reload the page's own plants under a link to the earlier ones", async ({ page, shopDb }) => {
    const prefix = `Iota${randomUUID().slice(0, 6)}`;
    const category = await createCategory(shopDb.db);
    const names: string[] = [];
    for (let i = 1; i <= 26; i++) {
      names.push(`${prefix} Palm ${String(i).padStart(2, "0")}`);
      await createProduct(shopDb.db, { name: names.at(-1)!, category_id: category.id });
    }
    await page.goto(`/shop?q=${prefix}`);
    const cards = page.getByRole("article");
    const loadMore = page.getByRole("link", { name: messages.shop.loadMore });
    await hydrated(loadMore);
    await loadMore.click();
    await expect(cards.getByRole("heading")).toHaveText(names.slice(0, 24));
    const thirdPage = page.waitForResponse((response) => response.url().includes("page=3"));
    await loadMore.click();
    // The third page's data holds its own two plants and none of the 24 already shown.
    const data = await (await thirdPage).text();
    expect(names.filter((name) => data.includes(name))).toEqual(names.slice(24));
    await expect(cards.getByRole("heading")).toHaveText(names);
    await expect(page).toHaveURL(new RegExp(`/shop\\?q=${prefix}&page=3$`));
    await expect(loadMore).toHaveCount(0);

    // A plant of the first page, then back: the whole list again.
    await page.getByRole("link", { name: names[1]! }).click();
    await expect(page.getByRole("heading", { level: 1, name: names[1]! })).toBeVisible();
    await page.goBack();
    await expect(cards.getByRole("heading")).toHaveText(names);
    await expect(page.getByRole("link", { name: messages.shop.earlier })).toHaveCount(0);

    // A reload starts from what the server says: the third page's plants, and the way to the earlier ones.
    await page.reload();
    await expect(cards.getByRole("heading")).toHaveText(names.slice(24));
    await page.getByRole("link", { name: messages.shop.earlier }).click();
    await expect(page).toHaveURL(new RegExp(`/shop\\?q=${prefix}&page=2$`));
    await expect(cards.getByRole("heading")).toHaveText(names.slice(12, 24));
  });

  test("Load More from the keyboard moves focus to the first plant it brought, not back to the top of the page", async ({ page, shopDb }) => {
    const prefix = `Kappa${randomUUID().slice(0, 6)}`;
    const category = await createCategory(shopDb.db);
    for (let i = 1; i <= 14; i++) await createProduct(shopDb.db, { name: `${prefix} Moss ${String(i).padStart(2, "0")}`, category_id: category.id });

    await page.goto(`/shop?q=${prefix}`);
    const loadMore = page.getByRole("link", { name: messages.shop.loadMore });
    await expect.poll(() => loadMore.evaluate((el) => Object.keys(el).some((key) => key.startsWith("__reactProps")))).toBe(true);
    await loadMore.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("article")).toHaveCount(14);
    await expect(page.getByRole("link", { name: new RegExp(`${prefix} Moss 13`) })).toBeFocused();
  });

  test("searches by address and by typing, ignoring case, and says when nothing matches", async ({ page, shopDb }) => {
    const word = `Quill${randomUUID().slice(0, 6)}`;
    await createProduct(shopDb.db, { name: `${word} Palm` });
    await createProduct(shopDb.db, { name: `Tall ${word.toUpperCase()} Cane` });

    await page.goto(`/shop?q=${word.toLowerCase()}`);
    await expect(page.getByRole("article")).toHaveCount(2);
    await expect(page.getByPlaceholder(messages.shop.searchPlaceholder)).toHaveValue(word.toLowerCase());

    await page.goto("/shop");
    const search = page.getByPlaceholder(messages.shop.searchPlaceholder);
    await search.fill(`${word} palm`);
    await expect(page).toHaveURL(/\/shop\?q=/);
    await expect(page.getByRole("article")).toHaveCount(1);
    await expect(page.getByRole("article").getByRole("heading")).toHaveText(`${word} Palm`);

    await search.fill("no plant is called this");
    await expect(page.getByText(messages.shop.empty)).toBeVisible();
    await expect(page.getByRole("article")).toHaveCount(0);
  });

  test("search works without JavaScript too", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/shop");
    await page.getByPlaceholder(messages.shop.searchPlaceholder).fill("snake");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/\/shop\?q=snake$/);
    await expect(page.getByRole("article").getByRole("heading")).toHaveText(["Snake Plant"]);
    await context.close();
  });

  test("a suggestion opened before the typing pause is over stays open: the list's own search does not follow it", async ({ page }) => {
    // The page's timers under the test's hand: the suggestions are asked for 150 ms after typing stops, the list
    // filtered 300 ms after; the suggestion is opened in between, and then the time passes.
    await page.clock.install();
    await page.goto("/shop");
    const box = page.getByRole("combobox", { name: "Search products" });
    await box.pressSequentially("bougainvilla");
    await page.clock.runFor(200);
    const first = page.getByRole("listbox", { name: "Suggestions" }).getByRole("option").first();
    await expect(first).toHaveText("Bougainvillea");
    await box.press("ArrowDown");
    await box.press("Enter");
    await expect(page).toHaveURL(/\/product\//);
    await page.clock.runFor(1000);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Bougainvillea");
    await expect(page).toHaveURL(/\/product\//);
  });

  test("suggests products while typing; arrow keys choose one, Enter opens it, Escape closes the list", async ({ page }) => {
    await page.goto("/shop");
    const box = page.getByRole("combobox", { name: "Search products" });
    await box.pressSequentially("bougainvilla");
    const list = page.getByRole("listbox", { name: "Suggestions" });
    await expect(list.getByRole("option").first()).toHaveText("Bougainvillea");
    await expect(box).toHaveAttribute("aria-expanded", "true");
    await expect(page.getByRole("status").filter({ hasText: /suggestion/ })).toHaveText(/\d+ suggestions?, use the up and down arrows/);

    await box.press("Escape");
    await expect(list).toBeHidden();
    await expect(box).toHaveAttribute("aria-expanded", "false");

    await box.press("ArrowDown");
    await expect(list.getByRole("option").first()).toHaveAttribute("aria-selected", "true");
    const firstId = await list.getByRole("option").first().getAttribute("id");
    await expect(box).toHaveAttribute("aria-activedescendant", firstId!);
    await box.press("Enter");
    await expect(page).toHaveURL(/\/product\//);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Bougainvillea");
  });

  test("has no serious accessibility violations", async ({ page }) => {
    await page.goto("/shop");
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });
});
