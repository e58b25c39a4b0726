import path from "node:path";
import type { Page } from "@playwright/test";
import { generate } from "otplib";
import { messages } from "../../common/shared/messages.ts";
import { openDatabase, type Database } from "../../server/platform/db/client.ts";
import { startTestOidcProvider, type TestIdentity, type TestOidcProvider } from "../support/oidc-provider.ts";
import {
  createPostgresDatabase,
  extraPort,
  insertShoppers,
  startShopProcess,
  stopShopProcess,
  waitUntilHealthy,
  type ShopProcess,
} from "../support/shop-process.ts";
import { allowStatusLogs, expect, test } from "./support/fixtures.ts";
import { E2E_RATE_LIMIT_SCALE, mainNav, toast, urlIs } from "./support/pages.ts";

// Signing in with an OpenID Connect provider (docs/decisions/039), against a real provider (oidc-provider) on
// loopback. The suite's own server has no provider configured, so this file starts a shop of its own configured
// with that provider, on the database the run uses (a fresh PostgreSQL database when E2E_DATABASE_URL is set).

const PROVIDER_NAME = "Test ID";
const m = messages.signInMethods;
/** The provider's port: past the ports the browser tests' own servers use (README, "Test it"). */
const providerPort = () => Number(process.env.E2E_PORT ?? 4317) + 10;

let provider: TestOidcProvider;
let shop: ShopProcess;
let database: Database;
let dropDatabase: (() => Promise<void>) | undefined;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  const shopUrl = `http://127.0.0.1:${extraPort(0)}`;
  provider = await startTestOidcProvider({ port: providerPort(), redirectUris: [`${shopUrl}/api/auth/callback/oidc`] });
  const postgres = process.env.E2E_DATABASE_URL ? await createPostgresDatabase(process.env.E2E_DATABASE_URL, "provider_sign_in") : undefined;
  dropDatabase = postgres?.drop;
  shop = startShopProcess({
    port: extraPort(0),
    ...(postgres ? { databaseUrl: postgres.url } : {}),
    env: {
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      OIDC_NAME: PROVIDER_NAME,
      RATE_LIMIT_SCALE: String(E2E_RATE_LIMIT_SCALE),
    },
  });
  await waitUntilHealthy(shop);
  database = postgres ? openDatabase({ databaseUrl: postgres.url, poolSize: 2 }) : openDatabase({ sqliteFile: path.join(shop.dataDir, "shop.db") });
});

test.afterAll(async () => {
  await database?.destroy();
  if (shop) await stopShopProcess(shop);
  await provider?.close();
  await dropDatabase?.();
});

const at = (pathAndQuery: string) => `${shop.url}${pathAndQuery}`;

/** Presses "Continue with Test ID" on the shop's page, and signs in at the provider as `identity`. */
async function continueWithProvider(page: Page, identity: TestIdentity) {
  await page.getByRole("button", { name: m.continueWith(PROVIDER_NAME) }).click();
  await expect(page.getByRole("heading", { name: "Sign in to Test ID" })).toBeVisible();
  await page.getByLabel("Login").fill(identity.login);
  await page.getByRole("button", { name: "Sign in" }).click();
}

const userByEmail = (email: string) => database.db.selectFrom("users").selectAll().where("email", "=", email.toLowerCase()).executeTakeFirst();
/** The account's activity log, oldest first: "kind method". */
const eventsOf = async (userId: string) =>
  (await database.db.selectFrom("security_events").select(["kind", "method"]).where("user_id", "=", userId).orderBy("created_at").orderBy("id").execute()).map(
    (row) => `${row.kind} ${row.method ?? ""}`.trim(),
  );
const providersOf = async (userId: string) =>
  (await database.db.selectFrom("accounts").select("providerId").where("userId", "=", userId).orderBy("providerId").execute()).map((row) => row.providerId);

/** A shopper with a verified address and a password, signed in in this browser. */
async function passwordShopper(page: Page, { signedIn = true } = {}) {
  const [shopper] = await insertShoppers(database.db, 1, { password: "monstera-by-the-window-3", prefix: "oidc", dialect: database.dialect });
  const user = (await database.db.selectFrom("users").select(["id", "email"]).where("id", "=", shopper!.userId).executeTakeFirstOrThrow());
  if (signedIn) {
    const [name, value] = shopper!.cookie.split(/=(.*)/s);
    await page.context().addCookies([{ name: name!, value: value!, url: shop.url }]);
  }
  return user;
}

