import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, type Locator, type Page } from "@playwright/test";
import { messages } from "../../../common/messages.ts";
import type { Database } from "../../../server/db/client.ts";
import { waitForSpooledMail, type CapturedMail } from "../../support/smtp-capture.ts";
import { linkFromMail } from "./mail.ts";

// Shoppers for the order tests, and the few page steps every one of those tests takes.

/** The account playwright.config.ts makes the server create at start-up (ADMIN_EMAIL, ADMIN_PASSWORD). */
export const ADMIN = { email: "owner@plant-shop.test", password: "e2e-admin-password-7" };

export interface Shopper {
  id: string;
  name: string;
  username: string;
  email: string;
  password: string;
}

/**
 * The run's own tag: the e2e server's data folder is made afresh for every run and kept by a worker that
 * restarts after a failed test, so a shopper signed up once is found again instead of signing up anew
 * (the server allows 20 sign-ups an hour from one address, and the other spec files use about ten).
 */
function runTag(): string {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error("E2E_DATA_DIR is set by playwright.config.ts");
  return path.basename(dataDir).replace(/[^A-Za-z0-9]/g, "").slice(-8).toLowerCase();
}

const SHOPPER_NAMES = { 1: "Meera Iyer", 2: "Ravi Menon" } as const;

function shopperIdentity(slot: keyof typeof SHOPPER_NAMES): Omit<Shopper, "id"> {
  const tag = runTag();
  return {
    name: SHOPPER_NAMES[slot],
    username: `orders_${slot}_${tag}`,
    email: `orders.${slot}.${tag}@example.com`,
    password: "ficus-lyrata-in-the-hall-5",
  };
}

/** Matches a page URL by path and query, whatever the host. */
export const urlIs = (pathAndQuery: string) => (url: URL) => url.pathname + url.search === pathAndQuery;

export const mainNav = (page: Page) => page.getByRole("navigation", { name: "Main" });
export const toast = (page: Page, text: string) => page.getByRole("status").getByText(text, { exact: true });
export const cartLink = (page: Page) => mainNav(page).getByRole("link", { name: /^Cart\b/ });

/** Waits until React has hydrated the element, so its handlers (fetcher forms, browser-side checks) run. */
export async function hydrated(element: Locator) {
  await expect
    .poll(() => element.evaluate((el) => Object.keys(el).some((key) => key.startsWith("__reactProps"))), { message: "the page hydrates" })
    .toBe(true);
}

/**
 * Shopper 1 or 2 of this run, signed up through /register and verified through the mailed link the first
 * time it is asked for (at most two sign-ups in this file). Leaves the browser signed out.
 */
export async function verifiedShopper(page: Page, database: Database, slot: keyof typeof SHOPPER_NAMES): Promise<Shopper> {
  const person = shopperIdentity(slot);
  const findUser = () => database.db.selectFrom("users").select(["id", "emailVerified"]).where("email", "=", person.email).executeTakeFirst();
  let user = await findUser();
  if (!user) {
    await page.goto("/register");
    await expect(page.getByRole("heading", { name: messages.auth.registerHeading })).toBeVisible();
    await page.getByLabel("Full Name").fill(person.name);
    await page.getByLabel("Username").fill(person.username);
    await page.getByLabel("Email").fill(person.email);
    await page.getByLabel("Password").fill(person.password);
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page).toHaveURL(urlIs("/verify"));
    user = await findUser();
  }
  if (!user) throw new Error(`signing up ${person.email} stored no user`);
  if (!user.emailVerified) {
    await page.goto(await linkFromMail(person.email, "/verify"));
    await expect(toast(page, messages.auth.emailVerified)).toBeVisible();
  }
  await page.context().clearCookies();
  return { ...person, id: user.id };
}

/** Fills and sends the login form of the current page. */
export async function submitLogin(page: Page, { email, password }: { email: string; password: string }) {
  await expect(page.getByRole("heading", { name: messages.auth.loginHeading })).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Login" }).click();
}

export async function logIn(page: Page, credentials: { email: string; password: string }) {
  await page.goto("/login");
  await submitLogin(page, credentials);
  await expect(toast(page, messages.auth.loggedIn)).toBeVisible();
}

export async function logOut(page: Page) {
  await mainNav(page).getByRole("button", { name: "Logout" }).click();
  await expect(toast(page, messages.auth.loggedOut)).toBeVisible();
  await expect(mainNav(page).getByRole("link", { name: "Login" })).toBeVisible();
}

/** Starts a test from an empty cart, whatever an earlier (perhaps failed) test left in it. */
export async function emptyCart(database: Database, userId: string) {
  await database.db.deleteFrom("cart_items").where("user_id", "=", userId).execute();
}

/** Opens a product page and presses Add to Cart once, waiting for the nav's cart count to show `expectedCount`. */
export async function addToCart(page: Page, productId: string, expectedCount: number) {
  if (new URL(page.url()).pathname !== `/product/${productId}`) await page.goto(`/product/${productId}`);
  const button = page.getByRole("button", { name: messages.product.addToCart });
  await hydrated(button);
  await button.click();
  await expect(cartLink(page)).toHaveAccessibleName(cartCountName(expectedCount));
}

/** The cart icon's accessible name for a count ('Cart', 'Cart, 1 item', 'Cart, 3 items'). */
export function cartCountName(count: number): string {
  return count === 0 ? "Cart" : `Cart, ${count} item${count === 1 ? "" : "s"}`;
}

export const shipping = { phone: "+91 98450 12345", address: "14 Lalbagh Road, Bengaluru 560004" };

/** On /checkout: fills the shipping details (the name is prefilled from the profile). */
export async function fillShipping(page: Page, details: { phone: string; address: string } = shipping) {
  await expect(page.getByRole("heading", { name: messages.checkout.heading, level: 1 })).toBeVisible();
  await page.getByLabel("Phone Number").fill(details.phone);
  await page.getByLabel("Address", { exact: true }).fill(details.address);
}

/** The order id of the order page the browser is on. */
export function orderIdFromUrl(page: Page): string {
  const id = new URL(page.url()).pathname.match(/^\/orders\/([\w-]+)$/)?.[1];
  if (!id) throw new Error(`not an order page: ${page.url()}`);
  return id;
}

/** 'PS-' and the first eight hex digits of the order id, upper case: the number customers see. */
export function orderNumberOf(orderId: string): string {
  return `PS-${orderId.replaceAll("-", "").slice(0, 8).toUpperCase()}`;
}

function spoolDir(): string {
  const dir = process.env.E2E_MAIL_DIR;
  if (!dir) throw new Error("E2E_MAIL_DIR is set by playwright.config.ts");
  return dir;
}

/** Waits for the e-mail with exactly this subject to `email` (the server sends order mails over SMTP). */
export function mailWithSubject(email: string, subject: string): Promise<CapturedMail> {
  return waitForSpooledMail(spoolDir(), (mail) => mail.to.includes(email) && mail.subject === subject);
}

/** How many e-mails with exactly this subject went to `email` so far. */
export function countMailsWithSubject(email: string, subject: string): number {
  return readdirSync(spoolDir())
    .filter((name) => name.endsWith(".json"))
    .map((name) => JSON.parse(readFileSync(path.join(spoolDir(), name), "utf8")) as CapturedMail)
    .filter((mail) => mail.to.includes(email) && mail.subject === subject).length;
}

