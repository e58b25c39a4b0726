import { readFileSync } from "node:fs";
import path from "node:path";
import type { BrowserContext, Locator, Page } from "@playwright/test";
import { messages } from "../../common/shared/messages.ts";
import type { Database } from "../../server/platform/db/client.ts";
import { createCategory, createProduct } from "../support/factories.ts";
import { insertSessions, insertShoppers } from "../support/shop-process.ts";
import { createShopper } from "../support/shoppers.ts";
import { expect as baseExpect, test } from "./support/fixtures.ts";
import { submitLogin, toast, urlIs } from "./support/pages.ts";
import { cartLink, cartCountName } from "./support/shopper.ts";

const w = messages.wishlist;
// A heart's change shows once the page's data is read again; on a busy machine that takes more than 5 s.
const expect = baseExpect.configure({ timeout: 15_000 });
/** As support/pages.ts's hydrated(), with this file's longer wait: a page loaded whole (after the login) hydrates slowly on a busy machine. */
async function hydrated(element: Locator) {
  await expect
    .poll(() => element.evaluate((el) => Object.keys(el).some((key) => key.startsWith("__reactProps"))), { message: "the page hydrates" })
    .toBe(true);
}

const origin = () => `http://127.0.0.1:${process.env.E2E_PORT}`;

/** A verified shopper written into the server's database and signed in in this browser context. */
async function signIn(context: BrowserContext, database: Database) {
  const user = await createShopper(database.db, database.dialect, { name: "Wishful Shopper" });
  const secret = readFileSync(path.join(process.env.E2E_DATA_DIR!, "auth-secret"), "utf8").trim();
  const [cookie] = await insertSessions(database.db, [user.id], secret);
  const [name, value] = cookie!.split(/=(.*)/s);
  await context.clearCookies();
  await context.addCookies([{ name: name!, value: value!, url: origin() }]);
  return user;
}

/** Two plants of a category of their own (its page shows just them), one sold out. */
async function twoPlants(database: Database) {
  const category = await createCategory(database.db);
  const monstera = await createProduct(database.db, { name: `Monstera ${category.id.slice(0, 6)}`, category_id: category.id, stock: 4 });
  const fern = await createProduct(database.db, { name: `Boston Fern ${category.id.slice(0, 6)}`, category_id: category.id, stock: 0 });
  return { category, monstera, fern };
}

const saveButton = (page: Page, name: string) => page.getByRole("button", { name: w.save(name), exact: true });
const removeHeart = (page: Page, name: string) => page.getByRole("button", { name: w.remove(name), exact: true });
/** The answer to a heart's request (the heart turns at once, before it: leaving the page earlier could cancel it). */
const heartAnswered = (page: Page) => page.waitForResponse((response) => response.request().method() === "POST" && new URL(response.url()).pathname.startsWith("/wishlist"));
const card = (page: Page, name: string) => page.getByRole("listitem").filter({ has: page.getByRole("heading", { name, exact: true }) });

