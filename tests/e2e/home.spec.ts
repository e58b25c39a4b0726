import { SHOP_PAGE_SIZE } from "../../common/shared/constants.ts";
import { formatPrice } from "../../common/shared/money.ts";
import { messages } from "../../common/shared/messages.ts";
import type { Locator, Page } from "@playwright/test";
import { expect, seriousAccessibilityViolations, test } from "./support/fixtures.ts";
import { hydrated } from "./support/pages.ts";

const CLOCK_START = new Date("2026-03-01T08:00:00Z").getTime();

/** Gives the page a clock of its own, stopped: its time moves only when the test moves it. Before the page loads. */
async function stopTheClock(page: Page): Promise<void> {
  await page.clock.install({ time: CLOCK_START });
  // A second ahead, whatever real time passed since the install: stopped before there is a page to run timers.
  await page.clock.pauseAt(CLOCK_START + 1_000);
}

/** The swipe engine loads after hydration and enables the buttons; the slideshow's timer starts with it. */
async function engineLoaded(carousel: Locator): Promise<void> {
  await expect(carousel.getByRole("button", { name: "Next slide" })).toBeEnabled();
}

/**
 * Moves the page's stopped clock on in steps until `slide` is the shown one, at most 3.5 s of the page's time: one
 * autoplay wait and a margin. In steps, because the moment the slideshow's timer was set is not known exactly.
 */
async function playUntilSelected(page: Page, slide: Locator): Promise<void> {
  for (let elapsed = 0; elapsed < 3_500; elapsed += 250) {
    if ((await slide.getAttribute("data-selected")) === "true") break;
    await page.clock.runFor(250);
  }
  await expect(slide).toHaveAttribute("data-selected", "true", { timeout: 1_000 });
}

test.describe("home page", () => {
  test("shows every block of the home page with working links", async ({ page, shopDb }) => {
    await page.goto("/");
    await expect(page).toHaveTitle("Plant Shop");

    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Home" })).toHaveAttribute("href", "/");
    await expect(nav.getByRole("link", { name: "Shop", exact: true })).toHaveCount(0);
    await expect(nav.getByRole("link", { name: "Cart" })).toHaveAttribute("href", "/cart");
    await expect(nav.getByRole("link", { name: "Login" })).toHaveAttribute("href", /^\/login\?redirectTo=/);

    await expect(page.getByRole("link", { name: messages.home.shopCollection })).toHaveAttribute("href", "/shop");
    for (const tile of messages.home.promiseTiles) await expect(page.getByRole("heading", { name: tile })).toBeVisible();
    await expect(page.getByText(messages.home.promoBanner)).toBeVisible();
    await expect(page.getByRole("link", { name: messages.home.seeMore })).toHaveAttribute("href", "/shop");

    // New Products: the six newest, newest first, each a card linking to its product.
    const newest = await shopDb.db
      .selectFrom("products")
      .select(["id", "name", "price_paise"])
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(6)
      .execute();
    const newProducts = page.getByRole("region", { name: messages.home.newProducts });
    const cards = newProducts.getByRole("article");
    await expect(cards).toHaveCount(6);
    for (const [index, product] of newest.entries()) {
      const card = cards.nth(index);
      await expect(card.getByRole("heading")).toHaveText(product.name);
      await expect(card.getByText(formatPrice(product.price_paise))).toBeVisible();
      await expect(card.getByRole("link")).toHaveAttribute("href", `/product/${product.id}`);
    }

    // Popular Categories: the first page (12, oldest first), then Load More when there are more (docs/product.md, Home).
    const firstPage = await shopDb.db.selectFrom("categories").select(["id", "name"]).orderBy("created_at").orderBy("name").limit(SHOP_PAGE_SIZE + 1).execute();
    const categories = firstPage.slice(0, SHOP_PAGE_SIZE);
    const popular = page.getByRole("region", { name: messages.home.popularCategories });
    const loadMore = popular.getByRole("link", { name: messages.shop.loadMore });
    await expect(loadMore).toHaveCount(firstPage.length > SHOP_PAGE_SIZE ? 1 : 0);
    await expect(popular.getByRole("link")).toHaveCount(categories.length + (firstPage.length > SHOP_PAGE_SIZE ? 1 : 0));
    for (const category of categories) {
      await expect(popular.getByRole("link", { name: category.name })).toHaveAttribute("href", `/category/${category.id}`);
    }

    await expect(page.getByRole("heading", { name: messages.home.aboutUs })).toBeVisible();
    await expect(page.getByRole("heading", { name: messages.home.contactUs })).toBeVisible();
    const footer = page.getByRole("contentinfo");
    await expect(footer).toContainText("© 2025");
    await expect(footer).toContainText(`${messages.madeWithLoveBy} the Plant Shop team`);

    await page.getByRole("link", { name: messages.home.shopCollection }).click();
    await expect(page).toHaveURL(/\/shop$/);
    await expect(page.getByRole("heading", { name: messages.shop.heading })).toBeVisible();
  });

  test("the banner carousel plays by itself, loops, and can be paused and moved by hand", async ({ page }) => {
    // The page's timers run on a clock this test moves: the slideshow's 3 s wait costs no real time.
    await stopTheClock(page);
    await page.goto("/");
    const carousel = page.getByRole("region", { name: "Featured" });
    const slide = (n: number) => carousel.getByRole("group", { name: `${n} of 2`, includeHidden: true });
    await expect(slide(1)).toHaveAttribute("data-selected", "true");
    await engineLoaded(carousel);
    // Autoplay every 3000 ms: the second slide comes, then the first again.
    await playUntilSelected(page, slide(2));
    await playUntilSelected(page, slide(1));

    await carousel.getByRole("button", { name: "Pause slideshow" }).click();
    await expect(carousel.getByRole("button", { name: "Play slideshow" })).toBeVisible();
    await carousel.getByRole("button", { name: "Next slide" }).click();
    await expect(slide(2)).toHaveAttribute("data-selected", "true");
    // Paused stays paused, also after the mouse has come over the pictures and gone (which only rests a playing slideshow).
    const box = await carousel.boundingBox();
    if (!box) throw new Error("the carousel has no box");
    await page.mouse.move(box.x + box.width - 40, box.y + 40);
    await page.mouse.move(10, box.y + box.height + 200);
    // One autoplay wait and a margin, not two: with two slides, a second turn would bring this one back.
    await page.clock.runFor(4_000);
    await expect(slide(2)).toHaveAttribute("data-selected", "true");
    await expect(carousel.getByRole("button", { name: "Play slideshow" })).toBeVisible();
    await carousel.getByRole("button", { name: "Go to slide 1" }).click();
    await expect(slide(1)).toHaveAttribute("data-selected", "true");
  });

  test("the slideshow stops when keyboard focus enters it, and plays again from its play button", async ({ page }) => {
    await stopTheClock(page);
    await page.goto("/");
    const carousel = page.getByRole("region", { name: "Featured" });
    const pause = carousel.getByRole("button", { name: "Pause slideshow" });
    await hydrated(pause);
    await pause.focus();
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Tab");
    const play = carousel.getByRole("button", { name: "Play slideshow" });
    await expect(play).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(carousel.getByRole("button", { name: "Pause slideshow" })).toBeVisible();
    await page.mouse.move(10, 10);
    await engineLoaded(carousel);
    await playUntilSelected(page, carousel.getByRole("group", { name: "2 of 2", includeHidden: true }));
  });

  test("has no serious accessibility violations", async ({ page }) => {
    await page.goto("/");
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });
});

