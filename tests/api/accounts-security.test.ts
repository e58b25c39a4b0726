import { describe, expect, it } from "vitest";
import { messages } from "../../common/shared/messages.ts";
import type { PageHandler } from "../../server/pages.ts";
import { currentUser } from "../../server/platform/http/request-context.ts";
import { callerWith, cookieOf, newPerson, sessionCookie, signIn, signUpVerified, tokenFromMail } from "../support/accounts.ts";
import { useAppWithMail } from "../support/app-with-mail.ts";
import { createTestApp, postJson, TEST_ORIGIN } from "../support/test-app.ts";

const shop = useAppWithMail();

const me = (cookie: string) => shop.app.request("/api/me", { headers: { Cookie: cookie } });
const sessionOf = (userId: string) => shop.app.database.db.selectFrom("sessions").selectAll().where("userId", "=", userId).executeTakeFirstOrThrow();
const daysFromNow = (days: number) => new Date(Date.now() + days * 24 * 3600 * 1000).toISOString();

/** A session's end about 7 days from now (within a minute: the test itself takes some time). */
function expectAWeekFromNow(expiresAt: string | Date) {
  expect(Math.abs(new Date(expiresAt).getTime() - new Date(daysFromNow(7)).getTime())).toBeLessThan(60_000);
}

describe("session cookies", () => {
  it("are HttpOnly, SameSite=Lax, Path=/, and not Secure over plain http", async () => {
    const { person } = await signUpVerified(shop.app, shop.capture);
    const response = await signIn(shop.app, person.email, person.password);
    expect(response.status).toBe(200);
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith("plant-shop.session_token="))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/i);
  });

  it("are Secure with the __Host- prefix when PUBLIC_URL is https", async () => {
    const httpsApp = await createTestApp({ SMTP_URL: shop.capture.url, PUBLIC_URL: "https://shop.example" });
    try {
      const person = newPerson();
      const origin = { Origin: "https://shop.example" };
      await httpsApp.request("https://shop.example/api/auth/sign-up/email", postJson(person, origin));
      const token = await tokenFromMail(shop.capture, person.email, "/verify");
      expect((await httpsApp.request("https://shop.example/api/verification", postJson({ token, password: person.password }, origin))).status).toBe(200);
      const response = await httpsApp.request("https://shop.example/api/auth/sign-in/email", postJson(person, origin));
      const cookie = response.headers.getSetCookie().find((c) => c.includes("session_token="))!;
      expect(cookie.startsWith("__Host-plant-shop.session_token=")).toBe(true);
      expect(cookie).toMatch(/; Secure/i);
      expect(cookie).toMatch(/Path=\//);
      expect(cookie).not.toMatch(/Domain=/i);
    } finally {
      await httpsApp.cleanup();
    }
  });

  it("are new at every login", async () => {
    const { person, cookie } = await signUpVerified(shop.app, shop.capture);
    const again = sessionCookie(await signIn(shop.app, person.email, person.password, { Cookie: cookie }));
    expect(again).not.toBe(cookie);
    expect((await me(again)).status).toBe(200);
  });
});