/** A shopper whose only way in is the provider, made by a first sign-in, with a username chosen; signed in. */
async function providerOnlyShopper(page: Page) {
  const identity = provider.addIdentity({ email: `only-provider-${Date.now()}@example.com`, emailVerified: true, name: "Nila Provider" });
  await page.goto(at("/login"));
  await continueWithProvider(page, identity);
  await expect(page).toHaveURL(urlIs("/choose-username?redirectTo=%2F"));
  await page.getByLabel("Username").fill(`nila_${Date.now() % 1_000_000}`);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(urlIs("/"));
  return (await userByEmail(identity.email))!;
}

const methodRow = (page: Page, name: string) => page.getByRole("listitem", { name });

test.describe("signing in with an OpenID Connect provider", () => {
  test("a first sign-in creates the account from the provider's claims, asks for a username, then goes where the shopper was going", async ({ page, consoleErrors }) => {
    const identity = provider.addIdentity({ email: `Asha.${Date.now()}@Example.com`, emailVerified: true, name: "Asha Kulkarni" });
    const [someone] = await insertShoppers(database.db, 1, { password: "monstera-by-the-window-3", prefix: "taken", dialect: database.dialect });
    const taken = `taken_${Date.now() % 1_000_000}`;
    await database.db.updateTable("users").set({ username: taken, displayUsername: taken }).where("id", "=", someone!.userId).execute();

    await page.goto(at("/orders"));
    await expect(page).toHaveURL(urlIs("/login?redirectTo=%2Forders"));
    await continueWithProvider(page, identity);
    await expect(page).toHaveURL(urlIs("/choose-username?redirectTo=%2Forders"));
    await expect(page.getByRole("heading", { name: m.chooseUsernameHeading })).toBeVisible();

    const user = await userByEmail(identity.email);
    expect(user).toMatchObject({ name: "Asha Kulkarni", username: null, image: null });
    expect(Boolean(user!.emailVerified)).toBe(true);
    expect(await providersOf(user!.id)).toEqual(["oidc"]);
    // The shop keeps the provider account's key only, never the provider's tokens.
    const stored = (await database.db.selectFrom("accounts").selectAll().where("userId", "=", user!.id).executeTakeFirstOrThrow()) as Record<string, unknown>;
    expect([stored.accessToken, stored.refreshToken, stored.idToken]).toEqual([null, null, null]);

    // Until a username is chosen, the other pages send the shopper back here.
    await page.goto(at("/cart"));
    await expect(page).toHaveURL(urlIs("/choose-username?redirectTo=%2Fcart"));
    await page.goto(at("/choose-username?redirectTo=%2Forders"));

    const field = page.getByLabel("Username");
    const send = page.getByRole("button", { name: "Continue" });
    await field.fill("ab");
    await send.click();
    await expect(page.getByText(messages.validation.usernameInvalid)).toBeVisible();
    await field.fill(taken);
    await send.click();
    await expect(page.getByText(messages.auth.usernameTaken)).toBeVisible();
    await field.fill("Asha_K");
    await send.click();

    await expect(page).toHaveURL(urlIs("/orders"));
    await expect(mainNav(page).getByRole("button", { name: "Logout" })).toBeVisible();
    expect(await userByEmail(identity.email)).toMatchObject({ username: "asha_k", displayUsername: "Asha_K" });
    // A new account made by the provider: a sign-in with it, no link to an earlier account.
    expect(await eventsOf(user!.id)).toEqual([`signed-in ${PROVIDER_NAME}`]);
    // The taken name was refused with a 409, which the browser logs.
    allowStatusLogs(consoleErrors, 409);
  });

  test("the provider button and the username page work without JavaScript", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const identity = provider.addIdentity({ email: `nojs-${Date.now()}@example.com`, emailVerified: true, name: "Kiran Rao" });
    await page.goto(at("/login?redirectTo=%2Forders"));
    await continueWithProvider(page, identity);
    await expect(page).toHaveURL(urlIs("/choose-username?redirectTo=%2Forders"));
    await page.getByLabel("Username").fill("no");
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByText(messages.validation.usernameInvalid)).toBeVisible();
    await page.getByLabel("Username").fill(`kiran_${Date.now() % 1_000_000}`);
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL(urlIs("/orders"));
    await context.close();
  });

  test("a first sign-in with an address the provider has not verified makes no account", async ({ page }) => {
    const identity = provider.addIdentity({ email: `unchecked-${Date.now()}@example.com`, emailVerified: false, name: "Dev Unchecked" });
    await page.goto(at("/register"));
    await continueWithProvider(page, identity);

    await expect(page).toHaveURL((url) => url.pathname === "/login");
    await expect(page.getByRole("alert")).toHaveText(m.unverifiedNewAccount(PROVIDER_NAME));
    expect(await userByEmail(identity.email)).toBeUndefined();
  });

  test("an existing account is linked when the provider has verified its address, and the shopper is signed in to it", async ({ page }) => {
    const shopper = await passwordShopper(page, { signedIn: false });
    const identity = provider.addIdentity({ email: shopper.email, emailVerified: true, name: "Someone Else" });
    await page.goto(at("/login"));
    await continueWithProvider(page, identity);

    await expect(page).toHaveURL(urlIs("/"));
    await expect(mainNav(page).getByRole("button", { name: "Logout" })).toBeVisible();
    expect(await providersOf(shopper.id)).toEqual(["credential", "oidc"]);
    // The provider's name does not replace the one the shopper gave.
    expect((await userByEmail(shopper.email))!.name).not.toBe("Someone Else");
    expect(await eventsOf(shopper.id)).toEqual([`provider-linked ${PROVIDER_NAME}`, `signed-in ${PROVIDER_NAME}`]);
    const sessions = await database.db.selectFrom("sessions").select("userId").where("userId", "=", shopper.id).execute();
    expect(sessions.length).toBeGreaterThan(1);
  });

  test("an existing account is not linked when the provider has not verified the address, and nothing says whether it exists", async ({ page }) => {
    const shopper = await passwordShopper(page, { signedIn: false });
    const sessionsBefore = await database.db.selectFrom("sessions").select("id").where("userId", "=", shopper.id).execute();
    const identity = provider.addIdentity({ email: shopper.email, emailVerified: false, name: "Mallory" });
    await page.goto(at("/login"));
    await continueWithProvider(page, identity);

    await expect(page).toHaveURL((url) => url.pathname === "/login");
    await expect(page.getByRole("alert")).toHaveText(m.notLinked(PROVIDER_NAME));
    expect(await providersOf(shopper.id)).toEqual(["credential"]);
    expect(await eventsOf(shopper.id)).toEqual([]);
    expect(await database.db.selectFrom("sessions").select("id").where("userId", "=", shopper.id).execute()).toEqual(sessionsBefore);
    await expect(mainNav(page)).toHaveCount(0);
    await page.goto(at("/orders"));
    await expect(page).toHaveURL(urlIs("/login?redirectTo=%2Forders"));
  });
});

