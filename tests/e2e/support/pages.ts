import { expect, type Browser, type Locator, type Page } from "@playwright/test";
import { messages } from "../../../common/shared/messages.ts";

// Page steps and locators every browser test shares.

/** The account playwright.config.ts makes the server create at start-up (ADMIN_EMAIL, ADMIN_PASSWORD). */
export const ADMIN = { email: "owner@plant-shop.test", password: "e2e-admin-password-7" };

/**
 * The server's RATE_LIMIT_SCALE (playwright.config.ts): a long suite signs in, searches and orders far more often
 * than a person, so every limit is this many times looser; each limit is tested at the shop's own values by its
 * API test.
 */
export const E2E_RATE_LIMIT_SCALE = 100;

export interface Credentials {
  email: string;
  password: string;
}

/** Matches a page URL by path and query, whatever the host. */
export const urlIs = (pathAndQuery: string) => (url: URL) => url.pathname + url.search === pathAndQuery;

export const mainNav = (page: Page) => page.getByRole("navigation", { name: "Main" });
export const toast = (page: Page, text: string) => page.getByRole("status").getByText(text, { exact: true });

/** Waits until React has hydrated the element, so its handlers (fetcher forms, browser-side checks, the menu) run. */
export async function hydrated(element: Locator, timeout?: number) {
  await expect
    .poll(() => element.evaluate((el) => Object.keys(el).some((key) => key.startsWith("__reactProps"))), { message: "the page hydrates", ...(timeout ? { timeout } : {}) })
    .toBe(true);
}

/** Fills and sends the register form of the current page. */
export async function submitRegistration(page: Page, person: Credentials & { name: string; username: string }) {
  await page.getByLabel("Full Name").fill(person.name);
  await page.getByLabel("Username").fill(person.username);
  await page.getByLabel("Email").fill(person.email);
  await page.getByLabel("Password").fill(person.password);
  await page.getByRole("button", { name: "Create Account" }).click();
}

/** Fills and sends the login form of the current page. */
export async function submitLogin(page: Page, { email, password }: Credentials) {
  await expect(page.getByRole("heading", { name: messages.auth.loginHeading })).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Login" }).click();
}

export async function logIn(page: Page, credentials: Credentials) {
  await page.goto("/login");
  await submitLogin(page, credentials);
  await expect(toast(page, messages.auth.loggedIn)).toBeVisible();
}

/** A browser context without scripts, signed in as the admin through the login form (which posts without them). */
export async function adminWithoutJavaScript(browser: Browser) {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/login");
  await submitLogin(page, ADMIN);
  await expect(page).not.toHaveURL(/\/login/);
  return { context, page };
}

export async function logOut(page: Page) {
  await mainNav(page).getByRole("button", { name: "Logout" }).click();
  await expect(toast(page, messages.auth.loggedOut)).toBeVisible();
  await expect(mainNav(page).getByRole("link", { name: "Login" })).toBeVisible();
}