describe("sessions", () => {
  it("end on the server at logout: the old cookie no longer works", async () => {
    const { cookie } = await signUpVerified(shop.app, shop.capture);
    expect((await me(cookie)).status).toBe(200);
    const out = await shop.app.request("/api/auth/sign-out", { method: "POST", headers: { Cookie: cookie, Origin: TEST_ORIGIN } });
    expect(out.status).toBe(200);
    expect((await me(cookie)).status).toBe(401);
  });

  it("last 7 days from sign-in, in the cookie and in the database", async () => {
    const { person, userId } = await signUpVerified(shop.app, shop.capture);
    const response = await signIn(shop.app, person.email, person.password);
    expect(response.headers.getSetCookie().find((c) => c.startsWith("plant-shop.session_token="))).toMatch(/; Max-Age=604800(;|$)/);
    const newest = await shop.app.database.db.selectFrom("sessions").select("expiresAt").where("userId", "=", userId).orderBy("createdAt", "desc").executeTakeFirstOrThrow();
    expectAWeekFromNow(newest.expiresAt);
  });

  it("slide: used after a day or more, a session has 7 days again, in the database and in the cookie", async () => {
    const { cookie, userId } = await signUpVerified(shop.app, shop.capture);
    await shop.app.database.db.updateTable("sessions").set({ expiresAt: daysFromNow(5) }).where("userId", "=", userId).execute();

    const used = await me(cookie);
    expect(used.status).toBe(200);
    const refreshed = used.headers.getSetCookie();
    expect(refreshed).toHaveLength(1);
    expect(refreshed[0]!.startsWith(`${cookie};`)).toBe(true);
    expect(refreshed[0]).toMatch(/; Max-Age=604800(;|$)/);
    expectAWeekFromNow((await sessionOf(userId)).expiresAt);
    // Used again at once: nothing to refresh.
    expect((await me(cookie)).headers.getSetCookie()).toEqual([]);
  });

  it("slide on pages too, but a page that sets the session cookie itself (a login) has the last word", async () => {
    const pages: PageHandler = async (c) => {
      await currentUser(c);
      const headers = c.req.path === "/login" ? { "Set-Cookie": "plant-shop.session_token=from-the-login; Path=/" } : undefined;
      return new Response("<p>page</p>", { headers });
    };
    const pageApp = await createTestApp({ SMTP_URL: shop.capture.url }, { handler: pages });
    try {
      const { cookie, userId } = await signUpVerified(pageApp, shop.capture);
      const dueForRefresh = () => pageApp.database.db.updateTable("sessions").set({ expiresAt: daysFromNow(5) }).where("userId", "=", userId).execute();
      await dueForRefresh();
      expect((await pageApp.request("/shop", { headers: { Cookie: cookie } })).headers.getSetCookie()).toEqual([expect.stringMatching(/Max-Age=604800/)]);
      await dueForRefresh();
      expect((await pageApp.request("/login", { headers: { Cookie: cookie } })).headers.getSetCookie()).toEqual(["plant-shop.session_token=from-the-login; Path=/"]);
    } finally {
      await pageApp.cleanup();
    }
  });

  it("made with rememberMe: false keep a browser-session cookie (no Max-Age, no Expires), also when used a day later", async () => {
    const { person, userId } = await signUpVerified(shop.app, shop.capture);
    const response = await shop.app.request("/api/auth/sign-in/email", postJson({ email: person.email, password: person.password, rememberMe: false }));
    expect(response.status).toBe(200);
    const setCookies = response.headers.getSetCookie();
    const issued = setCookies.find((c) => c.startsWith("plant-shop.session_token="))!;
    expect(issued).not.toMatch(/Max-Age|Expires/i);
    const cookies = setCookies.map((c) => c.split(";")[0]!).join("; ");
    expect(cookies).toMatch(/plant-shop\.dont_remember=/);
    // A day has passed since the session was made or last refreshed: the moment a remembered one would slide.
    const hourFromNow = new Date(Date.now() + 3600 * 1000).toISOString();
    const dayAgo = new Date(Date.now() - 23 * 3600 * 1000).toISOString();
    await shop.app.database.db.updateTable("sessions").set({ expiresAt: hourFromNow, updatedAt: dayAgo }).where("userId", "=", userId).execute();

    for (let i = 0; i < 2; i++) {
      const used = await me(cookies);
      expect(used.status).toBe(200);
      for (const cookie of used.headers.getSetCookie().filter((c) => c.startsWith("plant-shop.session_token="))) {
        expect(cookie).not.toMatch(/Max-Age|Expires/i);
      }
    }
  });

  it("expire after 7 idle days", async () => {
    const { cookie, userId } = await signUpVerified(shop.app, shop.capture);
    await shop.app.database.db.updateTable("sessions").set({ expiresAt: new Date(Date.now() - 1000).toISOString() }).where("userId", "=", userId).execute();
    expect((await me(cookie)).status).toBe(401);
  });

  it("never outlive 30 days, however active", async () => {
    const { cookie, userId } = await signUpVerified(shop.app, shop.capture);
    const thirtyOneDaysAgo = new Date(Date.now() - 31 * 24 * 3600 * 1000).toISOString();
    await shop.app.database.db.updateTable("sessions").set({ createdAt: thirtyOneDaysAgo }).where("userId", "=", userId).execute();
    expect((await me(cookie)).status).toBe(401);
    expect(await shop.app.database.db.selectFrom("sessions").select("id").where("userId", "=", userId).execute()).toEqual([]);
  });
});

