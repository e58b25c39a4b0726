import { readFileSync } from "node:fs";
import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import { formatDate } from "../../common/shared/dates.ts";
import { messages } from "../../common/shared/messages.ts";
import type { Database } from "../../server/platform/db/client.ts";
import { DEFAULT_SHOP_TIME_ZONE } from "../../server/platform/shop-day.ts";
import { createProduct, createReviews } from "../support/factories.ts";
import { insertSessions } from "../support/shop-process.ts";
import { createShopper } from "../support/shoppers.ts";
import { allowStatusLogs, expect as baseExpect, seriousAccessibilityViolations, test } from "./support/fixtures.ts";
import { toast } from "./support/pages.ts";

const r = messages.reviews;
// A saved review's toast shows once the page's data is read again; on a busy machine that takes more than 5 s.
const expect = baseExpect.configure({ timeout: 15_000 });

/**
 * A verified person written into the server's database and signed in in this browser, with a session cookie
 * signed by the secret the server keeps in its data folder (sign-ups are rate-limited per address).
 */
async function signedIn(page: Page, database: Database, { name, isAdmin = false }: { name: string; isAdmin?: boolean }) {
  const user = await createShopper(database.db, database.dialect, { name, isAdmin });
  const secret = readFileSync(path.join(process.env.E2E_DATA_DIR!, "auth-secret"), "utf8").trim();
  const [cookie] = await insertSessions(database.db, [user.id], secret);
  const [cookieName, value] = cookie!.split(/=(.*)/s);
  await page.context().clearCookies();
  await page.context().addCookies([{ name: cookieName!, value: value!, url: `http://127.0.0.1:${process.env.E2E_PORT}` }]);
  return user;
}

/** As support/pages.ts's hydrated(), with this file's longer wait: the first page after the server starts hydrates slowly here. */
async function hydrated(element: Locator) {
  await expect
    .poll(() => element.evaluate((el) => Object.keys(el).some((key) => key.startsWith("__reactProps"))), { message: "the page hydrates" })
    .toBe(true);
}

const panel = (page: Page) => page.getByTestId("reviews-panel");
const reviewForm = (page: Page) => page.locator("form").filter({ has: page.getByLabel(r.yourReview) });

/** Clicks a star as a person does: on its picture (the radio itself is visually hidden). */
async function pickStars(form: Locator, stars: number) {
  await form.locator("label", { has: form.page().getByRole("radio", { name: r.starName(stars), exact: true }) }).click();
}

/** The posts this page sends to the product's own action (the review form's, with or without JavaScript), as they leave. */
function postsTo(page: Page, productId: string) {
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname.startsWith(`/product/${productId}`)) posts.push(request.url());
  });
  return posts;
}

async function writeReview(page: Page, text: string, stars: number) {
  const form = reviewForm(page);
  await hydrated(form.getByRole("button", { name: r.addReview }));
  await form.getByLabel(r.yourReview).fill(text);
  await pickStars(form, stars);
  await form.getByRole("button", { name: r.addReview }).click();
}