test.describe("the wishlist", () => {
  test("saves a plant from its card and another from its page, lists both with price and stock, adds one to the cart from the list, and removes both", async ({ page, shopDb }) => {
    const { category, monstera, fern } = await twoPlants(shopDb);
    await signIn(page.context(), shopDb);

    await page.goto(`/category/${category.id}`);
    const heart = saveButton(page, monstera.name);
    await hydrated(heart);
    await expect(heart).toHaveAttribute("aria-pressed", "false");
    await heart.click();
    // The same button, now pressed and named for what pressing it again does; the page did not change.
    await expect(removeHeart(page, monstera.name)).toHaveAttribute("aria-pressed", "true");
    await expect(page).toHaveURL(urlIs(`/category/${category.id}`));

    await page.goto(`/product/${fern.id}`);
    const pageHeart = saveButton(page, fern.name);
    await hydrated(pageHeart);
    const saved = heartAnswered(page);
    await pageHeart.click();
    await expect(removeHeart(page, fern.name)).toHaveAttribute("aria-pressed", "true");
    // Answered before the reload, which would otherwise cancel it (the heart turns at once).
    expect((await saved).ok()).toBe(true);
    await page.reload();
    await expect(removeHeart(page, fern.name)).toHaveAttribute("aria-pressed", "true");

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: w.navLink }).click();
    await expect(page).toHaveURL(urlIs("/wishlist"));
    await expect(page.getByRole("heading", { name: w.heading })).toBeVisible();
    // Newest first: the fern was saved last.
    await expect(page.getByRole("heading", { level: 2 })).toHaveText([fern.name, monstera.name]);
    await expect(card(page, fern.name)).toContainText(messages.product.notInStock);
    await expect(card(page, fern.name).getByRole("button", { name: messages.product.addToCart })).toBeDisabled();
    await expect(card(page, monstera.name)).toContainText("999");
    await expect(card(page, monstera.name)).toContainText(messages.product.availableStock(4));

    const addToCart = card(page, monstera.name).getByRole("button", { name: messages.product.addToCart });
    await hydrated(addToCart);
    await addToCart.click();
    await expect(toast(page, messages.cart.added)).toBeVisible();
    await expect(cartLink(page)).toHaveAccessibleName(cartCountName(1));

    await card(page, fern.name).getByRole("button", { name: w.remove(fern.name) }).click();
    await expect(toast(page, w.removedFlash)).toBeVisible();
    await expect(page.getByRole("heading", { level: 2 })).toHaveText([monstera.name]);
    await card(page, monstera.name).getByRole("button", { name: w.remove(monstera.name) }).click();
    await expect(page.getByText(w.empty)).toBeVisible();
    await page.getByRole("link", { name: w.browse }).click();
    await expect(page).toHaveURL(urlIs("/shop"));
  });

  test("the hearts of cards Load More kept from the page before: as saved, then as changed, also after the page's data is read again and after coming back from a plant", async ({ page, shopDb }) => {
    const category = await createCategory(shopDb.db);
    const plants = [];
    for (let i = 1; i <= 13; i++) plants.push(await createProduct(shopDb.db, { name: `Kept ${String(i).padStart(2, "0")} ${category.id.slice(0, 6)}`, category_id: category.id }));
    const [first, second, third] = plants as [(typeof plants)[0], (typeof plants)[0], (typeof plants)[0]];
    const user = await signIn(page.context(), shopDb);
    await shopDb.db.insertInto("wishlist_items").values({ user_id: user.id, product_id: second.id, created_at: new Date().toISOString() }).execute();

    await page.goto(`/category/${category.id}`);
    const loadMore = page.getByRole("link", { name: messages.shop.loadMore });
    await hydrated(loadMore);
    await expect(removeHeart(page, second.name)).toHaveAttribute("aria-pressed", "true");
    await loadMore.click();
    await expect(page).toHaveURL(urlIs(`/category/${category.id}?page=2`));
    await expect(page.getByRole("button", { name: w.save(plants[12]!.name), exact: true })).toBeVisible();
    // The second plant's card came from the first page: its heart is as that page said.
    await expect(removeHeart(page, second.name)).toHaveAttribute("aria-pressed", "true");

    const answered = heartAnswered(page);
    const readAgain = page.waitForResponse((response) => response.request().method() === "GET" && response.url().includes(".data"));
    await saveButton(page, first.name).click();
    expect((await answered).ok()).toBe(true);
    await readAgain;
    // The page's data read again holds only the second page's plants: the first plant's heart shows its answer.
    await expect(removeHeart(page, first.name)).toHaveAttribute("aria-pressed", "true");

    await page.getByRole("link", { name: `${messages.category.viewProduct}: ${plants[12]!.name}` }).click();
    await expect(page).toHaveURL(urlIs(`/product/${plants[12]!.id}`));
    await page.goBack();
    await expect(page).toHaveURL(urlIs(`/category/${category.id}?page=2`));
    await expect(removeHeart(page, first.name)).toHaveAttribute("aria-pressed", "true");
    await expect(removeHeart(page, second.name)).toHaveAttribute("aria-pressed", "true");
    await expect(saveButton(page, third.name)).toHaveAttribute("aria-pressed", "false");
    await page.goto("/wishlist");
    await expect(page.getByRole("heading", { level: 2 })).toHaveText([first.name, second.name]);
  });

  test("sends a visitor's heart through the login and back to the plant's page, where the heart then saves it", async ({ page, shopDb }) => {
    const { monstera } = await twoPlants(shopDb);
    const password = "calathea-orbifolia-42";
    const [person] = await insertShoppers(shopDb.db, 1, { password, prefix: "wish", dialect: shopDb.dialect });
    const email = (await shopDb.db.selectFrom("users").select("email").where("id", "=", person!.userId).executeTakeFirstOrThrow()).email;

    await page.context().clearCookies();
    await page.goto(`/product/${monstera.id}`);
    await page.getByRole("button", { name: w.logInToSave(monstera.name) }).click();
    await expect(page).toHaveURL(urlIs(`/login?redirectTo=${encodeURIComponent(`/product/${monstera.id}`)}`));
    await submitLogin(page, { email, password });
    await expect(page).toHaveURL(urlIs(`/product/${monstera.id}`));

    const heart = saveButton(page, monstera.name);
    await hydrated(heart);
    // The heart turns at once, before its request is answered: leaving the page before the answer could cancel it.
    const saved = heartAnswered(page);
    await heart.click();
    await expect(removeHeart(page, monstera.name)).toHaveAttribute("aria-pressed", "true");
    expect((await saved).ok()).toBe(true);
    await page.goto("/wishlist");
    await expect(page.getByRole("heading", { level: 2 })).toHaveText([monstera.name]);
  });

  test("saves and removes without JavaScript: the heart's form comes back to the page with its new state", async ({ browser, shopDb }) => {
    const { category, monstera } = await twoPlants(shopDb);
    const context = await browser.newContext({ baseURL: origin(), javaScriptEnabled: false });
    try {
      await signIn(context, shopDb);
      const page = await context.newPage();
      await page.goto(`/category/${category.id}`);
      await saveButton(page, monstera.name).click();
      await expect(page).toHaveURL(urlIs(`/category/${category.id}`));
      await expect(removeHeart(page, monstera.name)).toHaveAttribute("aria-pressed", "true");

      await page.goto("/wishlist");
      await expect(page.getByRole("heading", { level: 2 })).toHaveText([monstera.name]);
      await card(page, monstera.name).getByRole("button", { name: w.remove(monstera.name) }).click();
      await expect(page).toHaveURL(urlIs("/wishlist"));
      await expect(page.getByText(w.empty)).toBeVisible();

      await page.goto(`/category/${category.id}`);
      await expect(saveButton(page, monstera.name)).toHaveAttribute("aria-pressed", "false");
    } finally {
      await context.close();
    }
  });
});