describe("after a password change or reset", () => {
  const sessionsOf = async (userId: string) => (await shop.app.database.db.selectFrom("sessions").select("id").where("userId", "=", userId).execute()).length;

  it("a change signs out every other session; the one that made it stays signed in", async () => {
    const { person, userId, cookie: first } = await signUpVerified(shop.app, shop.capture);
    const second = sessionCookie(await signIn(shop.app, person.email, person.password));
    const third = sessionCookie(await signIn(shop.app, person.email, person.password));
    expect(await sessionsOf(userId)).toBe(3);

    // The profile page's way: the service, with the first session's cookie.
    const { session } = await shop.app.services.accounts.changePassword(
      { currentPassword: person.password, newPassword: "a-fresh-calathea-31" },
      callerWith("203.0.113.9", first),
    );
    const kept = session.kind === "issued" ? cookieOf(session) : first;
    expect((await me(kept)).status).toBe(200);
    expect((await me(second)).status).toBe(401);
    expect((await me(third)).status).toBe(401);
    expect(await sessionsOf(userId)).toBe(1);
  });

  it("a change through the JSON endpoint signs out every other session too, whatever the request asks", async () => {
    const { person, userId, cookie: first } = await signUpVerified(shop.app, shop.capture);
    const second = sessionCookie(await signIn(shop.app, person.email, person.password));
    const response = await shop.app.request(
      "/api/auth/change-password",
      postJson({ currentPassword: person.password, newPassword: "a-fresh-calathea-32", revokeOtherSessions: false }, { Cookie: first }),
    );
    expect(response.status).toBe(200);
    expect((await me(second)).status).toBe(401);
    expect(await sessionsOf(userId)).toBe(1);
  });

  it("a reset through the e-mailed link signs out every session", async () => {
    const { person, userId, cookie: first } = await signUpVerified(shop.app, shop.capture);
    const second = sessionCookie(await signIn(shop.app, person.email, person.password));
    expect((await shop.app.request("/api/auth/request-password-reset", postJson({ email: person.email, redirectTo: "/reset-password" }))).status).toBe(200);
    const token = await tokenFromMail(shop.capture, person.email, "/reset-password");
    const response = await shop.app.request("/api/auth/reset-password", postJson({ token, newPassword: "a-fresh-calathea-33" }));
    expect(response.status).toBe(200);
    expect((await me(first)).status).toBe(401);
    expect((await me(second)).status).toBe(401);
    expect(await sessionsOf(userId)).toBe(0);
    expect((await signIn(shop.app, person.email, "a-fresh-calathea-33")).status).toBe(200);
  });
});

