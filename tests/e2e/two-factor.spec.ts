import { readFileSync } from "node:fs";
import type { Browser, Page } from "@playwright/test";
import jsQR from "jsqr";
import { generate } from "otplib";
import sharp from "sharp";
import { messages } from "../../common/shared/messages.ts";
import { hashPassword } from "../../server/modules/accounts/index.ts";
import type { Database } from "../../server/platform/db/client.ts";
import { createShopper } from "../support/shoppers.ts";
import { allowStatusLogs, expect, test } from "./support/fixtures.ts";
import { linkFromMail, mailsWithLink } from "./support/mail.ts";
import { logIn, logOut, submitLogin, toast, urlIs } from "./support/pages.ts";

// Two-factor authentication with an authenticator app (codes computed here with otplib from the secret the QR code
// carries), and signing in with a link by e-mail, in the browser.

const PASSWORD = "alocasia-zebrina-in-bloom-3";
const t = messages.twoFactor;

/** A verified account with a password, written into the server's database. */
async function person(database: Database) {
  const user = await createShopper(database.db, database.dialect, { name: "Nila Varma" });
  const now = new Date().toISOString();
  await database.db
    .insertInto("accounts")
    .values({ id: crypto.randomUUID(), accountId: user.id, providerId: "credential", userId: user.id, password: await hashPassword(PASSWORD), createdAt: now, updatedAt: now })
    .execute();
  return { id: user.id, email: user.email, password: PASSWORD };
}

/** The text of the QR code on the page: the element's pixels, decoded. */
async function qrCodeText(page: Page): Promise<string> {
  const png = await page.getByRole("img", { name: "QR code for your authenticator app" }).screenshot();
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const decoded = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height);
  if (!decoded) throw new Error("the QR code on the page could not be read");
  return decoded.data;
}

/** A code for `secret` that is not the current one (its last digit changed). */
async function wrongCode(secret: string) {
  const right = await generate({ secret });
  return right.slice(0, 5) + String((Number(right[5]) + 1) % 10);
}

/** Turns two-factor on from the owner's page (signed in); returns the secret and the recovery codes shown. */
async function turnOn(page: Page, password: string) {
  await page.goto("/account/two-factor");
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Turn on two-factor authentication" }).click();
  const secret = (await page.getByTestId("two-factor-secret").textContent())!.trim();
  await page.getByLabel("Code from the app").fill(await generate({ secret }));
  await page.getByRole("button", { name: "Confirm" }).click();
  return { secret, codes: await recoveryCodes(page) };
}

/** The recovery codes the page shows, once it shows them. */
async function recoveryCodes(page: Page) {
  const items = page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
  await expect(items).toHaveCount(10);
  return items.allTextContents();
}

/** Logs in with the password and lands on the code's step. */
async function passwordThenCodeStep(page: Page, credentials: { email: string; password: string }) {
  await page.goto("/login");
  await submitLogin(page, credentials);
  await expect(page.getByRole("heading", { name: t.heading })).toBeVisible();
  await expect(page).toHaveURL(urlIs("/login?step=code&redirectTo=%2F"));
}

async function giveCode(page: Page, code: string, { trust = false } = {}) {
  await page.getByLabel("Code", { exact: true }).fill(code);
  if (trust) await page.getByLabel("Trust this device for 30 days").check();
  await page.getByRole("button", { name: "Verify" }).click();
}

const signedInAs = async (page: Page) => {
  await expect(toast(page, messages.auth.loggedIn)).toBeVisible();
};

