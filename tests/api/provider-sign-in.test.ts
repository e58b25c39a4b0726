import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "../../common/shared/messages.ts";
import type { SessionUser } from "../../server/platform/session-user.ts";
import { callerWith, sessionCookie, signUpVerified } from "../support/accounts.ts";
import { useAppWithMail } from "../support/app-with-mail.ts";
import { startTestOidcProvider, type TestIdentity, type TestOidcProvider } from "../support/oidc-provider.ts";
import { postJson, TEST_ORIGIN } from "../support/test-app.ts";

// Signing in with an OpenID Connect provider (docs/decisions/039) against a real provider on loopback, the shop
// driven in-process: the linking rule, the account a first sign-in makes, and removing a provider.

const NAME = "Test ID";
const env: NodeJS.ProcessEnv = {};
const shop = useAppWithMail(env);
let provider: TestOidcProvider;

beforeAll(async () => {
  provider = await startTestOidcProvider({ port: 0, redirectUris: [`${TEST_ORIGIN}/api/auth/callback/oidc`] });
  Object.assign(env, { OIDC_ISSUER: provider.issuer, OIDC_CLIENT_ID: provider.clientId, OIDC_CLIENT_SECRET: provider.clientSecret, OIDC_NAME: NAME });
});

afterAll(async () => {
  await provider?.close();
});

const nameValue = (setCookie: string) => setCookie.split(";")[0]!;

/**
 * What a browser does between the shop's redirect to the provider and the provider's redirect back: signs in at
 * the provider's form as `identity` (keeping the provider's cookies), and answers the shop's return address.
 */
async function returnFromProvider(authorizationUrl: string, identity: TestIdentity) {
  const jar = new Map<string, string>();
  const cookies = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
  let url = authorizationUrl;
  let body: URLSearchParams | undefined;
  for (let hop = 0; hop < 10; hop++) {
    const response = await fetch(url, { method: body ? "POST" : "GET", body, redirect: "manual", headers: { Cookie: cookies() } });
    for (const cookie of response.headers.getSetCookie()) {
      const [name, value] = nameValue(cookie).split(/=(.*)/s);
      jar.set(name!, value ?? "");
    }
    const location = response.headers.get("location");
    if (location && new URL(location, url).origin !== provider.issuer) return new URL(location, url);
    if (location) {
      url = new URL(location, url).href;
      body = undefined;
    } else if (response.status === 200 && /\/interaction\//.test(url) && !body) {
      body = new URLSearchParams({ login: identity.login });
    } else {
      throw new Error(`the provider answered ${response.status} at ${url}: ${await response.text()}`);
    }
  }
  throw new Error("the provider never sent the browser back");
}

/** A sign-in with the provider as the login page starts it; the shop's answer to the provider's return. */
async function signInWithProvider(identity: TestIdentity, redirectTo = "/") {
  const started = await shop.app.services.accounts.startProviderSignIn({ provider: "oidc" }, redirectTo, callerWith("127.0.0.1"));
  const back = await returnFromProvider(started.url, identity);
  return shop.app.request(back.pathname + back.search, { headers: { Cookie: started.cookies.map(nameValue).join("; ") } });
}

const db = () => shop.app.database.db;
const providersOf = async (userId: string) =>
  (await db().selectFrom("accounts").select("providerId").where("userId", "=", userId).orderBy("providerId").execute()).map((row) => row.providerId);
const eventsOf = async (userId: string) =>
  (await db().selectFrom("security_events").select(["kind", "method"]).where("user_id", "=", userId).orderBy("created_at").orderBy("id").execute()).map((row) =>
    `${row.kind} ${row.method ?? ""}`.trim(),
  );
const sessionUser = async (cookie: string): Promise<SessionUser> => (await shop.app.services.accounts.getSession(callerWith("127.0.0.1", cookie))).user!;

