import { readFileSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { messages } from "../../common/shared/messages.ts";
import { formatPrice, formatPriceExact } from "../../common/shared/money.ts";
import type { Database } from "../../server/platform/db/client.ts";
import { shopDay } from "../../server/platform/shop-day.ts";
import { createProduct } from "../support/factories.ts";
import { insertSessions } from "../support/shop-process.ts";
import { createShopper } from "../support/shoppers.ts";
import { allowStatusLogs, expect as baseExpect, test } from "./support/fixtures.ts";
import { ADMIN, mainNav, urlIs } from "./support/pages.ts";
import { fillShipping } from "./support/shopper.ts";

// The owner's overview and inbox (docs/decisions/024) in the browser. The e2e server counts days in India (SHOP_TIME_ZONE unset).

/** A session for `userId` written into the server's database, as the cookie a browser would hold. */
async function sessionCookie(shopDb: Database, userId: string) {
  const secret = readFileSync(path.join(process.env.E2E_DATA_DIR!, "auth-secret"), "utf8").trim();
  const [cookie] = await insertSessions(shopDb.db, [userId], secret);
  const [name, value] = cookie!.split(/=(.*)/s);
  return { name: name!, value: value!, url: origin() };
}

/** A new browser context signed in as `userId`. */
async function signedInContext(browser: Browser, shopDb: Database, userId: string, options: { javaScriptEnabled?: boolean } = {}): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  await context.addCookies([await sessionCookie(shopDb, userId)]);
  return context;
}

/**
 * Signs `page` in as the admin with a session cookie: the login form has its own tests, and on a busy machine
 * its toast can come before the page's scripts are ready to show it.
 */
async function signInAsAdmin(page: Page, shopDb: Database) {
  const admin = await shopDb.db.selectFrom("users").select("id").where("email", "=", ADMIN.email).executeTakeFirstOrThrow();
  await page.context().addCookies([await sessionCookie(shopDb, admin.id)]);
  return admin;
}

// Several server-rendered pages per test: on a machine shared by many test runs a page can take longer than
// the default five seconds to arrive, which says nothing about the page.
const expect = baseExpect.configure({ timeout: 15_000 });

const origin = () => `http://127.0.0.1:${process.env.E2E_PORT}`;

/** Today's row of the daily totals, as the database has it (zeros before the day's first order). */
async function todaysTotals(shopDb: Database) {
  const row = await shopDb.db.selectFrom("order_daily_totals").selectAll().where("day", "=", shopDay(new Date(), "Asia/Kolkata")).executeTakeFirst();
  return { placed: Number(row?.orders_placed ?? 0), cancelled: Number(row?.orders_cancelled ?? 0), revenuePaise: Number(row?.revenue_paise ?? 0) };
}

const figure = (page: Page, label: string) =>
  page.getByRole("main").locator("dl > div").filter({ has: page.getByRole("term").filter({ hasText: new RegExp(`^${label}$`) }) });

