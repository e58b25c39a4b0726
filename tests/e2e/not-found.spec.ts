import { messages } from "../../common/shared/messages.ts";
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
    expect(await page.evaluate(() => [...document.querySelectorAll("title")].map((t) => t.textContent))).toEqual([`${messages.product.notFound} | Plant Shop`]);
    allowStatusLogs(consoleErrors, 404);
  });

  test("an unknown category answers 404", async ({ page, consoleErrors }) => {
    const response = await page.goto("/category/unknown-id");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: messages.pageNotFound })).toBeVisible();
    expect(await page.evaluate(() => [...document.querySelectorAll("title")].map((t) => t.textContent))).toEqual([`${messages.pageNotFound} | Plant Shop`]);
    allowStatusLogs(consoleErrors, 404);
  });
});

test.describe("refused requests", () => {
  test("a search longer than the box allows is a 400 that says why, not a 500", async ({ page, consoleErrors }) => {
    const response = await page.goto(`/shop?q=${"f".repeat(101)}`);
    expect(response?.status()).toBe(400);
    await expect(page.getByRole("heading", { name: messages.refusedRequest[400] })).toBeVisible();
    await expect(page.getByText("Search at most 100 characters")).toBeVisible();
    allowStatusLogs(consoleErrors, 400);
  });

  test("a page form sent as something other than a form is a 400, not a 500", async ({ request, baseURL }) => {
    const response = await request.post("/?index", { headers: { Origin: baseURL!, "Content-Type": "application/json" }, data: { name: "x" } });
    expect(response.status()).toBe(400);
    expect(await response.text()).toContain("The form could not be read");
  });
});
