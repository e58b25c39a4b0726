import type { Browser, BrowserContext, Page } from "@playwright/test";
import { SECURITY_EVENT_LABELS } from "../../common/accounts/security-events.ts";
import { messages } from "../../common/shared/messages.ts";
import { insertShoppers } from "../support/shop-process.ts";
import { expect, test } from "./support/fixtures.ts";
import { logIn, submitLogin, toast, urlIs } from "./support/pages.ts";

// The account's security page in three browsers of one person: each lists where the account is signed in, ends
// another browser's session (which is signed out on its next page), or all of them, and the activity list shows
// every sign-in, the failed one, the password change and each ended session as it happens.

const CHROME_LINUX = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";
const FIREFOX_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0";
const EDGE_MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0";
const PASSWORD = "sansevieria-by-the-door-4";
const SECURITY_PAGE = "/account/security";

const sessionRows = (page: Page) => page.getByTestId("session");
const sessionRow = (page: Page, device: string) => sessionRows(page).filter({ hasText: device });
const activityRows = (page: Page) => page.getByTestId("activity");
const activity = (kind: keyof typeof SECURITY_EVENT_LABELS, method: string) => `${SECURITY_EVENT_LABELS[kind]} (${method})`;

/** The "What" column of the activity list, newest first. */
const activityKinds = (page: Page) => activityRows(page).locator("td:nth-child(2)").allTextContents();

async function browserAs(browser: Browser, userAgent: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ userAgent });
  return { context, page: await context.newPage() };
}

/** The page shown to a browser whose session has ended: the login form, with the way back to the page. */
async function expectSignedOut(page: Page) {
  await page.goto(SECURITY_PAGE);
  await expect(page).toHaveURL(urlIs(`/login?redirectTo=${encodeURIComponent(SECURITY_PAGE)}`));
}