test.describe("Contact Us", () => {
  test("names each missing field, then sends, stores, thanks and clears", async ({ page, shopDb }) => {
    await page.goto("/");
    const form = page.getByRole("region", { name: messages.home.contactUs });
    await hydrated(form.getByRole("button", { name: "Send Message" }));
    await form.getByRole("button", { name: "Send Message" }).click();
    // The first field to fix has the focus.
    await expect(form.getByLabel("Name")).toBeFocused();
    for (const text of [
      messages.contact.nameRequired,
      messages.contact.emailRequired,
      messages.contact.subjectRequired,
      messages.contact.messageRequired,
    ]) {
      await expect(form.getByText(text)).toBeVisible();
    }
    await form.getByLabel("Email").fill("not-an-address");
    await form.getByRole("button", { name: "Send Message" }).click();
    await expect(form.getByText(messages.validation.invalidEmail)).toBeVisible();

    const subject = `Delivery question ${Date.now()}`;
    await form.getByLabel("Name").fill("Meera");
    await form.getByLabel("Email").fill("meera@example.com");
    await form.getByLabel("Subject").fill(subject);
    await form.getByLabel("Message").fill("Do you deliver to Bengaluru?");
    // Hold the message on its way, to see the spinner while it is sent.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/*", async (route) => {
      if (route.request().method() === "POST") await held;
      await route.continue();
    });
    await form.getByRole("button", { name: "Send Message" }).click();
    await expect(form.getByRole("status").getByText("Sending message")).toBeAttached();
    await expect(form.getByRole("button", { name: /Send Message/ })).toBeDisabled();
    release();
    await expect(page.getByText(messages.contact.sent)).toBeVisible();
    await expect(form.getByRole("status").getByText("Sending message")).toHaveCount(0);
    await expect(form.getByLabel("Name")).toHaveValue("");
    await expect(form.getByLabel("Subject")).toHaveValue("");
    await expect(form.getByText(messages.contact.nameRequired)).toHaveCount(0);

    const stored = await shopDb.db.selectFrom("contact_messages").selectAll().where("subject", "=", subject).execute();
    expect(stored).toEqual([expect.objectContaining({ name: "Meera", email: "meera@example.com", message: "Do you deliver to Bengaluru?" })]);
  });

  test("works before JavaScript has loaded: names what is missing, then says the message was sent, in view", async ({ browser, shopDb }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/");
    const form = page.getByRole("region", { name: messages.home.contactUs });
    await form.getByLabel("Name").fill("Ravi");
    await form.getByRole("button", { name: "Send Message" }).click();
    await expect(form.getByText(messages.contact.emailRequired)).toBeVisible();
    await expect(form.getByText(messages.contact.subjectRequired)).toBeVisible();

    const subject = `Without scripts ${Date.now()}`;
    await form.getByLabel("Name").fill("Ravi");
    await form.getByLabel("Email").fill("ravi@example.com");
    await form.getByLabel("Subject").fill(subject);
    await form.getByLabel("Message").fill("Is the fiddle leaf fig pet safe?");
    await form.getByRole("button", { name: "Send Message" }).click();
    await expect(form.getByRole("status")).toHaveText(messages.contact.sent);
    // The page comes back at the form, so the confirmation is in view, not below the banner.
    await expect(form.getByRole("status")).toBeInViewport();
    const stored = await shopDb.db.selectFrom("contact_messages").select("name").where("subject", "=", subject).execute();
    expect(stored).toEqual([{ name: "Ravi" }]);
    await context.close();
  });
});
