import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "@playwright/test";
import { couponMessages as m } from "../../common/coupons/coupon-messages.ts";
import { messages } from "../../common/shared/messages.ts";
import { createCategory, createProduct } from "../support/factories.ts";
import { openDatabase, type Database } from "../../server/platform/db/client.ts";
import { extraPort, insertSessions, startShopProcess, stopShopProcess, waitUntilHealthy, type ShopProcess } from "../support/shop-process.ts";
import { createShopper } from "../support/shoppers.ts";
import { allowStatusLogs, expect, test } from "./support/fixtures.ts";
import { mailWithSubject } from "./support/mail.ts";
import { ADMIN, hydrated, logIn } from "./support/pages.ts";
import { addToCart, fillShipping, orderIdFromUrl, orderNumberOf } from "./support/shopper.ts";

// Discount codes end to end (docs/decisions/046): the owner makes them at /admin/coupons, a shopper applies one in
// the cart, sees each refusal's message, sees the Discount at checkout, orders, and finds it on the order page and
// in the order's e-mail. Every code and plant is new for the run (the server's database outlives a retried test).

const unique = (prefix: string) => `${prefix}${randomUUID().replace(/-/g, "").slice(0, 8).toUpperCase()}`;
const summary = (page: Page) => page.getByRole("region", { name: "Order summary" });
const couponForm = (page: Page) => page.getByRole("form", { name: m.codeLabel });

/** On /admin/coupons: fills the new coupon form and waits for its notice. */
async function createCoupon(
  page: Page,
  fields: { code: string; kind: "Percent" | "Amount (Rs.)"; value: string; minimum?: string; endsAt?: string; startsAt?: string; once?: boolean; category?: string; maxUses?: string },
) {
  const form = page.getByRole("form", { name: "New coupon" });
  await hydrated(form.getByRole("button", { name: "Create coupon" }));
  await form.getByLabel("Code").fill(fields.code);
  await form.getByRole("radio", { name: fields.kind, exact: true }).check();
  await form.getByLabel("Percent or amount").fill(fields.value);
  if (fields.minimum) await form.getByLabel("Minimum subtotal (Rs., optional)").fill(fields.minimum);
  if (fields.startsAt) await form.getByLabel("Starts (optional)").fill(fields.startsAt);
  if (fields.endsAt) await form.getByLabel("Ends (optional)").fill(fields.endsAt);
  if (fields.maxUses) await form.getByLabel("Total uses (optional)").fill(fields.maxUses);
  if (fields.once) await form.getByRole("checkbox", { name: "Once per customer" }).check();
  if (fields.category) await form.getByRole("checkbox", { name: fields.category, exact: true }).check();
  await form.getByRole("button", { name: "Create coupon" }).click();
  await expect(page.getByRole("status").filter({ hasText: m.created(fields.code) })).toBeVisible();
}

/** In the cart: types a code, presses Apply and waits for the page to show the outcome. */
async function applyCode(page: Page, code: string) {
  const form = couponForm(page);
  await hydrated(form.getByRole("button", { name: m.apply }));
  await form.getByLabel(m.codeLabel).fill(code);
  await form.getByRole("button", { name: m.apply }).click();
}

