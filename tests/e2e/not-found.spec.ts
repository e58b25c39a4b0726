import { messages } from "../../common/messages.ts";
import { allowStatusLogs, expect, seriousAccessibilityViolations, test } from "./support/fixtures.ts";

test.describe("missing pages", () => {
  test("an unknown path shows 'Page Not Found' with its picture and status 404", async ({ page, consoleErrors }) => {
    const response = await page.goto("/no/such/page");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: messages.pageNotFound })).toBeVisible();
    await expect(page.locator('img[src="/illustrations/not-found.svg"]')).toBeVisible();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    allowStatusLogs(consoleErrors, 404);
  });

  test("an unknown product says 'Product not found' with status 404", async ({ page, consoleErrors }) => {
    const response = await page.goto("/product/unknown-id");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: messages.product.notFound })).toBeVisible();
    allowStatusLogs(consoleErrors, 404);
  });

  test("an unknown category answers 404", async ({ page, consoleErrors }) => {
    const response = await page.goto("/category/unknown-id");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: messages.pageNotFound })).toBeVisible();
    allowStatusLogs(consoleErrors, 404);
  });
});