describe("passwords", () => {
  it("are hashed with argon2id at OWASP's minimum (m=19 MiB, t=2, p=1)", async () => {
    const { userId, person } = await signUpVerified(shop.app, shop.capture);
    const account = await shop.app.database.db.selectFrom("accounts").select("password").where("userId", "=", userId).executeTakeFirstOrThrow();
    expect(account.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(account.password).not.toContain(person.password);
  });

  it("that are among the most common are refused at sign-up, reset and change", async () => {
    const refusedAsCommon = async (response: Response) => {
      expect(response.status).toBe(400);
      expect((await response.json()).message).toBe(messages.validation.passwordTooCommon);
    };
    const signUp = newPerson({ password: "password123" });
    await refusedAsCommon(await shop.app.request("/api/auth/sign-up/email", postJson(signUp)));
    expect(await shop.app.database.db.selectFrom("users").select("id").where("email", "=", signUp.email).execute()).toEqual([]);
    await expect(shop.app.services.accounts.register(newPerson({ password: "iloveyou1" }), callerWith("1.1.1.1"))).rejects.toMatchObject({
      fieldErrors: { password: messages.validation.passwordTooCommon },
    });

    const { person, cookie } = await signUpVerified(shop.app, shop.capture);
    expect((await shop.app.request("/api/auth/request-password-reset", postJson({ email: person.email, redirectTo: "/reset-password" }))).status).toBe(200);
    const token = await tokenFromMail(shop.capture, person.email, "/reset-password");
    await refusedAsCommon(await shop.app.request("/api/auth/reset-password", postJson({ token, newPassword: "password123" })));
    await refusedAsCommon(
      await shop.app.request("/api/auth/change-password", postJson({ currentPassword: person.password, newPassword: "qwerty123" }, { Cookie: cookie })),
    );

    // Nothing changed: the old password still signs in, and the reset link is still unused.
    expect((await signIn(shop.app, person.email, person.password)).status).toBe(200);
    expect(await shop.app.services.accounts.isResetLinkValid(token)).toBe(true);
  });
});

describe("cross-site requests", () => {
  it("are refused when the Origin is another site's", async () => {
    const response = await shop.app.request("/api/auth/sign-in/email", postJson({ email: "a@b.co", password: "x" }, { Origin: "https://evil.example" }));
    expect(response.status).toBe(403);
  });

  it("give a form posted without JavaScript from another site a page saying why (403), and the API its JSON", async () => {
    const form = (accept: string) => ({
      method: "POST",
      headers: { Origin: "https://evil.example", Accept: accept, "Content-Type": "application/x-www-form-urlencoded" },
      body: "email=a%40b.co&password=x",
    });
    const page = await shop.app.request("/login", form("text/html,application/xhtml+xml,*/*;q=0.8"));
    expect(page.status).toBe(403);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain(`<h1>${messages.refusedRequest[403]}</h1>`);
    expect(html).toContain(messages.crossSiteRefused);
    const api = await shop.app.request("/api/auth/sign-in/email", postJson({ email: "a@b.co", password: "x" }, { Origin: "https://evil.example", Accept: "text/html" }));
    expect(api.status).toBe(403);
    expect((await api.json()).message).toBe(messages.crossSiteRefused);
  });

  it("are refused when they carry cookies but name no Origin", async () => {
    const { cookie } = await signUpVerified(shop.app, shop.capture);
    const response = await shop.app.request("/api/auth/sign-out", { method: "POST", headers: { Cookie: cookie } });
    expect(response.status).toBe(403);
    expect((await me(cookie)).status).toBe(200);
  });

  it("with a body that is not JSON get 415", async () => {
    const response = await shop.app.request("/api/auth/sign-in/email", {
      method: "POST",
      headers: { "Content-Type": "text/plain", Origin: TEST_ORIGIN },
      body: JSON.stringify({ email: "a@b.co", password: "x" }),
    });
    expect(response.status).toBe(415);
  });
});

describe("rate limits", () => {
  it("refuse the 6th failed sign-in for one e-mail from one address within a minute, with a readable message", async () => {
    const { person } = await signUpVerified(shop.app, shop.capture);
    for (let i = 0; i < 5; i++) expect((await signIn(shop.app, person.email, "wrong-password-1")).status).toBe(401);
    const sixth = await signIn(shop.app, person.email, person.password);
    expect(sixth.status).toBe(429);
    expect((await sixth.json()).message).toMatch(/^Too many failed sign-in attempts for this e-mail\. Please try again in 1 minute\.$/);
    expect(Number(sixth.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another e-mail is not affected.
    expect((await signIn(shop.app, "someone.else@example.com", "whatever-1")).status).toBe(401);
  });

  it("hold against wrong passwords sent all at once: five are checked, the rest get 429", async () => {
    const { person } = await signUpVerified(shop.app, shop.capture);
    const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => signIn(shop.app, person.email, `wrong-password-${i}`)));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);
    expect((await signIn(shop.app, person.email, person.password)).status).toBe(429);
  });

  it("do not count a sign-in with the right password as a failure", async () => {
    const { person } = await signUpVerified(shop.app, shop.capture);
    for (let i = 0; i < 4; i++) expect((await signIn(shop.app, person.email, "wrong-password-1")).status).toBe(401);
    expect((await signIn(shop.app, person.email, person.password)).status).toBe(200);
    expect((await signIn(shop.app, person.email, "wrong-password-1")).status).toBe(401);
    expect((await signIn(shop.app, person.email, person.password)).status).toBe(429);
  });

  it("hold for page sign-ins too, since both go through the same rules", async () => {
    const { person } = await signUpVerified(shop.app, shop.capture);
    const request = callerWith("10.1.1.1");
    for (let i = 0; i < 5; i++) {
      await expect(shop.app.services.accounts.signIn({ email: person.email, password: "wrong-password-1" }, request)).rejects.toMatchObject({ status: 400 });
    }
    await expect(shop.app.services.accounts.signIn(person, request)).rejects.toMatchObject({ status: 429 });
  });

  it("limit password reset and verification e-mails per address", async () => {
    const { person } = await signUpVerified(shop.app, shop.capture);
    const reset = () => shop.app.request("/api/auth/request-password-reset", postJson({ email: person.email, redirectTo: "/reset-password" }));
    for (let i = 0; i < 3; i++) expect((await reset()).status).toBe(200);
    expect((await reset()).status).toBe(429);

    const other = newPerson();
    await shop.app.request("/api/auth/sign-up/email", postJson(other));
    const resend = () => shop.app.request("/api/auth/send-verification-email", postJson({ email: other.email }));
    for (let i = 0; i < 3; i++) expect((await resend()).status).toBe(200);
    expect((await resend()).status).toBe(429);
  });

  it("limit the verification e-mails that signing in to an unverified account sends per address, and past the limit the refusal does not say a new link was sent", async () => {
    const person = newPerson();
    await shop.app.request("/api/auth/sign-up/email", postJson(person));
    await tokenFromMail(shop.capture, person.email, "/verify");
    // The outbox row is written within the request, so it can be counted at once; delivery follows later.
    const queuedFor = async () =>
      (await shop.app.database.db.selectFrom("mail_outbox").select("id").where("recipient", "=", person.email).execute()).length;
    const afterSignUp = await queuedFor();
    const newLinkSent: unknown[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await signIn(shop.app, person.email, person.password);
      expect(response.status).toBe(403);
      newLinkSent.push(((await response.json()) as { newLinkSent?: boolean }).newLinkSent);
    }
    const queued = await queuedFor();
    expect(queued - afterSignUp).toBe(3);
    expect(newLinkSent, "past the limit, the refusal says no new link went out").toEqual([undefined, undefined, undefined, false, false]);
    // The limit counts per address: from another one (the page's sign-in here), a new link goes out.
    await expect(shop.app.services.accounts.signIn({ email: person.email, password: person.password }, callerWith("203.0.113.4"))).rejects.toMatchObject({
      status: 403,
      message: messages.auth.emailNotVerified,
    });
    expect(await queuedFor()).toBe(queued + 1);
    await shop.capture.waitFor(() => shop.capture.messages.filter((mail) => mail.to.includes(person.email)).length === queued + 1);
  });

  it("limit new accounts from one address to 20 an hour", async () => {
    for (let i = 0; i < 20; i++) expect((await shop.app.request("/api/auth/sign-up/email", postJson(newPerson()))).status).toBe(200);
    const refused = await shop.app.request("/api/auth/sign-up/email", postJson(newPerson()));
    expect(refused.status).toBe(429);
    expect((await refused.json()).message).toMatch(/Too many new accounts/);
  }, 60_000);

  it("are kept in the database, so every server process shares them", async () => {
    const { person } = await signUpVerified(shop.app, shop.capture);
    for (let i = 0; i < 5; i++) await signIn(shop.app, person.email, "wrong-password-1");
    const row = await shop.app.database.db.selectFrom("rate_limits").select("hits").where("key", "=", `sign-in-failures:${person.email} unknown`).executeTakeFirstOrThrow();
    expect(row.hits).toBe(5);
  });
});

