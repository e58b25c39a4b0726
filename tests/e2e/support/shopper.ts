import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { messages } from "../../../common/shared/messages.ts";
import type { Database } from "../../../server/platform/db/client.ts";
import { insertSessions } from "../../support/shop-process.ts";
import { createShopper } from "../../support/shoppers.ts";
import { linkFromMail } from "./mail.ts";
import { hydrated, mainNav, submitRegistration, toast, urlIs } from "./pages.ts";

// Shoppers for the order tests, and the page steps those tests share.

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

export const cartLink = (page: Page) => mainNav(page).getByRole("link", { name: /^Cart\b/ });

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
    await submitRegistration(page, person);
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

/**
 * A shopper whose e-mail is not verified, signed in in this browser: such a person cannot log in through the
 * form, so the user and a session are written into the server's database, and the cookie is signed with the
 * secret the server keeps in its data folder.
 */
export async function signedInUnverified(page: Page, database: Database) {
  const user = await createShopper(database.db, database.dialect, { emailVerified: false, name: "Kiran Rao" });
  const secret = readFileSync(path.join(process.env.E2E_DATA_DIR!, "auth-secret"), "utf8").trim();
  const [cookie] = await insertSessions(database.db, [user.id], secret);
  const [name, value] = cookie!.split(/=(.*)/s);
  await page.context().addCookies([{ name: name!, value: value!, url: `http://127.0.0.1:${process.env.E2E_PORT}` }]);
  return user;
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

export const shipping = { phone: "+91 98450 12345", address: "14 Lalbagh Road, Bengaluru", pin: "560004" };

/**
 * On /checkout: fills the shipping details (the name is prefilled from the profile). The PIN code's zone prices the
 * summary: typed, the page reloads its data for it, so this waits until the page has settled on it.
 */
export async function fillShipping(page: Page, details: { phone: string; address: string; pin?: string } = shipping) {
  await expect(page.getByRole("heading", { name: messages.checkout.heading, level: 1 })).toBeVisible();
  await page.getByLabel("Phone Number").fill(details.phone);
  await page.getByLabel("Address", { exact: true }).fill(details.address);
  const pin = details.pin ?? shipping.pin;
  const pinField = page.getByLabel(messages.delivery.pinLabel);
  await hydrated(pinField);
  await pinField.fill(pin);
  await expect(page.getByTestId("checkout-delivery").or(page.getByText(messages.delivery.notDelivered(pin)))).toContainText(pin);
}

/** The order id of the order page the browser is on. */
export function orderIdFromUrl(page: Page): string {
  const id = new URL(page.url()).pathname.match(/^\/orders\/([\w-]+)$/)?.[1];
  if (!id) throw new Error(`not an order page: ${page.url()}`);
  return id;
}

/** The number customers see, as the shop stored it with the order (PS-XXXX-XXXX-XXXX). */
export async function orderNumberOf(shopDb: Database, orderId: string): Promise<string> {
  const { number } = await shopDb.db.selectFrom("orders").select("number").where("id", "=", orderId).executeTakeFirstOrThrow();
  if (!number) throw new Error(`order ${orderId} has no stored number`);
  return number;
}