test("the security page lists the account's sessions, ends one and then all others, and shows each event in the activity list", async ({ browser, shopDb }) => {
  test.setTimeout(90_000);
  const [person] = await insertShoppers(shopDb.db, 1, { password: PASSWORD, prefix: "security", dialect: shopDb.dialect });
  // Only the sessions made through the login form below.
  await shopDb.db.deleteFrom("sessions").where("userId", "=", person!.userId).execute();
  const { email } = await shopDb.db.selectFrom("users").select("email").where("id", "=", person!.userId).executeTakeFirstOrThrow();
  const credentials = { email, password: PASSWORD };

  const laptop = await browserAs(browser, CHROME_LINUX);
  const desktop = await browserAs(browser, FIREFOX_WINDOWS);
  const tablet = await browserAs(browser, EDGE_MAC);
  try {
    // A visitor is sent to log in, and brought back to the page afterwards.
    await laptop.page.goto(SECURITY_PAGE);
    await expect(laptop.page).toHaveURL(urlIs(`/login?redirectTo=${encodeURIComponent(SECURITY_PAGE)}`));
    await submitLogin(laptop.page, credentials);
    await expect(laptop.page).toHaveURL(urlIs(SECURITY_PAGE));
    await expect(sessionRows(laptop.page)).toHaveCount(1);
    await expect(sessionRow(laptop.page, "Chrome 130 on Linux")).toContainText("This device");
    await expect(laptop.page.getByText(messages.security.onlyThisDevice)).toBeVisible();

    // The desktop types a wrong password first.
    await desktop.page.goto("/login");
    await submitLogin(desktop.page, { email, password: "not-the-password-1" });
    await expect(desktop.page.getByText(messages.auth.invalidCredentials)).toBeVisible();
    await submitLogin(desktop.page, credentials);
    await expect(toast(desktop.page, messages.auth.loggedIn)).toBeVisible();

    await laptop.page.reload();
    await expect(sessionRows(laptop.page)).toHaveCount(2);
    await expect(sessionRow(laptop.page, "Chrome 130 on Linux")).toContainText("This device");
    await expect(sessionRow(laptop.page, "Firefox 128 on Windows 10")).not.toContainText("This device");
    await expect(sessionRow(laptop.page, "Firefox 128 on Windows 10")).toContainText(`Last used ${messages.security.usedRecently(5)}`);
    expect(await activityKinds(laptop.page)).toEqual([activity("signed-in", "password"), activity("sign-in-failed", "password"), activity("signed-in", "password")]);
    await expect(activityRows(laptop.page).first()).toContainText("Firefox 128 on Windows 10");

    // The same page, seen from the desktop, marks the desktop as this device.
    await desktop.page.goto(SECURITY_PAGE);
    await expect(sessionRow(desktop.page, "Firefox 128 on Windows 10")).toContainText("This device");
    await expect(sessionRow(desktop.page, "Chrome 130 on Linux")).not.toContainText("This device");

    // The laptop ends the desktop's session: the desktop is signed out on its next page.
    await sessionRow(laptop.page, "Firefox 128 on Windows 10").getByRole("button", { name: "End" }).click();
    await expect(laptop.page.getByText(messages.security.sessionEnded("Firefox 128 on Windows 10"))).toBeVisible();
    await expect(sessionRows(laptop.page)).toHaveCount(1);
    expect((await activityKinds(laptop.page))[0]).toBe(activity("session-ended", "Firefox 128 on Windows 10"));
    await expectSignedOut(desktop.page);

    // Two browsers sign in again; the laptop ends both at once.
    await submitLogin(desktop.page, credentials);
    await expect(desktop.page).toHaveURL(urlIs(SECURITY_PAGE));
    await logIn(tablet.page, credentials);
    await laptop.page.reload();
    await expect(sessionRows(laptop.page)).toHaveCount(3);
    await expect(sessionRow(laptop.page, "Microsoft Edge 131 on macOS")).toBeVisible();
    await laptop.page.getByRole("button", { name: "End all other sessions" }).click();
    await expect(laptop.page.getByText(messages.security.otherSessionsEnded(2))).toBeVisible();
    await expect(sessionRows(laptop.page)).toHaveCount(1);
    expect((await activityKinds(laptop.page)).slice(0, 2).sort()).toEqual(
      [activity("session-ended", "Firefox 128 on Windows 10"), activity("session-ended", "Microsoft Edge 131 on macOS")].sort(),
    );
    await expectSignedOut(desktop.page);
    await expectSignedOut(tablet.page);

    // A password change, from the profile page, which links to the security page.
    await laptop.page.goto(`/profile/${person!.userId}`);
    const changePassword = laptop.page.locator("form").filter({ has: laptop.page.getByRole("heading", { name: "Change password" }) });
    await changePassword.getByLabel("Current password").fill(PASSWORD);
    await changePassword.getByLabel("New password").fill("sansevieria-by-the-window-5");
    await changePassword.getByRole("button", { name: "Change password" }).click();
    await expect(toast(laptop.page, messages.auth.passwordChanged)).toBeVisible();
    await laptop.page.getByRole("link", { name: "Sign-in and security" }).click();
    await expect(laptop.page).toHaveURL(urlIs(SECURITY_PAGE));
    // Waits for the page to show it: the address changes before the client navigation has rendered.
    await expect(activityRows(laptop.page).first().locator("td:nth-child(2)")).toHaveText(SECURITY_EVENT_LABELS["password-changed"]);
    await expect(sessionRow(laptop.page, "Chrome 130 on Linux")).toContainText("This device");
  } finally {
    for (const browserContext of [laptop.context, desktop.context, tablet.context]) await browserContext.close();
  }
});

test("without JavaScript, the security page ends another browser's session and says so", async ({ browser, shopDb }) => {
  const [person] = await insertShoppers(shopDb.db, 1, { password: PASSWORD, prefix: "security-nojs", dialect: shopDb.dialect });
  await shopDb.db.deleteFrom("sessions").where("userId", "=", person!.userId).execute();
  const { email } = await shopDb.db.selectFrom("users").select("email").where("id", "=", person!.userId).executeTakeFirstOrThrow();
  const noScript = await browser.newContext({ userAgent: CHROME_LINUX, javaScriptEnabled: false });
  const desktop = await browserAs(browser, FIREFOX_WINDOWS);
  try {
    await logIn(desktop.page, { email, password: PASSWORD });
    const page = await noScript.newPage();
    await page.goto(SECURITY_PAGE);
    await submitLogin(page, { email, password: PASSWORD });
    await expect(page).toHaveURL(urlIs(SECURITY_PAGE));
    await expect(sessionRow(page, "Chrome 130 on Linux")).toContainText("This device");
    await sessionRow(page, "Firefox 128 on Windows 10").getByRole("button", { name: "End" }).click();
    await expect(page.getByText(messages.security.sessionEnded("Firefox 128 on Windows 10"))).toBeVisible();
    await expect(sessionRows(page)).toHaveCount(1);
    await expectSignedOut(desktop.page);
  } finally {
    await noScript.close();
    await desktop.context.close();
  }
});