describe("what a request body cannot do", () => {
  it("cannot make anybody an admin or verified at sign-up", async () => {
    const person = newPerson();
    const response = await shop.app.request("/api/auth/sign-up/email", postJson({ ...person, role: "admin", isAdmin: true, emailVerified: true }));
    // The sign-up itself succeeds (the extra fields are dropped, not refused), so the account below is the one it made.
    expect(response.status).toBe(200);
    const user = await shop.app.database.db.selectFrom("users").select(["role", "emailVerified"]).where("email", "=", person.email).executeTakeFirstOrThrow();
    expect(user.role).not.toBe("admin");
    expect(Boolean(user.emailVerified)).toBe(false);
  });

  it("cannot change role, e-mail or verification through a profile update", async () => {
    const { cookie, userId, person } = await signUpVerified(shop.app, shop.capture);
    const response = await shop.app.request(`/api/profiles/${userId}`, {
      method: "PATCH",
      headers: { "Content-Type": "application/json", Origin: TEST_ORIGIN, Cookie: cookie },
      body: JSON.stringify({ name: "Asha K", username: person.username, phone: "+91 98765 43210", address: "12 Garden Road", role: "admin", isAdmin: true, email: "x@evil.example", emailVerified: false }),
    });
    expect(response.status).toBe(200);
    const user = await shop.app.database.db.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ name: "Asha K", email: person.email, phone: "+91 98765 43210" });
    expect(user.role === "admin").toBe(false);
    expect(Boolean(user.emailVerified)).toBe(true);
  });
});