test.describe("two-factor authentication after a provider", () => {
  test("an account with two-factor on is asked for its authenticator code after the provider, and is signed in only once it is given", async ({ page }) => {
    const shopper = await passwordShopper(page);
    await page.goto(at("/account/two-factor"));
    await page.getByLabel("Password").fill("monstera-by-the-window-3");
    await page.getByRole("button", { name: "Turn on two-factor authentication" }).click();
    const secret = (await page.getByTestId("two-factor-secret").textContent())!.trim();
    await page.getByLabel("Code from the app").fill(await generate({ secret }));
    await page.getByRole("button", { name: "Confirm" }).click();
    await expect(page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem")).toHaveCount(10);
    await page.context().clearCookies();

    const identity = provider.addIdentity({ email: shopper.email, emailVerified: true, name: "Two Factor" });
    await page.goto(at("/login?redirectTo=%2Forders"));
    await continueWithProvider(page, identity);
    await expect(page).toHaveURL(urlIs("/login?step=code&redirectTo=%2Forders"));
    await expect(page.getByRole("heading", { name: messages.twoFactor.heading })).toBeVisible();
    // The provider's answer alone left no session behind.
    const cookies = await page.context().cookies(shop.url);
    expect(cookies.some((cookie) => cookie.name.endsWith("session_token") && cookie.value)).toBe(false);
    await page.goto(at("/orders"));
    await expect(page).toHaveURL(urlIs("/login?redirectTo=%2Forders"));
    await page.goBack();

    await page.getByLabel("Code", { exact: true }).fill(await generate({ secret }));
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page).toHaveURL(urlIs("/orders"));
    await expect(mainNav(page).getByRole("button", { name: "Logout" })).toBeVisible();
    expect((await eventsOf(shopper.id)).slice(-1)).toEqual(["signed-in authenticator code"]);
  });
});

