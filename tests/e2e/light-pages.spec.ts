import type { Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { messages } from "../../common/shared/messages.ts";
import { createProduct } from "../support/factories.ts";
import { expect, test } from "./support/fixtures.ts";
import { hydrated, logIn, toast } from "./support/pages.ts";
import { emptyCart } from "./support/api.ts";
import { cartCountName, cartLink, verifiedShopper } from "./support/shopper.ts";

// Pages load what the first paint needs and the rest on demand (docs/decisions/028): the toast
// library, zod and the carousel engine come after hydration. These tests hold those late scripts back on
// purpose, to prove that what a visitor does before they arrive still works.

/**
 * Holds back every script the page did not preload in its HTML — the ones it imports on demand — until
 * `release` is called. Returns the held URLs too, so a test can tell that something was really held.
 */
async function holdLateScripts(page: Page, path: string) {
  const html = await (await page.request.get(path)).text();
  const preloaded = new Set([...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((match) => match[1]));
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const held: string[] = [];
  await page.route("**/assets/*.js", async (route) => {
    const url = new URL(route.request().url()).pathname;
    if (!preloaded.has(url)) {
      held.push(url);
      await released;
    }
    await route.continue();
  });
  return { release, held };
}

test.describe("pages load libraries on demand", () => {
  test("a toast asked for before the toast library has loaded shows once it arrives (Add to Cart)", async ({ page, shopDb }) => {
    const shopper = await verifiedShopper(page, shopDb, 1);
    await emptyCart(shopper);
    const plant = await createProduct(shopDb.db, { name: `Early Toast Fern ${randomUUID().slice(0, 8)}`, stock: 3 });
    await logIn(page, shopper);

    const late = await holdLateScripts(page, `/product/${plant.id}`);
    await page.goto(`/product/${plant.id}`);
    const button = page.getByRole("button", { name: messages.product.addToCart });
    await hydrated(button);
    await button.click();
    await expect(cartLink(page)).toHaveAccessibleName(cartCountName(1));
    // Added, but the toast library is still held back: no toast can show yet.
    expect(late.held.length).toBeGreaterThan(0);
    await expect(toast(page, messages.cart.added)).toHaveCount(0);
    late.release();
    await expect(toast(page, messages.cart.added)).toBeVisible();
  });

  test("the contact form names missing fields when sent before zod has loaded, with no Content-Security-Policy report", async ({ page }) => {
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener("securitypolicyviolation", (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
    });
    const late = await holdLateScripts(page, "/");
    await page.goto("/");
    const form = page.getByRole("region", { name: messages.home.contactUs });
    const send = form.getByRole("button", { name: "Send Message" });
    await hydrated(send);
    await send.click();
    // Nothing is said before zod arrives; the submit waits for it, then checks.
    await expect(form.getByText(messages.contact.nameRequired)).toHaveCount(0);
    late.release();
    await expect(form.getByLabel("Name")).toBeFocused();
    for (const text of [messages.contact.nameRequired, messages.contact.emailRequired, messages.contact.subjectRequired, messages.contact.messageRequired]) {
      await expect(form.getByText(text)).toBeVisible();
    }
    await form.getByLabel("Email").fill("not-an-address");
    await send.click();
    await expect(form.getByText(messages.validation.invalidEmail)).toBeVisible();
    // zod, set to jitless in the browser, never probed `new Function` (which the CSP forbids and reports).
    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
  });
});

test.describe("what Lighthouse's audits check", () => {
  test("the shop's product names are headings one level below its h1, and See More says where it goes", async ({ page }) => {
    await page.goto("/shop");
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1, name: messages.shop.heading })).toBeVisible();
    await expect(main.getByRole("article").first().getByRole("heading", { level: 2 })).toBeVisible();
    await expect(main.getByRole("heading", { level: 3 })).toHaveCount(0);

    await page.goto("/");
    const seeMore = page.getByRole("link", { name: `${messages.home.seeMore} ${messages.home.seeMoreHidden}`, exact: true });
    await expect(seeMore).toHaveAttribute("href", "/shop");
    // The visible words stay 'See More' alone (docs/product.md, Home).
    await expect(seeMore.locator(":scope > :not(.sr-only)")).toHaveCount(0);
    expect(await seeMore.evaluate((link) => link.firstChild?.textContent)).toBe(messages.home.seeMore);
  });

  test("each page's largest picture is fetched at high priority and never lazily, and in the shop's grid only that one is preloaded; the stylesheet comes before the scripts", async ({ page }) => {
    await page.goto("/");
    const hero = page.getByRole("region", { name: "Featured" }).locator("img").first();
    await expect(hero).toHaveAttribute("fetchpriority", "high");
    await expect(hero).toHaveAttribute("loading", "eager");
    const order = await page.evaluate(() =>
      [...document.head.querySelectorAll('link[rel="stylesheet"], link[rel="modulepreload"]')].map((link) => link.getAttribute("rel")),
    );
    expect(order[0]).toBe("stylesheet");

    // In the shop's grid only the first picture is eager (and preloaded in the head); the others wait their turn.
    await page.goto("/shop");
    const pictures = page.getByRole("main").getByRole("article").locator("img");
    await expect(pictures.nth(0)).toHaveAttribute("fetchpriority", "high");
    await expect(pictures.nth(0)).toHaveAttribute("loading", "eager");
    await expect(pictures.nth(1)).toHaveAttribute("loading", "lazy");
    const preloaded = await page.evaluate(() => [...document.head.querySelectorAll('link[rel="preload"][as="image"]')].map((link) => link.getAttribute("href")));
    expect(preloaded).toContain(await pictures.nth(0).getAttribute("src"));
    expect(preloaded).not.toContain(await pictures.nth(1).getAttribute("src"));
  });
});
