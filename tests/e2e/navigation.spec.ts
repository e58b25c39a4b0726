import { messages } from "../../common/shared/messages.ts";
import { expect, seriousAccessibilityViolations, test } from "./support/fixtures.ts";
import { ADMIN, submitLogin, toast } from "./support/pages.ts";

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

  test("the slide-in menu opens and closes without JavaScript, and its Login link leads to the login page", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 375, height: 800 } });
    const page = await context.newPage();
    await page.goto("/");
    const menu = page.getByRole("dialog", { name: "Menu" });
    await page.getByRole("button", { name: "Open menu" }).click();
    await expect(menu).toBeVisible();
    await menu.getByRole("button", { name: "Close menu" }).click();
    await expect(menu).toBeHidden();
    await page.getByRole("button", { name: "Open menu" }).click();
    await menu.getByRole("link", { name: "Login" }).click();
    await expect(page).toHaveURL(/\/login\?redirectTo=%2F$/);
    await context.close();
  });

  test.describe("on a 390 px phone", () => {
    test.use({ viewport: { width: 390, height: 844 } });

    test("the signed-in owner's buttons stay on screen and the shop's name neither spills out of its link nor lies under them", async ({ page }) => {
      await page.goto("/login");
      await submitLogin(page, ADMIN);
      await expect(toast(page, messages.auth.loggedIn)).toBeVisible();
      const nav = page.getByRole("navigation", { name: "Main" });
      const brand = nav.getByRole("link", { name: "Plant Shop" });
      const buttons = [nav.getByRole("link", { name: "Your profile" }), nav.getByRole("link", { name: /^Cart\b/ }), nav.getByRole("link", { name: "Add Products" }), nav.getByRole("button", { name: "Open menu" })];
      const box = async (element: typeof brand) => {
        const found = await element.boundingBox();
        if (!found) throw new Error("not laid out");
        return found;
      };
      const spill = await brand.evaluate((el) => el.scrollWidth - el.clientWidth);
      expect(spill, "the shop's name stays inside its own link").toBeLessThanOrEqual(0);
      const brandBox = await box(brand);
      for (const button of buttons) {
        const buttonBox = await box(button);
        expect(buttonBox.x, "starts after the shop's name").toBeGreaterThanOrEqual(brandBox.x + brandBox.width);
        expect(buttonBox.x + buttonBox.width, "ends inside the 390 px screen").toBeLessThanOrEqual(390);
      }
    });
  });
});