test.describe("the account's sign-in methods", () => {
  test("removing the provider is refused while it is the only way in", async ({ page, consoleErrors }) => {
    const user = await providerOnlyShopper(page);
    await page.goto(at(`/profile/${user.id}`));
    await page.getByRole("link", { name: m.manage }).click();
    await expect(page.getByRole("heading", { name: m.heading })).toBeVisible();
    await expect(page.getByText(m.noPassword)).toBeVisible();

    await methodRow(page, PROVIDER_NAME).getByRole("button", { name: m.remove }).click();
    await expect(page.getByRole("alert")).toHaveText(m.lastWayIn(PROVIDER_NAME));
    expect(await providersOf(user.id)).toEqual(["oidc"]);
    // The refusal is a 409, which the browser logs.
    allowStatusLogs(consoleErrors, 409);
  });

  test("a shopper with a password links the provider from the page, and may remove it again", async ({ page }) => {
    const shopper = await passwordShopper(page);
    const identity = provider.addIdentity({ email: shopper.email, emailVerified: true, name: "Same Person" });
    await page.goto(at("/account/sign-in-methods"));
    await expect(page.getByText(m.passwordSet)).toBeVisible();
    await methodRow(page, PROVIDER_NAME).getByRole("button", { name: m.link(PROVIDER_NAME) }).click();
    await page.getByLabel("Login").fill(identity.login);
    await page.getByRole("button", { name: "Sign in" }).click();

    await expect(page).toHaveURL(urlIs("/account/sign-in-methods?linked=oidc"));
    await expect(page.getByRole("status").filter({ hasText: m.linked(PROVIDER_NAME) })).toBeVisible();
    expect(await providersOf(shopper.id)).toEqual(["credential", "oidc"]);

    await methodRow(page, PROVIDER_NAME).getByRole("button", { name: m.remove }).click();
    await expect(page.getByRole("status").filter({ hasText: m.removed(PROVIDER_NAME) })).toBeVisible();
    await expect(methodRow(page, PROVIDER_NAME).getByRole("button", { name: m.link(PROVIDER_NAME) })).toBeVisible();
    expect(await providersOf(shopper.id)).toEqual(["credential"]);
    expect(await eventsOf(shopper.id)).toEqual([`provider-linked ${PROVIDER_NAME}`, `provider-unlinked ${PROVIDER_NAME}`]);
  });

  test("an account whose only way in is the provider has no change-password form, and is deleted after a recent sign-in with no password asked", async ({ page }) => {
    const shopper = await providerOnlyShopper(page);
    // No change-password form to fail on the profile of an account without a password: how to add one instead.
    await page.goto(at(`/profile/${shopper.id}`));
    await expect(page.getByText(m.noPassword)).toBeVisible();
    await expect(page.getByRole("heading", { name: "Change password" })).toHaveCount(0);
    await page.goto(at("/account/delete"));
    const ac = messages.accountChanges;
    await expect(page.getByText(ac.recentSignInNote(10))).toBeVisible();
    await expect(page.getByLabel(ac.passwordLabel)).toHaveCount(0);
    await page.getByRole("button", { name: ac.deleteButton }).click();

    await expect(page).toHaveURL(urlIs("/"));
    await expect(toast(page, ac.accountDeleted)).toBeVisible();
    await expect(mainNav(page).getByRole("link", { name: "Login" })).toBeVisible();
    expect(await userByEmail(shopper.email)).toBeUndefined();
    expect(await providersOf(shopper.id)).toEqual([]);
  });

  test("a visitor is sent to log in", async ({ page }) => {
    await page.goto(at("/account/sign-in-methods"));
    await expect(page).toHaveURL(urlIs("/login?redirectTo=%2Faccount%2Fsign-in-methods"));
  });
});

test("without a provider configured, the login and register pages show no provider buttons", async ({ page }) => {
  // The suite's own server (playwright.config.ts) configures none.
  for (const screen of ["/login", "/register"]) {
    await page.goto(screen);
    await expect(page.getByRole("button", { name: /^Continue with/ })).toHaveCount(0);
    await expect(page.getByRole("textbox", { name: "Email" })).toBeVisible();
  }
});