test.describe("reviews", () => {
  // Each test walks through several page loads and form posts; 30 s is too little on a busy two-core machine.
  test.describe.configure({ timeout: 90_000 });
  test("shows the empty state and asks a visitor to log in instead of the form", async ({ page, shopDb }) => {
    const plant = await createProduct(shopDb.db);
    await page.goto(`/product/${plant.id}`);
    await expect(panel(page)).toHaveText(new RegExp(r.empty.replace(/[.!]/g, "\\$&")));
    await expect(panel(page)).toHaveCSS("height", "500px");
    await expect(panel(page)).toHaveCSS("overflow-y", "auto");
    await expect(page.getByRole("link", { name: r.logInToReview })).toHaveAttribute("href", `/login?redirectTo=${encodeURIComponent(`/product/${plant.id}`)}`);
    await expect(page.getByRole("button", { name: r.addReview })).toHaveCount(0);
    await expect(page.getByText(r.noRatingYet)).toBeVisible();
  });

  test("checks the review form in the browser: each missing field shows 'Please provide a review and a rating.' and takes the focus, with no request to the server; a valid review then posts once and shows", async ({ page, shopDb }) => {
    const plant = await createProduct(shopDb.db);
    await signedIn(page, shopDb, { name: "Meera Iyer" });
    const posts = postsTo(page, plant.id);
    await page.goto(`/product/${plant.id}`);
    const form = reviewForm(page);
    const send = form.getByRole("button", { name: r.addReview });
    const text = form.getByLabel(r.yourReview);
    const stars = form.getByRole("group", { name: r.rating });
    await hydrated(send);

    // Nothing written, no stars: both fields say so, and the text, the first of them, has the focus.
    await send.click();
    await expect(text).toHaveAccessibleDescription(r.incomplete);
    await expect(stars).toHaveAccessibleDescription(r.incomplete);
    await expect(text).toHaveAttribute("aria-invalid", "true");
    await expect(text).toBeFocused();
    expect(posts).toEqual([]);

    // Text but no stars: only the rating is in error, and its first star takes the focus.
    await text.fill("Lovely leaves");
    await send.click();
    await expect(stars).toHaveAccessibleDescription(r.incomplete);
    await expect(text).not.toHaveAttribute("aria-invalid");
    await expect(text).toHaveAccessibleDescription("");
    await expect(form.getByRole("radio", { name: r.starName(1), exact: true })).toBeFocused();
    expect(posts).toEqual([]);

    // Only spaces are no text, as on the server.
    await text.fill("   ");
    await pickStars(form, 4);
    await send.click();
    await expect(text).toHaveAccessibleDescription(r.incomplete);
    await expect(stars).toHaveAccessibleDescription("");
    await expect(text).toBeFocused();
    expect(posts).toEqual([]);
    await expect(panel(page)).toContainText(r.empty);

    await text.fill("Lovely leaves");
    await send.click();
    await expect(toast(page, r.added)).toBeVisible();
    await expect(panel(page).getByTestId("review")).toContainText("Lovely leaves");
    await expect(text).toHaveAccessibleDescription("");
    await expect(stars).toHaveAccessibleDescription("");
    // One post, the valid one: none of the refused submits above reached the server (requests are reported in order).
    expect(posts).toHaveLength(1);
  });

  test("when the browser's check cannot load, the server refuses an empty review and its messages show on the fields", async ({ page, shopDb, consoleErrors }) => {
    const plant = await createProduct(shopDb.db);
    await signedIn(page, shopDb, { name: "Meera Iyer" });
    // zod is imported on demand, after this module (use-form-errors.ts): without it the form is sent unchecked.
    const refused: string[] = [];
    await page.route("**/assets/zod-in-browser-*.js", (route) => {
      refused.push(route.request().url());
      return route.abort();
    });
    const posts = postsTo(page, plant.id);
    await page.goto(`/product/${plant.id}`);
    const form = reviewForm(page);
    const send = form.getByRole("button", { name: r.addReview });
    await hydrated(send);

    await send.click();
    await expect(form.getByLabel(r.yourReview)).toHaveAccessibleDescription(r.incomplete);
    await expect(form.getByRole("group", { name: r.rating })).toHaveAccessibleDescription(r.incomplete);
    expect(refused).toHaveLength(1);
    expect(posts).toHaveLength(1);
    await expect(panel(page)).toContainText(r.empty);
    // The refused post's 400 and the script held back are what this test provokes.
    allowStatusLogs(consoleErrors, 400);
    consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((error) => error !== "Failed to load resource: net::ERR_FAILED"));
  });

  test("without JavaScript, the review form posts to the page: an empty review is refused with 'Please provide a review and a rating.' on both fields, a valid one is saved and shown", async ({ browser, shopDb }) => {
    const plant = await createProduct(shopDb.db);
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await signedIn(page, shopDb, { name: "Meera Iyer" });
    await page.goto(`/product/${plant.id}`);
    const form = reviewForm(page);
    await form.getByRole("button", { name: r.addReview }).click();
    await expect(form.getByLabel(r.yourReview)).toHaveAccessibleDescription(r.incomplete);
    await expect(form.getByRole("group", { name: r.rating })).toHaveAccessibleDescription(r.incomplete);
    await expect(panel(page)).toContainText(r.empty);

    await form.getByLabel(r.yourReview).fill("Sent before any script");
    await pickStars(form, 3);
    await form.getByRole("button", { name: r.addReview }).click();
    await expect(panel(page).getByTestId("review")).toContainText("Sent before any script");
    await expect(form.getByLabel(r.yourReview)).toHaveValue("Sent before any script");
    await expect(form.getByLabel(r.yourReview)).toHaveAccessibleDescription("");
    await context.close();
  });

  test("adds, edits and deletes a review; the average shows on the page and on the product's card", async ({ page, shopDb }) => {
    const plant = await createProduct(shopDb.db, { name: `Reviewed Fern ${Date.now()}` });
    // Someone else's earlier review, so that the average is of two.
    const ravi = await createShopper(shopDb.db, shopDb.dialect, { name: "Ravi Menon" });
    await createReviews(shopDb.db, plant.id, [{ user_id: ravi.id, rating: 2, text: "Drooped a bit", created_at: "2025-06-01T10:00:00.000Z" }]);

    await signedIn(page, shopDb, { name: "Meera Iyer" });
    await page.goto(`/product/${plant.id}`);
    await writeReview(page, "Grows like <b>mad</b>", 5);
    await expect(toast(page, r.added)).toBeVisible();
    const reviews = panel(page).getByTestId("review");
    await expect(reviews).toHaveCount(2);
    await expect(reviews.first()).toContainText("Grows like <b>mad</b>");
    await expect(reviews.first()).toContainText("by Meera Iyer");
    await expect(reviews.first().getByRole("img", { name: "5 stars" })).toBeVisible();
    await expect(reviews.nth(1)).toContainText("by Ravi Menon");
    await expect(page.getByText(r.average("3.5", 2))).toBeVisible();

    // The form shows the shopper's own review; writing again replaces it.
    const form = reviewForm(page);
    await expect(form.getByLabel(r.yourReview)).toHaveValue("Grows like <b>mad</b>");
    await expect(form.getByRole("radio", { name: "5 stars", exact: true })).toBeChecked();
    await expect(form.getByTestId("chosen-rating")).toHaveText("5 stars");
    // The star picker is a radio group: the arrow keys move the choice.
    await form.getByRole("radio", { name: "5 stars", exact: true }).focus();
    await page.keyboard.press("ArrowLeft");
    await expect(form.getByRole("radio", { name: "4 stars", exact: true })).toBeChecked();
    await expect(form.getByTestId("chosen-rating")).toHaveText("4 stars");
    await form.getByLabel(r.yourReview).fill("Grows fast, needs a bigger pot");
    await form.getByRole("button", { name: r.addReview }).click();
    await expect(reviews.first()).toContainText("Grows fast, needs a bigger pot");
    await expect(reviews).toHaveCount(2);
    await expect(page.getByText(r.average("3.0", 2))).toBeVisible();

    // The card in the shop shows the same figures.
    await page.goto(`/shop?q=${encodeURIComponent(plant.name)}`);
    const card = page.getByRole("article").filter({ hasText: plant.name });
    await expect(card.getByLabel(r.average("3.0", 2))).toBeVisible();
    await page.goto(`/product/${plant.id}`);

    // Only the author's own review offers Delete.
    await expect(reviews.nth(1).getByRole("button", { name: r.deleteReview })).toHaveCount(0);
    const mine = reviews.first();
    await hydrated(mine.getByRole("button", { name: r.deleteReview }));
    await mine.getByRole("button", { name: r.deleteReview }).click();
    await expect(toast(page, r.deleted)).toBeVisible();
    await expect(reviews).toHaveCount(1);
    await expect(page.getByText(r.average("2.0", 1))).toBeVisible();
    await expect(reviewForm(page).getByLabel(r.yourReview)).toHaveValue("");
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });

  test("lets an admin delete anyone's review", async ({ page, shopDb }) => {
    const plant = await createProduct(shopDb.db);
    const ravi = await createShopper(shopDb.db, shopDb.dialect, { name: "Ravi Menon" });
    await createReviews(shopDb.db, plant.id, [{ user_id: ravi.id, rating: 1, text: "Buy cheap pots at example.com", created_at: "2025-06-01T10:00:00.000Z" }]);
    await signedIn(page, shopDb, { name: "Shop Owner", isAdmin: true });
    await page.goto(`/product/${plant.id}`);
    const review = panel(page).getByTestId("review");
    await expect(review).toContainText("Buy cheap pots");
    await hydrated(review.getByRole("button", { name: r.deleteReview }));
    await review.getByRole("button", { name: r.deleteReview }).click();
    await expect(panel(page)).toContainText(r.empty);
    await expect(page.getByText(r.noRatingYet)).toBeVisible();
  });

  test("pages through many reviews with 'More reviews', newest first, without JavaScript", async ({ browser, shopDb }) => {
    const plant = await createProduct(shopDb.db);
    const authors = await Promise.all(Array.from({ length: 12 }, (_, i) => createShopper(shopDb.db, shopDb.dialect, { name: `Reviewer ${i + 1}` })));
    await createReviews(
      shopDb.db,
      plant.id,
      authors.map((author, i) => ({ user_id: author.id, rating: 4, text: `Review number ${i + 1}`, created_at: new Date(Date.UTC(2030, 0, 1 + i)).toISOString() })),
    );
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`/product/${plant.id}`);
    const reviews = panel(page).getByTestId("review");
    await expect(reviews).toHaveCount(10);
    await expect(reviews.first()).toContainText("Review number 12");
    await page.getByRole("link", { name: r.moreReviews }).click();
    await expect(reviews).toHaveCount(2);
    await expect(reviews.first()).toContainText("Review number 2");
    await expect(reviews.last()).toContainText("Review number 1");
    await expect(page.getByRole("link", { name: r.moreReviews })).toHaveCount(0);
    await page.getByRole("link", { name: r.newestReviews }).click();
    await expect(reviews.first()).toContainText("Review number 12");
    await context.close();
  });

  test.describe("in a browser whose own time zone is not the shop's", () => {
    // A browser zone in which today is another day than in the e2e shop's zone (India, SHOP_TIME_ZONE unset, which
    // keeps UTC+5:30 all year), at any hour: 16½ hours behind India before 4 pm there, 8½ ahead after; a date
    // written in the browser's zone would then differ from the server's.
    const indiaHour = new Date(Date.now() + 5.5 * 3_600_000).getUTCHours();
    const browserZone = indiaHour < 16 ? "Pacific/Pago_Pago" : "Pacific/Kiritimati";
    test.use({ timezoneId: browserZone });

    test("a review is dated in the shop's time zone, and the page hydrates with the server's text (no console error)", async ({ page, shopDb }) => {
      const plant = await createProduct(shopDb.db, { name: `Dated Fern ${Date.now()}` });
      await signedIn(page, shopDb, { name: "Meera Iyer" });
      await page.goto(`/product/${plant.id}`);
      await writeReview(page, "Unfurled a new frond overnight", 5);
      await expect(toast(page, r.added)).toBeVisible();
      // Loaded afresh: the server renders the date, this browser hydrates it.
      await page.reload();
      const review = panel(page).getByTestId("review");
      await hydrated(review.getByRole("button", { name: r.deleteReview }));
      const shown = review.locator("time");
      const instant = await shown.getAttribute("datetime");
      expect(instant).not.toBeNull();
      expect(formatDate(instant!, browserZone), "the browser's own day differs from the shop's").not.toBe(formatDate(instant!, DEFAULT_SHOP_TIME_ZONE));
      await expect(shown).toHaveText(formatDate(instant!, DEFAULT_SHOP_TIME_ZONE));
    });
  });
});
