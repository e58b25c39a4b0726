import { expect, seriousAccessibilityViolations, test } from "./support/fixtures.ts";

test.describe("small screens", () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test("the home page has no serious accessibility violations on a phone", async ({ page }) => {
    await page.goto("/");
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });

  test("the slide-in menu works from the keyboard alone", async ({ page }) => {
    await page.goto("/shop");
    const open = page.getByRole("button", { name: "Open menu" });
    await expect(open).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Home" })).toBeHidden();

    // Tab from the top of the page to the menu button.
    for (let i = 0; i < 10 && !(await open.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
    await expect(open).toBeFocused();
    await page.keyboard.press("Enter");

    const menu = page.getByRole("dialog", { name: "Menu" });
    await expect(menu).toBeVisible();
    await expect(open).toHaveAttribute("aria-expanded", "true");
    const names = await menu.getByRole("link").allInnerTexts();
    expect(names).toEqual(["Home", "Cart", "Login"]);
    expect(await seriousAccessibilityViolations(page), "with the menu open").toEqual([]);

    // Focus stays inside the open menu.
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press("Tab");
      expect(await menu.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await expect(open).toBeFocused();
    await expect(open).toHaveAttribute("aria-expanded", "false");

    // Following a link closes the menu.
    await page.keyboard.press("Enter");
    await expect(menu).toBeVisible();
    await menu.getByRole("link", { name: "Home" }).focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/$/);
    await expect(menu).toBeHidden();
  });
});
