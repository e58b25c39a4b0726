import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { messages } from "../../common/shared/messages.ts";
import { createProduct } from "../support/factories.ts";
import { asPerson, emptyCart } from "./support/api.ts";
import { expect, test } from "./support/fixtures.ts";
import { linkFromMail } from "./support/mail.ts";
import { hydrated, mainNav, submitLogin, submitRegistration, toast, urlIs } from "./support/pages.ts";
import { addToCart, cartCountName, cartLink, verifiedShopper } from "./support/shopper.ts";

// A visitor's cart (docs/decisions/037): kept for the visitor under a cookie of their own, shown on /cart and in the
// header, merged into the account's cart when they log in or register, and seen by nobody else.

const plantName = (kind: string) => `${kind} ${randomUUID().slice(0, 8)}`;
const cartRow = (page: Page, name: string) => page.getByRole("main").getByRole("listitem", { name, exact: true });
const quantityOf = (page: Page, name: string) => cartRow(page, name).getByLabel(`Quantity of ${name}`, { exact: true });
const notice = (page: Page, text: string) => page.getByRole("status").filter({ hasText: text });
const visitorCartCookie = async (page: Page) => (await page.context().cookies()).find((cookie) => cookie.name.endsWith("visitor_cart"));

test.describe("a visitor's cart", () => {
  test("a visitor adds a plant, sees it on /cart; Check Out asks to log in and comes back to the cart, now the account's", async ({ page, shopDb }) => {
    const shopper = await verifiedShopper(page, shopDb, 2);
    await emptyCart(shopper);
    const plant = await createProduct(shopDb.db, { name: plantName("Visitor Begonia"), price_paise: 39_900, stock: 4 });

    await page.goto(`/product/${plant.id}`);
    await expect(mainNav(page).getByRole("link", { name: "Login" })).toBeVisible();
    await addToCart(page, plant.id, 1);
    await expect(toast(page, messages.cart.added)).toBeVisible();
    const cookie = await visitorCartCookie(page);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax" });

    await cartLink(page).click();
    await expect(page).toHaveURL(urlIs("/cart"));
    await expect(quantityOf(page, plant.name)).toHaveText("1");
    await page.getByRole("link", { name: messages.cart.checkOut }).click();
    await expect(page).toHaveURL(urlIs(`/login?redirectTo=${encodeURIComponent("/cart")}`));

    await submitLogin(page, shopper);
    await expect(page).toHaveURL(urlIs("/cart"));
    await expect(notice(page, messages.cart.visitorCartMerged(1, []))).toBeVisible();
    await expect(quantityOf(page, plant.name)).toHaveText("1");
    await expect(cartLink(page)).toHaveAccessibleName(cartCountName(1));
    expect(await visitorCartCookie(page)).toBeUndefined();
    // Checking out goes on to the checkout now.
    await page.getByRole("link", { name: messages.cart.checkOut }).click();
    await expect(page).toHaveURL(urlIs("/checkout"));
    await emptyCart(shopper);
  });

  test("a visitor's cart merged into an account that already has the same plant: quantities added, capped by stock, and the shopper told", async ({ page, shopDb }) => {
    const shopper = await verifiedShopper(page, shopDb, 1);
    await emptyCart(shopper);
    const plant = await createProduct(shopDb.db, { name: plantName("Merge Monstera"), stock: 3 });
    const fern = await createProduct(shopDb.db, { name: plantName("Merge Fern"), stock: 5 });
    await asPerson(shopper, (api) => api.post("/api/cart/items", { data: { productId: plant.id, quantity: 2 } }));

    await addToCart(page, plant.id, 1);
    await addToCart(page, plant.id, 2);
    await addToCart(page, fern.id, 3);
    await page.goto(`/login?redirectTo=${encodeURIComponent("/cart")}`);
    await submitLogin(page, shopper);

    await expect(page).toHaveURL(urlIs("/cart"));
    const told = messages.cart.visitorCartMerged(2, [messages.cart.mergeLimitedByStock(plant.name, 3)]);
    await expect(notice(page, told)).toBeVisible();
    await expect(quantityOf(page, plant.name)).toHaveText("3");
    await expect(quantityOf(page, fern.name)).toHaveText("1");
    await expect(cartLink(page)).toHaveAccessibleName(cartCountName(4));
    // Said once: the next page has no notice.
    await page.reload();
    await expect(quantityOf(page, plant.name)).toHaveText("3");
    await expect(notice(page, told)).toHaveCount(0);
    await emptyCart(shopper);
  });

  test("a visitor who registers and follows the verification link comes back to the cart, with the plant in the new account's", async ({ page, shopDb }) => {
    const plant = await createProduct(shopDb.db, { name: plantName("Register Pothos"), stock: 5 });
    await addToCart(page, plant.id, 1);
    await cartLink(page).click();
    await page.getByRole("link", { name: messages.cart.checkOut }).click();
    await page.getByRole("link", { name: messages.auth.createOne }).click();
    await expect(page).toHaveURL(urlIs("/register"));

    const tag = randomUUID().slice(0, 8);
    const person = { name: "Nila Das", username: `visitor_${tag}`, email: `visitor.${tag}@example.com`, password: "peace-lily-by-the-window-3" };
    await submitRegistration(page, person);
    await expect(page).toHaveURL(urlIs("/verify"));
    await page.goto(await linkFromMail(person.email, "/verify"));

    await expect(page).toHaveURL(urlIs("/cart"));
    await expect(toast(page, messages.auth.emailVerified)).toBeVisible();
    await expect(notice(page, messages.cart.visitorCartMerged(1, []))).toBeVisible();
    await expect(quantityOf(page, plant.name)).toHaveText("1");
    await expect(mainNav(page).getByRole("link", { name: "Login" })).toHaveCount(0);
  });

  test("a second browser does not see the first visitor's cart; the first visitor changes and empties it", async ({ page, shopDb, browser }) => {
    const plant = await createProduct(shopDb.db, { name: plantName("Private Calathea"), stock: 5 });
    await addToCart(page, plant.id, 1);
    await page.goto("/cart");
    await expect(quantityOf(page, plant.name)).toHaveText("1");

    const other = await browser.newContext();
    try {
      const second = await other.newPage();
      await second.goto(`/product/${plant.id}`);
      await expect(cartLink(second)).toHaveAccessibleName(cartCountName(0));
      await second.goto("/cart");
      await expect(second.getByText(messages.cart.empty)).toBeVisible();
      await expect(cartRow(second, plant.name)).toHaveCount(0);
    } finally {
      await other.close();
    }
    // The first visitor's cart is still theirs, and changes as an account's does.
    await page.reload();
    await expect(quantityOf(page, plant.name)).toHaveText("1");
    const more = cartRow(page, plant.name).getByRole("button", { name: `One more ${plant.name}` });
    await hydrated(more);
    await more.click();
    await expect(quantityOf(page, plant.name)).toHaveText("2");
    await expect(cartLink(page)).toHaveAccessibleName(cartCountName(2));
    await cartRow(page, plant.name).getByRole("button", { name: `Remove ${plant.name}` }).click();
    await expect(page.getByText(messages.cart.empty)).toBeVisible();
  });
});