test("coupons: the owner makes codes, a shopper is told each refusal, and a category code discounts its lines only, at checkout, on the order and in its mail", async ({ page, shopDb, consoleErrors }) => {
  // Five codes made through the page and a whole checkout: more than the default budget on a busy two-core machine.
  test.setTimeout(90_000);
  const ferns = await createCategory(shopDb.db, { name: unique("Ferns ") });
  const empty = await createCategory(shopDb.db, { name: unique("Empty ") });
  const fern = await createProduct(shopDb.db, { name: unique("Coupon Fern "), price_paise: 40_000, stock: 5, category_id: ferns.id });
  const palm = await createProduct(shopDb.db, { name: unique("Coupon Palm "), price_paise: 60_000, stock: 5 });
  const codes = { half: unique("FERNHALF"), old: unique("OLD"), later: unique("LATER"), big: unique("BIG"), none: unique("NONE") };

  // The owner, from the admin navigation.
  await logIn(page, ADMIN);
  await page.goto("/admin");
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Coupons" }).click();
  await expect(page.getByRole("heading", { name: m.heading, level: 1 })).toBeVisible();
  await createCoupon(page, { code: codes.half, kind: "Percent", value: "50", once: true, category: ferns.name });
  await createCoupon(page, { code: codes.old, kind: "Amount (Rs.)", value: "10", endsAt: "2001-01-01T00:00" });
  await createCoupon(page, { code: codes.later, kind: "Amount (Rs.)", value: "10", startsAt: "2099-01-01T10:00" });
  await createCoupon(page, { code: codes.big, kind: "Amount (Rs.)", value: "10", minimum: "5000" });
  await createCoupon(page, { code: codes.none, kind: "Amount (Rs.)", value: "10", category: empty.name });
  await expect(page.getByRole("row", { name: codes.half }).getByTestId("coupon-uses")).toHaveText("0");
  await page.context().clearCookies();

  // A verified shopper, signed in with a session written into the server's database.
  const shopper = await createShopper(shopDb.db, shopDb.dialect, { name: "Leela Das", email: `coupons.${randomUUID().slice(0, 8)}@example.com` });
  const secret = readFileSync(path.join(process.env.E2E_DATA_DIR!, "auth-secret"), "utf8").trim();
  const [cookie] = await insertSessions(shopDb.db, [shopper.id], secret);
  const [name, value] = cookie!.split(/=(.*)/s);
  await page.context().addCookies([{ name: name!, value: value!, url: `http://127.0.0.1:${process.env.E2E_PORT}` }]);
  await addToCart(page, fern.id, 1);
  await addToCart(page, palm.id, 2);
  await page.goto("/cart");

  // Each refusal, in the cart's words.
  for (const [code, message] of [
    ["NO-SUCH-CODE", m.unknown],
    [codes.old, m.expired],
    [codes.later, m.notYetValid("1 Jan 2099, 10:00 am")],
    [codes.big, m.minimumNotReached(500_000 - 100_000)],
    [codes.none, m.nothingApplies],
  ] as const) {
    await applyCode(page, code.toLowerCase());
    await expect(couponForm(page).getByRole("alert")).toHaveText(message);
  }

  // Half off the fern's line only: Rs. 200 of Rs. 1,000.
  await applyCode(page, codes.half.toLowerCase());
  await expect(summary(page).getByTestId("order-discount")).toHaveText("−Rs. 200.00");
  await expect(summary(page).getByTestId("order-total")).toHaveText("Rs. 820.00");

  // At checkout: the Discount again, with a way to remove the code; the order is what was shown.
  await summary(page).getByRole("link", { name: messages.cart.checkOut }).click();
  await fillShipping(page);
  await expect(summary(page).getByTestId("order-discount")).toHaveText("−Rs. 200.00");
  await expect(couponForm(page).getByRole("button", { name: `${m.remove} ${codes.half}` })).toBeVisible();
  await page.getByRole("button", { name: messages.checkout.placeOrder }).click();
  await expect(page).toHaveURL(/\/orders\/[\w-]+$/);
  const orderId = orderIdFromUrl(page);
  await expect(summary(page).getByTestId("order-discount")).toHaveText("−Rs. 200.00");
  await expect(summary(page).getByTestId("order-total")).toHaveText("Rs. 820.00");
  const number = await orderNumberOf(shopDb, orderId);
  const mail = await mailWithSubject(shopper.email, `Order ${number} is placed`);
  expect(mail.text).toContain(`Discount (${codes.half}): −Rs. 200.00`);
  expect(mail.text).toContain("Total: Rs. 820.00");

  // Once per customer: the same code again is refused.
  await addToCart(page, fern.id, 1);
  await page.goto("/cart");
  await applyCode(page, codes.half);
  await expect(couponForm(page).getByRole("alert")).toHaveText(m.alreadyUsed);
  // The refusals answered 400 and 409 to the page's form, on purpose: the browser logged them.
  allowStatusLogs(consoleErrors, 400, 409);
});

