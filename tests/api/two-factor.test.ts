import { generate } from "otplib";
import { describe, expect, it } from "vitest";
import { authRateRules } from "../../server/modules/accounts/index.ts";
import { messages } from "../../common/shared/messages.ts";
import { callerWith, newPerson, sessionCookie, signUpVerified } from "../support/accounts.ts";
import { extractLinks } from "../support/smtp-capture.ts";
import { useAppWithMail } from "../support/app-with-mail.ts";
import { postJson, type TestApp } from "../support/test-app.ts";

// Better Auth's two-factor and magic-link endpoints as the shop opens them (/api/auth): who may call them, and the
// limits on wrong codes and on sign-in links (server/modules/accounts/auth/second-factor-hooks.ts).

const shop = useAppWithMail({ TRUST_PROXY: "1" });

/** Each test signs up and in several times, and every password checked costs an argon2 hash. */
const SLOW = 60_000;

/**
 * A JSON POST from `address` (over a real socket, behind the one trusted proxy, so each test can speak from several
 * addresses), with the browser's cookies.
 */
const listening = new WeakMap<TestApp, Promise<string>>();
async function post(path: string, body: unknown, address = "203.0.113.7", cookie?: string) {
  if (!listening.has(shop.app)) listening.set(shop.app, shop.app.listen());
  const url = await listening.get(shop.app)!;
  return fetch(`${url}/api/auth${path}`, postJson(body, { "X-Forwarded-For": address, ...(cookie ? { Cookie: cookie } : {}) }));
}

/** The cookies (name=value) a response set and did not expire, joined as a browser sends them. */
const cookiesSet = (response: Response) =>
  response.headers
    .getSetCookie()
    .filter((cookie) => !/Max-Age=0/i.test(cookie))
    .map((cookie) => cookie.split(";")[0]!)
    .join("; ");

/** Turns two-factor on through the JSON endpoints; returns the new session cookie, the secret and the recovery codes. */
async function turnOn(app: TestApp, cookie: string, password: string) {
  const enabled = await app.request("/api/auth/two-factor/enable", postJson({ password }, { Cookie: cookie }));
  expect(enabled.status).toBe(200);
  const { totpURI, backupCodes } = (await enabled.json()) as { totpURI: string; backupCodes: string[] };
  const secret = new URL(totpURI).searchParams.get("secret")!;
  const confirmed = await app.request("/api/auth/two-factor/verify-totp", postJson({ code: await generate({ secret }) }, { Cookie: cookie }));
  expect(confirmed.status).toBe(200);
  return { cookie: sessionCookie(confirmed), secret, backupCodes };
}

/** A wrong code for a 6-digit secret: the right one, changed in its last digit. */
const wrongCode = async (secret: string) => {
  const right = await generate({ secret });
  return right.slice(0, 5) + String((Number(right[5]) + 1) % 10);
};

async function passwordStep(person: { email: string; password: string }, address = "203.0.113.7") {
  const response = await post("/sign-in/email", { email: person.email, password: person.password }, address);
  expect(response.status).toBe(200);
  expect(await response.json()).toMatchObject({ twoFactorRedirect: true });
  return cookiesSet(response);
}

const twoFactorOn = async (app: TestApp, userId: string) =>
  Boolean((await app.database.db.selectFrom("users").select("twoFactorEnabled").where("id", "=", userId).executeTakeFirstOrThrow()).twoFactorEnabled);