test.describe("two-factor authentication", () => {
  test("is turned on from the profile: the QR code carries the secret shown as text, a first code confirms it, and ten recovery codes are shown once and downloadable", async ({ page, shopDb, consoleErrors }) => {
    const owner = await person(shopDb);
    await logIn(page, owner);
    await page.goto(`/profile/${owner.id}`);
    await page.getByRole("link", { name: "Two-factor authentication" }).click();
    await expect(page).toHaveURL(urlIs("/account/two-factor"));
    await expect(page.getByText(t.turnedOff)).toBeVisible();

    await page.getByLabel("Password").fill("not-my-password-9");
    await page.getByRole("button", { name: "Turn on two-factor authentication" }).click();
    await expect(page.getByText(t.passwordWrong)).toBeVisible();
    await page.getByLabel("Password").fill(owner.password);
    await page.getByRole("button", { name: "Turn on two-factor authentication" }).click();

    const uri = new URL(await qrCodeText(page));
    expect(uri.protocol).toBe("otpauth:");
    const secret = (await page.getByTestId("two-factor-secret").textContent())!.trim();
    expect(uri.searchParams.get("secret")).toBe(secret);

    // A wrong first code leaves it off and shows the same QR code again.
    await page.getByLabel("Code from the app").fill(await wrongCode(secret));
    await page.getByRole("button", { name: "Confirm" }).click();
    await expect(page.getByText(t.codeWrong)).toBeVisible();
    expect(new URL(await qrCodeText(page)).searchParams.get("secret")).toBe(secret);

    await page.getByLabel("Code from the app").fill(await generate({ secret }));
    await page.getByRole("button", { name: "Confirm" }).click();
    const codes = await recoveryCodes(page);
    expect(new Set(codes).size).toBe(10);

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download as .txt" }).click()]);
    expect(download.suggestedFilename()).toBe("recovery-codes.txt");
    expect(readFileSync((await download.path())!, "utf8").trim().split("\n")).toEqual(codes);

    // Shown once: the page, opened again, says it is on and shows no codes.
    await page.goto("/account/two-factor");
    await expect(page.getByText(t.turnedOn)).toBeVisible();
    await expect(page.getByRole("list", { name: "Recovery codes" })).toHaveCount(0);
    // Each refusal above (a wrong password, code or used link) answered 400, which the browser logs.
    allowStatusLogs(consoleErrors, 400);
  });

  test("is asked for at sign-in after the password: a wrong code is refused, the right one signs in", async ({ page, shopDb, consoleErrors }) => {
    const owner = await person(shopDb);
    await logIn(page, owner);
    const { secret } = await turnOn(page, owner.password);
    await logOut(page);

    await passwordThenCodeStep(page, owner);
    await giveCode(page, await wrongCode(secret));
    await expect(page.getByText(t.codeWrong)).toBeVisible();
    await giveCode(page, await generate({ secret }));
    await signedInAs(page);
    await expect(page).toHaveURL(urlIs("/"));
    // Each refusal above (a wrong password, code or used link) answered 400, which the browser logs.
    allowStatusLogs(consoleErrors, 400);
  });

  test("accepts each recovery code once: the same code is refused at the next sign-in", async ({ page, shopDb, consoleErrors }) => {
    const owner = await person(shopDb);
    await logIn(page, owner);
    const { codes } = await turnOn(page, owner.password);
    await logOut(page);

    await passwordThenCodeStep(page, owner);
    await giveCode(page, codes[0]!);
    await signedInAs(page);
    await logOut(page);

    await passwordThenCodeStep(page, owner);
    await giveCode(page, codes[0]!);
    await expect(page.getByText(t.codeWrong)).toBeVisible();
    await giveCode(page, codes[1]!);
    await signedInAs(page);
    const events = await shopDb.db.selectFrom("security_events").select("kind").where("user_id", "=", owner.id).where("kind", "=", "recovery-code-used").execute();
    expect(events).toHaveLength(2);
    // Each refusal above (a wrong password, code or used link) answered 400, which the browser logs.
    allowStatusLogs(consoleErrors, 400);
  });

  test("with 'trust this device', the next sign-in in the same browser asks for no code, and a fresh browser still does", async ({ page, shopDb, browser }) => {
    const owner = await person(shopDb);
    await logIn(page, owner);
    const { secret } = await turnOn(page, owner.password);
    await logOut(page);

    await passwordThenCodeStep(page, owner);
    await giveCode(page, await generate({ secret }), { trust: true });
    await signedInAs(page);
    await logOut(page);

    await page.goto("/login");
    await submitLogin(page, owner);
    await signedInAs(page);

    await inFreshBrowser(browser, async (fresh) => {
      await passwordThenCodeStep(fresh, owner);
    });
  });

  test("is turned off with the password, after which sign-in asks for no code", async ({ page, shopDb }) => {
    const owner = await person(shopDb);
    await logIn(page, owner);
    await turnOn(page, owner.password);
    await page.goto("/account/two-factor");
    await page.getByLabel("Password").fill(owner.password);
    await page.getByRole("button", { name: "Turn off two-factor authentication" }).click();
    await expect(page.getByText(t.turnedOff)).toBeVisible();
    await logOut(page);

    await logIn(page, owner);
    await expect(page).toHaveURL(urlIs("/"));
  });

  test("is not for visitors: the page sends them to log in", async ({ page }) => {
    await page.goto("/account/two-factor");
    await expect(page).toHaveURL(urlIs(`/login?redirectTo=${encodeURIComponent("/account/two-factor")}`));
  });
});

test.describe("a sign-in link by e-mail", () => {
  async function askForLink(page: Page, email: string) {
    await page.goto("/login");
    await page.getByRole("link", { name: "E-mail me a sign-in link" }).click();
    await expect(page).toHaveURL(urlIs("/login?with=link"));
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "E-mail me a sign-in link" }).click();
    await expect(page.getByText(messages.signInLink.sent)).toBeVisible();
  }

  test("signs in without a password, works once, and a second use is refused", async ({ page, shopDb, consoleErrors }) => {
    const owner = await person(shopDb);
    const earlier = mailsWithLink(owner.email, "/login/link");
    await askForLink(page, owner.email);
    const link = await linkFromMail(owner.email, "/login/link", earlier);

    await page.goto(link);
    await page.getByRole("button", { name: "Log in" }).click();
    await signedInAs(page);
    await logOut(page);

    await page.goto(link);
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page.getByText(messages.signInLink.invalid)).toBeVisible();
    // Each refusal above (a wrong password, code or used link) answered 400, which the browser logs.
    allowStatusLogs(consoleErrors, 400);
  });

  test("answers an address without an account as one with an account", async ({ page }) => {
    await askForLink(page, `nobody-${crypto.randomUUID()}@example.com`);
  });

  test("asks for the authenticator code afterwards when the account has two-factor on", async ({ page, shopDb }) => {
    const owner = await person(shopDb);
    await logIn(page, owner);
    const { secret } = await turnOn(page, owner.password);
    await logOut(page);

    const earlier = mailsWithLink(owner.email, "/login/link");
    await askForLink(page, owner.email);
    await page.goto(await linkFromMail(owner.email, "/login/link", earlier));
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page.getByRole("heading", { name: t.heading })).toBeVisible();
    await giveCode(page, await generate({ secret }));
    await signedInAs(page);
  });
});

async function inFreshBrowser(browser: Browser, act: (page: Page) => Promise<void>) {
  const context = await browser.newContext();
  try {
    await act(await context.newPage());
  } finally {
    await context.close();
  }
}