/** A new verified shopper signed in, in a browser context of their own (a session written into the server's database). */
async function shopperPage(browser: Browser, shopDb: Database, name: string): Promise<Page> {
  const shopper = await createShopper(shopDb.db, shopDb.dialect, { name, email: `coupons.${randomUUID().slice(0, 8)}@example.com` });
  const secret = readFileSync(path.join(process.env.E2E_DATA_DIR!, "auth-secret"), "utf8").trim();
  const [cookie] = await insertSessions(shopDb.db, [shopper.id], secret);
  const [cookieName, value] = cookie!.split(/=(.*)/s);
  const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`;
  const context = await browser.newContext({ baseURL });
  await context.addCookies([{ name: cookieName!, value: value!, url: baseURL }]);
  return context.newPage();
}

test("coupons: a code with one use left is used by one order, and the next shopper applying it is told it is used up", async ({ page, browser, shopDb }) => {
  // Three browser contexts and a whole checkout: more than the default budget on a busy two-core machine.
  test.setTimeout(90_000);
  const plant = await createProduct(shopDb.db, { name: unique("Last Use Calathea "), price_paise: 50_000, stock: 10 });
  const code = unique("ONLYONE");
  await logIn(page, ADMIN);
  await page.goto("/admin/coupons");
  await createCoupon(page, { code, kind: "Amount (Rs.)", value: "50", maxUses: "1" });
  await expect(page.getByRole("row", { name: code }).getByTestId("coupon-uses")).toHaveText("0 of 1");

  const first = await shopperPage(browser, shopDb, "Meera First");
  await addToCart(first, plant.id, 1);
  await first.goto("/cart");
  await applyCode(first, code);
  await expect(summary(first).getByTestId("order-discount")).toHaveText("−Rs. 50.00");
  await summary(first).getByRole("link", { name: messages.cart.checkOut }).click();
  await fillShipping(first);
  await first.getByRole("button", { name: messages.checkout.placeOrder }).click();
  await expect(first).toHaveURL(/\/orders\/[\w-]+$/);
  await expect(summary(first).getByTestId("order-discount")).toHaveText("−Rs. 50.00");
  await first.context().close();

  const second = await shopperPage(browser, shopDb, "Ravi Second");
  await addToCart(second, plant.id, 1);
  await second.goto("/cart");
  await applyCode(second, code);
  await expect(couponForm(second).getByRole("alert")).toHaveText(m.usedUp);
  await expect(summary(second).getByTestId("order-discount")).toHaveCount(0);
  await second.context().close();

  await page.reload();
  await expect(page.getByRole("row", { name: code }).getByTestId("coupon-uses")).toHaveText("1 of 1");
});

test("coupons: the owner edits a code's percentage, and a cart that has it applied shows the new discount", async ({ page, browser, shopDb }) => {
  test.setTimeout(90_000);
  const plant = await createProduct(shopDb.db, { name: unique("Edited Code Ficus "), price_paise: 60_000, stock: 10 });
  const code = unique("GROW");
  await logIn(page, ADMIN);
  await page.goto("/admin/coupons");
  await createCoupon(page, { code, kind: "Percent", value: "10" });

  const shopper = await shopperPage(browser, shopDb, "Kavya Edit");
  await addToCart(shopper, plant.id, 1);
  await shopper.goto("/cart");
  await applyCode(shopper, code);
  await expect(summary(shopper).getByTestId("order-discount")).toHaveText("−Rs. 60.00");
  await expect(summary(shopper).getByTestId("order-total")).toHaveText("Rs. 560.00");

  // The owner opens the code's edit form from its row, finds its terms filled in, and changes the percentage.
  await page.getByRole("row", { name: code }).getByRole("link", { name: `Edit ${code}` }).click();
  const form = page.getByRole("form", { name: `Edit coupon ${code}` });
  await expect(form.getByLabel("Code")).toHaveValue(code);
  await expect(form.getByLabel("Percent or amount")).toHaveValue("10");
  await expect(form.getByRole("radio", { name: "Percent", exact: true })).toBeChecked();
  await hydrated(form.getByRole("button", { name: "Save coupon" }));
  await form.getByLabel("Percent or amount").fill("25");
  await form.getByRole("button", { name: "Save coupon" }).click();
  await expect(page.getByRole("status").filter({ hasText: m.updated(code) })).toBeVisible();
  await expect(page.getByRole("row", { name: code })).toContainText("25% off");

  await shopper.reload();
  await expect(summary(shopper).getByTestId("order-discount")).toHaveText("−Rs. 150.00");
  await expect(summary(shopper).getByTestId("order-total")).toHaveText("Rs. 470.00");
  await shopper.context().close();
});

test.describe("free shipping above a threshold", () => {
  // A server of its own, started with FREE_SHIPPING_ABOVE_PAISE (the suite's server has none).
  const port = extraPort(0);
  const state: { shop?: ShopProcess; database?: Database } = {};
  test.beforeAll(async () => {
    state.shop = startShopProcess({ port, env: { FREE_SHIPPING_ABOVE_PAISE: "100000" } });
    await waitUntilHealthy(state.shop);
    state.database = openDatabase({ sqliteFile: `${state.shop.dataDir}/shop.db` });
  });
  test.afterAll(async () => {
    await state.database?.destroy();
    if (state.shop) await stopShopProcess(state.shop);
  });

  test("the cart says how much more ships free below the threshold, and shipping reads 'Free' at it, in the cart and at checkout", async ({ browser }) => {
    const db = state.database!.db;
    const plant = await createProduct(db, { name: "Threshold Monstera", price_paise: 60_000, stock: 5 });
    const user = await createShopper(db, "sqlite", { name: "Asha Free" });
    const [cookie] = await insertSessions(db, [user.id]);
    const [cookieName, value] = cookie!.split(/=(.*)/s);
    const context = await browser.newContext({ baseURL: state.shop!.url });
    await context.addCookies([{ name: cookieName!, value: value!, url: state.shop!.url }]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
    page.on("pageerror", (error) => errors.push(error.message));

    await addToCart(page, plant.id, 1);
    await page.goto("/cart");
    await expect(summary(page).getByTestId("order-shipping")).toHaveText("Rs. 20.00");
    await expect(summary(page)).toContainText(m.freeShippingIn(40_000));

    const more = page.getByRole("button", { name: `One more ${plant.name}` });
    await hydrated(more);
    await more.click();
    await expect(summary(page).getByTestId("order-shipping")).toHaveText(m.free);
    await expect(summary(page).getByTestId("order-total")).toHaveText("Rs. 1,200.00");
    await expect(summary(page)).not.toContainText("more for free shipping");

    await page.goto("/checkout");
    await expect(summary(page).getByTestId("order-shipping")).toHaveText(m.free);
    await expect(summary(page).getByTestId("order-total")).toHaveText("Rs. 1,200.00");
    await context.close();
    expect(errors).toEqual([]);
  });
});