describe("the two-factor endpoints", () => {
  it("refuse a visitor: nothing is turned on, off or checked without a session or a pending sign-in", async () => {
    for (const [path, body] of [
      ["/api/auth/two-factor/enable", { password: "monstera-deliciosa-77" }],
      ["/api/auth/two-factor/disable", { password: "monstera-deliciosa-77" }],
      ["/api/auth/two-factor/verify-totp", { code: "123456" }],
      ["/api/auth/two-factor/verify-backup-code", { code: "abcde-fghij" }],
    ] as const) {
      const response = await shop.app.request(path, postJson(body));
      expect([path, response.status]).toEqual([path, 401]);
    }
  }, SLOW);

  it("act on the caller's own account only: another account's password, code or recovery code changes nothing of the owner's", async () => {
    const owner = await signUpVerified(shop.app, shop.capture, newPerson({ password: "calathea-orbifolia-31" }));
    const other = await signUpVerified(shop.app, shop.capture);
    const { backupCodes } = await turnOn(shop.app, owner.cookie, owner.person.password);

    // The other account's session with the owner's password turns nothing off.
    const disable = await shop.app.request("/api/auth/two-factor/disable", postJson({ password: owner.person.password }, { Cookie: other.cookie }));
    expect(disable.status).toBe(400);
    expect(await disable.json()).toMatchObject({ code: "INVALID_PASSWORD" });
    expect(await twoFactorOn(shop.app, owner.userId)).toBe(true);
    // Nor does a recovery code of the owner's mean anything to the other account's session; the code still works for the owner.
    const used = await shop.app.request("/api/auth/two-factor/verify-backup-code", postJson({ code: backupCodes[0] }, { Cookie: other.cookie }));
    expect(used.status).toBe(400);
    const pending = await passwordStep(owner.person);
    const recovered = await post("/two-factor/verify-backup-code", { code: backupCodes[0] }, "203.0.113.7", pending);
    expect(recovered.status).toBe(200);
  }, SLOW);
});

describe("wrong authenticator codes at sign-in", () => {
  it("are refused past the limit per account at one address, while the owner at another address still signs in", async () => {
    const { person, cookie } = await signUpVerified(shop.app, shop.capture);
    const { secret } = await turnOn(shop.app, cookie, person.password);
    const limit = authRateRules.secondFactorFailuresPerAccount.limit;
    const statuses: number[] = [];
    // Each guess gets a fresh challenge (the plugin's own cap is 5 tries per challenge).
    for (let i = 0; i <= limit; i++) {
      const pending = await passwordStep(person, "198.51.100.9");
      const response = await post("/two-factor/verify-totp", { code: await wrongCode(secret) }, "198.51.100.9", pending);
      statuses.push(response.status);
    }
    expect(statuses).toEqual([...Array(limit).fill(401), 429]);
    // Even the right code is refused at that address for now.
    const pendingThere = await passwordStep(person, "198.51.100.9");
    const refused = await post("/two-factor/verify-totp", { code: await generate({ secret }) }, "198.51.100.9", pendingThere);
    expect(refused.status).toBe(429);
    const pendingHome = await passwordStep(person, "203.0.113.50");
    const home = await post("/two-factor/verify-totp", { code: await generate({ secret }) }, "203.0.113.50", pendingHome);
    expect(home.status).toBe(200);
  }, SLOW);
});

describe("sign-in links by e-mail", () => {
  const ask = (email: string, address = "203.0.113.7") => post("/sign-in/magic-link", { email }, address);
  const linksTo = (email: string) => shop.capture.messages.filter((mail) => mail.to.includes(email) && mail.text.includes("/login/link?token=")).length;

  it("answer an unknown address as a known one, mail nobody and make no account", async () => {
    const { person } = await signUpVerified(shop.app, shop.capture);
    const stranger = newPerson();
    const known = await ask(person.email);
    const unknown = await ask(stranger.email);
    expect([known.status, unknown.status]).toEqual([200, 200]);
    expect(await unknown.json()).toEqual(await known.json());
    await shop.capture.waitFor((mail) => mail.to.includes(person.email) && mail.text.includes("/login/link?token="));
    const queuedForStranger = await shop.app.database.db.selectFrom("mail_outbox").select("id").where("recipient", "=", stranger.email).execute();
    expect(queuedForStranger).toEqual([]);
    expect(linksTo(stranger.email)).toBe(0);
    expect(await shop.app.database.db.selectFrom("users").select("id").where("email", "=", stranger.email).executeTakeFirst()).toBeUndefined();
  }, SLOW);

  it("are refused past the limit per e-mail at one address, and another address may still ask", async () => {
    const { person } = await signUpVerified(shop.app, shop.capture);
    const limit = authRateRules.magicLinkPerEmail.limit;
    const statuses: number[] = [];
    for (let i = 0; i <= limit; i++) statuses.push((await ask(person.email, "198.51.100.20")).status);
    expect(statuses).toEqual([...Array(limit).fill(200), 429]);
    expect((await ask(person.email, "198.51.100.21")).status).toBe(200);
  }, SLOW);

  it("stop reaching one mailbox past its cap, from any address, with the same answer as before", async () => {
    const { person } = await signUpVerified(shop.app, shop.capture);
    const cap = authRateRules.magicLinkMailsPerEmail.limit;
    const answers: number[] = [];
    for (let i = 0; i <= cap; i++) answers.push((await ask(person.email, `198.51.100.${30 + i}`)).status);
    expect(answers).toEqual(Array(cap + 1).fill(200));
    // Each mail is queued before its request is answered: the one past the cap queued nothing.
    const queued = await shop.app.database.db.selectFrom("mail_outbox").select("id").where("recipient", "=", person.email).where("kind", "=", "sign-in-link").execute();
    expect(queued).toHaveLength(cap);
  }, SLOW);
});