describe("profiles", () => {
  it("show others only the public part, and the owner everything", async () => {
    const asha = await signUpVerified(shop.app, shop.capture);
    const ravi = await signUpVerified(shop.app, shop.capture, newPerson({ name: "Ravi Menon" }));
    const seenByRavi = await (await shop.app.request(`/api/profiles/${asha.userId}`, { headers: { Cookie: ravi.cookie } })).json();
    expect(Object.keys(seenByRavi).sort()).toEqual(["avatarUrl", "id", "isOwner", "location", "name", "username"]);
    const seenByVisitor = await (await shop.app.request(`/api/profiles/${asha.userId}`)).json();
    expect(seenByVisitor).not.toHaveProperty("email");
    const own = await (await shop.app.request(`/api/profiles/${asha.userId}`, { headers: { Cookie: asha.cookie } })).json();
    expect(own).toMatchObject({ email: asha.person.email, isOwner: true });
  });

  it("cannot be changed by anybody but the owner", async () => {
    const asha = await signUpVerified(shop.app, shop.capture);
    const ravi = await signUpVerified(shop.app, shop.capture, newPerson({ name: "Ravi Menon" }));
    const response = await shop.app.request(`/api/profiles/${asha.userId}`, {
      method: "PATCH",
      headers: { "Content-Type": "application/json", Origin: TEST_ORIGIN, Cookie: ravi.cookie },
      body: JSON.stringify({ name: "Hacked", username: "hacked", phone: "12345678", address: "x" }),
    });
    expect(response.status).toBe(404);
    const visitor = await shop.app.request(`/api/profiles/${asha.userId}`, {
      method: "PATCH",
      headers: { "Content-Type": "application/json", Origin: TEST_ORIGIN },
      body: JSON.stringify({ name: "Hacked", username: "hacked", phone: "12345678", address: "x" }),
    });
    expect(visitor.status).toBe(404);
    expect((await shop.app.database.db.selectFrom("users").select("name").where("id", "=", asha.userId).executeTakeFirstOrThrow()).name).toBe("Asha Kulkarni");
  });

  it("answer 'No user data found' for an unknown id", async () => {
    const response = await shop.app.request("/api/profiles/nobody");
    expect(response.status).toBe(404);
    expect((await response.json()).message).toBe("No user data found");
  });
});