describe("a sign-in with an OpenID Connect provider", () => {
  it("links an existing account only when the provider says its address is verified", async () => {
    const { person, userId } = await signUpVerified(shop.app, shop.capture);

    const unverified = await signInWithProvider(provider.addIdentity({ email: person.email, emailVerified: false }));
    expect(unverified.status).toBe(302);
    expect(new URL(unverified.headers.get("location")!, TEST_ORIGIN).searchParams.get("error")).toBe("account_not_linked");
    expect(unverified.headers.getSetCookie().some((cookie) => /session_token=[^;]/.test(cookie) && !/Max-Age=0/i.test(cookie))).toBe(false);
    expect(await providersOf(userId)).toEqual(["credential"]);

    const verified = await signInWithProvider(provider.addIdentity({ email: person.email.toUpperCase(), emailVerified: true, name: "Not The Name" }), "/orders");
    expect([verified.status, verified.headers.get("location")]).toEqual([302, "/orders"]);
    expect((await sessionUser(sessionCookie(verified))).id).toBe(userId);
    expect(await providersOf(userId)).toEqual(["credential", "oidc"]);
    expect((await sessionUser(sessionCookie(verified))).name).toBe(person.name);
    expect(await eventsOf(userId)).toContain(`provider-linked ${NAME}`);
    expect((await eventsOf(userId)).at(-1)).toBe(`signed-in ${NAME}`);
  });

  it("makes an account for a verified address, without a username, its full name from the provider, and then asks for one", async () => {
    const identity = provider.addIdentity({ email: `new.${Date.now()}@example.com`, emailVerified: true, name: "Ravi Menon" });
    const response = await signInWithProvider(identity, "/cart");
    expect([response.status, response.headers.get("location")]).toEqual([302, "/choose-username?redirectTo=%2Fcart"]);
    const user = await sessionUser(sessionCookie(response));
    expect(user).toMatchObject({ email: identity.email, name: "Ravi Menon", username: "", emailVerified: true });
    expect(await providersOf(user.id)).toEqual(["oidc"]);
    expect(await eventsOf(user.id)).toEqual([`signed-in ${NAME}`]);

    // The same provider account signs in to the same account the next time, straight to where it was going.
    const again = await signInWithProvider(identity, "/cart");
    expect([again.status, again.headers.get("location")]).toEqual([302, "/cart"]);
    expect((await sessionUser(sessionCookie(again))).id).toBe(user.id);

    await expect(shop.app.services.accounts.chooseUsername(user, { username: "x" })).rejects.toMatchObject({ fieldErrors: { username: messages.validation.usernameInvalid } });
    await shop.app.services.accounts.chooseUsername(user, { username: "Ravi.M" });
    expect((await sessionUser(sessionCookie(again))).username).toBe("Ravi.M");
  });

  it("makes no account for an address the provider has not verified", async () => {
    const identity = provider.addIdentity({ email: `unverified.${Date.now()}@example.com`, emailVerified: false, name: "Dev" });
    const response = await signInWithProvider(identity);
    expect(response.status).toBe(302);
    expect(new URL(response.headers.get("location")!, TEST_ORIGIN).searchParams.get("error")).toBe("unable_to_create_user");
    expect(await db().selectFrom("users").select("id").where("email", "=", identity.email).execute()).toEqual([]);
  });

  it("keeps none of the provider's tokens", async () => {
    const response = await signInWithProvider(provider.addIdentity({ email: `tokens.${Date.now()}@example.com`, emailVerified: true }));
    const user = await sessionUser(sessionCookie(response));
    const account = (await db().selectFrom("accounts").selectAll().where("userId", "=", user.id).executeTakeFirstOrThrow()) as Record<string, unknown>;
    expect([account.accessToken, account.refreshToken, account.idToken]).toEqual([null, null, null]);
  });
});

describe("removing a provider", () => {
  it("is refused while it is the account's only way in, and allowed beside a password", async () => {
    const only = await signInWithProvider(provider.addIdentity({ email: `only.${Date.now()}@example.com`, emailVerified: true }));
    const onlyCookie = sessionCookie(only);
    const onlyUser = await sessionUser(onlyCookie);
    await expect(shop.app.services.accounts.removeProvider(onlyUser, { provider: "oidc" }, callerWith("127.0.0.1", onlyCookie))).rejects.toMatchObject({
      status: 409,
      message: messages.signInMethods.lastWayIn(NAME),
    });
    expect(await providersOf(onlyUser.id)).toEqual(["oidc"]);

    const { person, userId } = await signUpVerified(shop.app, shop.capture);
    const linked = sessionCookie(await signInWithProvider(provider.addIdentity({ email: person.email, emailVerified: true })));
    const user = await sessionUser(linked);
    expect(await shop.app.services.accounts.removeProvider(user, { provider: "oidc" }, callerWith("127.0.0.1", linked))).toEqual({ name: NAME });
    expect(await providersOf(userId)).toEqual(["credential"]);
    expect((await eventsOf(userId)).at(-1)).toBe(`provider-unlinked ${NAME}`);
    expect(await shop.app.services.accounts.listSignInMethods(user)).toEqual({ hasPassword: true, providers: [{ id: "oidc", name: NAME, linked: false }] });
  });
});

describe("the provider endpoints over HTTP", () => {
  it("refuse an ID token posted straight to /sign-in/social, and start the redirect flow otherwise", async () => {
    const posted = await shop.app.request("/api/auth/sign-in/social", postJson({ provider: "oidc", idToken: { token: "eyJhbGciOiJub25lIn0.e30." } }));
    expect(posted.status).toBe(400);
    const started = await shop.app.request("/api/auth/sign-in/social", postJson({ provider: "oidc", callbackURL: "/" }));
    expect(started.status).toBe(200);
    expect(new URL((await started.json()).url).origin).toBe(provider.issuer);
  });

  it("start at most 30 sign-ins a minute from one address", async () => {
    const start = () => shop.app.request("/api/auth/sign-in/social", postJson({ provider: "oidc", callbackURL: "/" }));
    for (let i = 0; i < 30; i++) expect((await start()).status).toBe(200);
    const refused = await start();
    expect(refused.status).toBe(429);
    expect((await refused.json()).message).toMatch(/^Too many sign-ins with a provider\./);
  });

  it("answer 404 at the return address of a provider that is not configured", async () => {
    for (const path of ["/api/auth/callback/google?state=abc&code=1", "/api/auth/callback/oidc/extra?state=abc", "/api/auth/callback"]) {
      expect([path, (await shop.app.request(path)).status]).toEqual([path, 404]);
    }
  });
});