describe("following a sign-in link", () => {
  it("signs an unverified account in once, marks its address verified and removes the password nothing proved was the owner's", async () => {
    const person = newPerson();
    expect((await shop.app.request("/api/auth/sign-up/email", postJson(person))).status).toBe(200);
    expect((await post("/sign-in/magic-link", { email: person.email })).status).toBe(200);
    const mail = await shop.capture.waitFor((m) => m.to.includes(person.email) && m.text.includes("/login/link?token="));
    const token = new URL(extractLinks(mail.text).find((link) => link.includes("/login/link"))!).searchParams.get("token");

    const outcome = await shop.app.services.accounts.followSignInLink({ token }, callerWith("203.0.113.7"), null);
    expect(outcome).toMatchObject({ secondFactorRequired: false, session: { kind: "issued" } });
    const user = await shop.app.database.db.selectFrom("users").select(["id", "emailVerified"]).where("email", "=", person.email).executeTakeFirstOrThrow();
    expect(Boolean(user.emailVerified)).toBe(true);
    expect(await shop.app.database.db.selectFrom("accounts").select("id").where("userId", "=", user.id).execute()).toEqual([]);

    await expect(shop.app.services.accounts.followSignInLink({ token }, callerWith("203.0.113.7"), null)).rejects.toMatchObject({
      status: 400,
      message: messages.signInLink.invalid,
    });
  }, SLOW);
});

describe("the account's activity", () => {
  const kinds = async (userId: string) =>
    (await shop.app.database.db.selectFrom("security_events").select(["kind", "method"]).where("user_id", "=", userId).orderBy("created_at").execute()).map(
      ({ kind, method }) => (method ? `${kind}: ${method}` : kind),
    );

  it("records two-factor turned on and off, a wrong code at sign-in, a recovery code used, and no sign-in for the first code", async () => {
    const { person, cookie, userId } = await signUpVerified(shop.app, shop.capture);
    const before = await kinds(userId);
    const { secret, backupCodes, cookie: afterConfirm } = await turnOn(shop.app, cookie, person.password);
    // The first code renewed the session: no sign-in is recorded for it.
    expect((await kinds(userId)).slice(before.length)).toEqual(["two-factor-enabled"]);

    const pending = await passwordStep(person);
    expect((await post("/two-factor/verify-totp", { code: await wrongCode(secret) }, "203.0.113.7", pending)).status).toBe(401);
    expect((await post("/two-factor/verify-backup-code", { code: backupCodes[3] }, "203.0.113.7", pending)).status).toBe(200);
    const disabled = await shop.app.request("/api/auth/two-factor/disable", postJson({ password: person.password }, { Cookie: afterConfirm }));
    expect(disabled.status).toBe(200);
    // Events of one request may share a timestamp: compared as a set.
    expect((await kinds(userId)).slice(before.length).sort()).toEqual(
      ["two-factor-enabled", "sign-in-failed: authenticator code", "recovery-code-used", "signed-in: recovery code", "two-factor-disabled"].sort(),
    );
  }, SLOW);
});