test.describe("the admin overview", () => {
  // Two people in two browsers, several pages each: more time than one page's test, on a busy machine too.
  test.describe.configure({ timeout: 180_000 });

  test("an admin sees an order a shopper has just placed in today's numbers", async ({ page, browser, shopDb }) => {
    const before = await todaysTotals(shopDb);
    const plant = await createProduct(shopDb.db, { name: `Overview Calathea ${randomUUID().slice(0, 8)}`, price_paise: 61_500, stock: 4 });

    // A shopper orders two.
    const shopper = await createShopper(shopDb.db, shopDb.dialect, { name: "Lata Rao" });
    const shopperContext = await signedInContext(browser, shopDb, shopper.id);
    const shopperPage = await shopperContext.newPage();
    // Into the cart through the API (the cart's own pages have their tests); the checkout through its page.
    const added = await shopperPage.request.post("/api/cart/items", { data: { productId: plant.id, quantity: 2 }, headers: { Origin: origin() } });
    expect(added.status()).toBe(201);
    await shopperPage.goto("/checkout");
    await fillShipping(shopperPage);
    await shopperPage.getByRole("button", { name: messages.checkout.placeOrder }).click();
    await expect(shopperPage).toHaveURL(/\/orders\/[\w-]+$/);
    await shopperContext.close();

    const after = await todaysTotals(shopDb);
    expect(after).toEqual({ placed: before.placed + 1, cancelled: before.cancelled, revenuePaise: before.revenuePaise + 2 * 61_500 + 2_000 });

    // The admin reaches the overview from the top bar.
    await signInAsAdmin(page, shopDb);
    await page.goto("/");
    await mainNav(page).getByRole("link", { name: "Admin", exact: true }).click();
    await expect(page).toHaveURL(urlIs("/admin"));
    await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Overview" })).toHaveAttribute("aria-current", "page");
    const today = figure(page, "Orders today");
    await expect(today.getByRole("definition").first()).toHaveText(String(after.placed - after.cancelled));
    await expect(today).toContainText(`${formatPrice(after.revenuePaise)} revenue`);
    await expect(figure(page, "Orders, last 30 days").getByRole("definition").first()).not.toHaveText("0");

    // The plant is down to two: it is listed as low in stock, linking to its page.
    await expect(page.getByRole("region", { name: "Low in stock" }).getByRole("listitem").filter({ hasText: plant.name })).toContainText("2 left");

    // The figures link into their lists.
    await today.getByRole("link", { name: "See the orders" }).click();
    await expect(page).toHaveURL(urlIs("/admin/orders"));
    await expect(page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Orders" })).toHaveAttribute("aria-current", "page");
  });

  test("an admin reads a message sent through Contact Us and marks it handled, and back", async ({ page, shopDb }) => {
    const subject = `Overview question ${randomUUID().slice(0, 8)}`;
    await page.goto("/");
    const form = page.getByRole("region", { name: messages.home.contactUs });
    // The form works before and after the page's scripts load (home.spec.ts tests both), so no wait for them.
    await form.getByLabel("Name").fill("Nisha");
    await form.getByLabel("Email").fill("nisha@example.com");
    await form.getByLabel("Subject").fill(subject);
    await form.getByLabel("Message").fill("Do you sell terracotta pots?\nLarge ones.");
    await form.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByText(messages.contact.sent).first()).toBeVisible();

    await signInAsAdmin(page, shopDb);
    await page.goto("/admin");
    const unhandled = figure(page, "Unhandled messages");
    await expect(unhandled.getByRole("definition").first()).not.toHaveText("0");
    await unhandled.getByRole("link", { name: "Read the messages" }).click();
    await expect(page).toHaveURL(urlIs("/admin/messages?filter=unhandled"));
    await expect(page.getByRole("link", { name: "Not handled yet" })).toHaveAttribute("aria-current", "page");

    const message = page.getByRole("article", { name: subject });
    await expect(message).toContainText("From Nisha <nisha@example.com>");
    await expect(message).toContainText("Do you sell terracotta pots?");
    await expect(message).toContainText("Not handled yet");
    await message.getByRole("button", { name: "Mark as handled" }).click();
    // Gone from the unhandled ones…
    await expect(message).toHaveCount(0);
    const stored = await shopDb.db.selectFrom("contact_messages").select("handled_at").where("subject", "=", subject).executeTakeFirstOrThrow();
    expect(stored.handled_at).not.toBeNull();

    // …and shown as handled among all of them, where it can be put back.
    await page.getByRole("link", { name: "All messages" }).click();
    await expect(page).toHaveURL(urlIs("/admin/messages"));
    await expect(message).toHaveAttribute("data-handled", "true");
    await expect(message).toContainText("Handled ");
    await message.getByRole("button", { name: "Mark as not handled" }).click();
    await expect(message).toContainText("Not handled yet");
    await expect(message).toHaveAttribute("data-handled", "false");
  });

  test("a shopper gets 403 on /admin and /admin/messages, and a visitor is sent to log in", async ({ page, browser, shopDb, consoleErrors }) => {
    await page.goto("/admin");
    await expect(page).toHaveURL(urlIs(`/login?redirectTo=${encodeURIComponent("/admin")}`));
    await page.goto("/admin/messages");
    await expect(page).toHaveURL(urlIs(`/login?redirectTo=${encodeURIComponent("/admin/messages")}`));

    const shopper = await createShopper(shopDb.db, shopDb.dialect, { name: "Dev Shah" });
    const context = await signedInContext(browser, shopDb, shopper.id);
    const shopperPage = await context.newPage();
    for (const target of ["/admin", "/admin/messages", "/admin/messages?filter=unhandled"]) {
      const response = await shopperPage.goto(target);
      expect(response?.status(), target).toBe(403);
      await expect(shopperPage.getByRole("heading", { name: messages.auth.forbidden })).toBeVisible();
      await expect(shopperPage.getByRole("navigation", { name: "Admin" })).toHaveCount(0);
    }
    await expect(mainNav(shopperPage).getByRole("link", { name: "Admin", exact: true })).toHaveCount(0);
    await context.close();
    allowStatusLogs(consoleErrors, 403);
  });

  test("the revenue chart and its table of numbers are there without JavaScript", async ({ browser, shopDb }) => {
    const admin = await shopDb.db.selectFrom("users").select("id").where("email", "=", ADMIN.email).executeTakeFirstOrThrow();
    const context = await signedInContext(browser, shopDb, admin.id, { javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/admin");
    const chart = page.getByRole("img", { name: "Revenue per day, last 30 days" });
    await expect(chart).toBeVisible();
    await expect(chart.locator("rect")).toHaveCount(30);
    await expect(chart).toHaveAccessibleDescription(/^From \d+ \w+ to \d+ \w+\. (Best day|No orders)/);
    const totals = await todaysTotals(shopDb);
    // The native disclosure opens without scripts; its table has a row per day, today first.
    await page.getByText("The numbers by day").click();
    const rows = page.getByRole("table").getByRole("row");
    await expect(rows).toHaveCount(31);
    await expect(rows.nth(1).getByRole("cell")).toHaveText([
      String(totals.placed - totals.cancelled),
      String(totals.cancelled),
      formatPriceExact(totals.revenuePaise),
    ]);
    await context.close();
  });
});
