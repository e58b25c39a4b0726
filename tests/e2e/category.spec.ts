import { formatPriceExact } from "../../common/shared/money.ts";
import { messages } from "../../common/shared/messages.ts";
import { createCategory, createProduct, createReviews } from "../support/factories.ts";
import { createShopper } from "../support/shoppers.ts";
import { expect, seriousAccessibilityViolations, test } from "./support/fixtures.ts";

test.describe("category page", () => {
  test("lists the category's products with description, two-decimal price and View Product", async ({ page, shopDb }) => {
    const category = await shopDb.db.selectFrom("categories").selectAll().where("name", "=", "Succulents").executeTakeFirstOrThrow();
    const products = await shopDb.db
      .selectFrom("products")
      .selectAll()
      .where("category_id", "=", category.id)
      .orderBy("created_at")
      .execute();
    await page.goto(`/category/${category.id}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Succulents");
    const items = page.getByRole("main").getByRole("listitem");
    await expect(items).toHaveCount(products.length);
    for (const [index, product] of products.entries()) {
      const item = items.nth(index);
      await expect(item.getByRole("heading")).toHaveText(product.name);
      await expect(item.getByText(product.description)).toBeVisible();
      await expect(item.getByText(formatPriceExact(product.price_paise))).toBeVisible();
    }
    await items.first().getByRole("link", { name: new RegExp(messages.category.viewProduct) }).click();
    await expect(page).toHaveURL(`/product/${products[0]!.id}`);
  });

  test("each card shows the plant's average rating, as the shop's cards do, and 'No ratings yet' before any review", async ({ page, shopDb }) => {
    const category = await createCategory(shopDb.db, { name: `Rated ${Date.now()}` });
    const rated = await createProduct(shopDb.db, { name: `Rated Fern ${category.id.slice(0, 6)}`, category_id: category.id });
    const unrated = await createProduct(shopDb.db, { name: `Unrated Fern ${category.id.slice(0, 6)}`, category_id: category.id });
    const asha = await createShopper(shopDb.db, shopDb.dialect, { name: "Asha Menon" });
    const ravi = await createShopper(shopDb.db, shopDb.dialect, { name: "Ravi Menon" });
    await createReviews(shopDb.db, rated.id, [
      { user_id: asha.id, rating: 5 },
      { user_id: ravi.id, rating: 2 },
    ]);
    await page.goto(`/category/${category.id}`);
    const card = (name: string) => page.getByRole("main").getByRole("listitem").filter({ has: page.getByRole("heading", { name }) });
    await expect(card(rated.name).getByLabel(messages.reviews.average("3.5", 2))).toBeVisible();
    await expect(card(unrated.name).getByText(messages.reviews.noRatingYet)).toBeVisible();
  });

  test("says when a category has no products", async ({ page, shopDb }) => {
    const empty = await createCategory(shopDb.db, { name: `Empty ${Date.now()}` });
    await page.goto(`/category/${empty.id}`);
    await expect(page.getByText(messages.category.empty)).toBeVisible();
  });

  test("shows twelve products at a time; Load More adds the next twelve and is gone after the last", async ({ page, shopDb }) => {
    const category = await createCategory(shopDb.db, { name: `Paged ${Date.now()}` });
    const names: string[] = [];
    for (let i = 1; i <= 15; i++) {
      names.push(`Paged plant ${String(i).padStart(2, "0")} ${category.id.slice(0, 6)}`);
      await createProduct(shopDb.db, { name: names.at(-1)!, category_id: category.id });
    }
    await page.goto(`/category/${category.id}`);
    const headings = page.getByRole("main").getByRole("listitem").getByRole("heading");
    await expect(headings).toHaveText(names.slice(0, 12));
    await page.getByRole("link", { name: messages.shop.loadMore }).click();
    await expect(headings).toHaveText(names);
    await expect(page).toHaveURL(`/category/${category.id}?page=2`);
    await expect(page.getByRole("link", { name: messages.shop.loadMore })).toHaveCount(0);
  });

  test("without JavaScript Load More opens the next page, its own products under a link back to the earlier ones; past the end that link goes to the first page", async ({ browser, shopDb }) => {
    const category = await createCategory(shopDb.db, { name: `Paged no-JS ${Date.now()}` });
    const names: string[] = [];
    for (let i = 1; i <= 13; i++) {
      names.push(`No-JS plant ${String(i).padStart(2, "0")} ${category.id.slice(0, 6)}`);
      await createProduct(shopDb.db, { name: names.at(-1)!, category_id: category.id });
    }
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`/category/${category.id}`);
    const headings = page.getByRole("main").getByRole("listitem").getByRole("heading");
    await expect(headings).toHaveText(names.slice(0, 12));
    await expect(page.getByRole("link", { name: messages.shop.earlier })).toHaveCount(0);
    await page.getByRole("link", { name: messages.shop.loadMore }).click();
    await expect(page).toHaveURL(`/category/${category.id}?page=2`);
    await expect(headings).toHaveText(names.slice(12));
    await page.getByRole("link", { name: messages.shop.earlier }).click();
    await expect(page).toHaveURL(`/category/${category.id}`);
    await expect(headings).toHaveText(names.slice(0, 12));
    // A page past the list's end (an old link): its earlier link goes to the first page, not to the empty one before.
    await page.goto(`/category/${category.id}?page=9`);
    await expect(headings).toHaveCount(0);
    await page.getByRole("link", { name: messages.shop.earlier }).click();
    await expect(page).toHaveURL(`/category/${category.id}`);
    await expect(headings).toHaveText(names.slice(0, 12));
    await context.close();
  });

  test("has no serious accessibility violations", async ({ page, shopDb }) => {
    const category = await shopDb.db.selectFrom("categories").select("id").limit(1).executeTakeFirstOrThrow();
    await page.goto(`/category/${category.id}`);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });
});