describe("admins", () => {
  it("alone read the contact inbox", async () => {
    expect((await shop.app.request("/api/admin/messages")).status).toBe(401);
    const user = await signUpVerified(shop.app, shop.capture);
    expect((await shop.app.request("/api/admin/messages", { headers: { Cookie: user.cookie } })).status).toBe(403);
    await shop.app.services.accounts.setAdmin(user.person.email, true);
    const inbox = await shop.app.request("/api/admin/messages", { headers: { Cookie: user.cookie } });
    expect(inbox.status).toBe(200);
    expect(await inbox.json()).toMatchObject({ items: [] });
  });

  it("made from ADMIN_EMAIL take over an unverified account someone else registered under it: new password, no old sessions, no old profile", async () => {
    const squatter = newPerson({ email: "owner@nursery.example" });
    expect((await shop.app.request("/api/auth/sign-up/email", postJson(squatter))).status).toBe(200);
    const { id: userId } = await shop.app.database.db.selectFrom("users").select("id").where("email", "=", squatter.email).executeTakeFirstOrThrow();
    const at = new Date().toISOString();
    const weekAhead = new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString();
    await shop.app.database.db
      .insertInto("sessions")
      .values({ id: "squatter-session", token: "squatter-token", userId, createdAt: at, updatedAt: at, expiresAt: weekAhead })
      .execute();

    expect(await shop.app.services.accounts.ensureAdmin({ email: squatter.email, password: "green-thumb-2025" })).toBe("promoted");

    expect(await shop.app.database.db.selectFrom("sessions").select("id").where("userId", "=", userId).execute()).toEqual([]);
    expect((await signIn(shop.app, squatter.email, squatter.password)).status).toBe(401);
    const owner = await signIn(shop.app, squatter.email, "green-thumb-2025");
    expect(owner.status).toBe(200);
    expect(await (await me(sessionCookie(owner))).json()).toMatchObject({ id: userId, isAdmin: true, emailVerified: true });
    const profile = await shop.app.database.db.selectFrom("users").select(["name", "username", "displayUsername"]).where("id", "=", userId).executeTakeFirstOrThrow();
    expect(profile.name).toBe("Shop Admin");
    expect(profile.username).not.toBe(squatter.username.toLowerCase());
    expect(profile.displayUsername).toBe(profile.username);
  });

  it("made from ADMIN_EMAIL keep the password of a verified account they promote", async () => {
    const { person } = await signUpVerified(shop.app, shop.capture);
    expect(await shop.app.services.accounts.ensureAdmin({ email: person.email, password: "green-thumb-2025" })).toBe("promoted");
    expect((await signIn(shop.app, person.email, "green-thumb-2025")).status).toBe(401);
    const response = await signIn(shop.app, person.email, person.password);
    expect(await (await me(sessionCookie(response))).json()).toMatchObject({ isAdmin: true });
  });

  it("are made from ADMIN_EMAIL and ADMIN_PASSWORD at start-up, verified and able to log in", async () => {
    const adminApp = await createTestApp({ SMTP_URL: shop.capture.url, ADMIN_EMAIL: "owner@nursery.example", ADMIN_PASSWORD: "green-thumb-2025" });
    try {
      const response = await adminApp.request("/api/auth/sign-in/email", postJson({ email: "owner@nursery.example", password: "green-thumb-2025" }));
      expect(response.status).toBe(200);
      const profile = await (await adminApp.request("/api/me", { headers: { Cookie: sessionCookie(response) } })).json();
      expect(profile).toMatchObject({ isAdmin: true, emailVerified: true });
    } finally {
      await adminApp.cleanup();
    }
  });
});
