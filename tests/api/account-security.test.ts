import type { KyselyPlugin } from "kysely";
import { afterEach, describe, expect, it, vi } from "vitest";
import { messages } from "#common/shared/messages.ts";
import { LAST_USE_STEP_MS, listSecurityEvents, noteSessionUse, recordSecurityEvent } from "../../server/modules/accounts/index.ts";
import type { SessionCaller } from "../../server/platform/session-user.ts";
import { callerWith } from "../support/accounts.ts";
import { useAppWithPages } from "../support/app-with-pages.ts";
import { cookieFrom, insertShoppers, SHOP_AUTH_SECRET } from "../support/shop-process.ts";
import { postJson, TEST_ORIGIN } from "../support/test-app.ts";

// The account's security page and the service behind it: the owner's sessions (ended by id, never by token, and only
// the owner's own) and activity; and when a session was last used, written at most once every few minutes.

const PASSWORD = "monstera-deliciosa-77";
const CHROME_LINUX = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";
const FIREFOX_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0";

const shop = useAppWithPages({ AUTH_SECRET: SHOP_AUTH_SECRET });

afterEach(() => {
  vi.useRealTimers();
});

/** A shopper signed in twice through Better Auth's sign-in, from two browsers: the laptop (Chrome) and the desktop (Firefox). */
async function shopperOnTwoDevices(prefix: string) {
  const [person] = await insertShoppers(shop.app.database.db, 1, { password: PASSWORD, prefix, dialect: shop.app.database.dialect });
  const { email } = await shop.app.database.db.selectFrom("users").select("email").where("id", "=", person!.userId).executeTakeFirstOrThrow();
  const signInFrom = async (userAgent: string) => {
    const response = await shop.app.request("/api/auth/sign-in/email", postJson({ email, password: PASSWORD }, { "User-Agent": userAgent }));
    expect(response.status).toBe(200);
    return cookieFrom(response);
  };
  const laptop = await signInFrom(CHROME_LINUX);
  const desktop = await signInFrom(FIREFOX_WINDOWS);
  return { userId: person!.userId, email, laptop, desktop, inserted: person!.cookie };
}

/**
 * Another shopper, signed in once by a session written into the database: Better Auth's sign-in is limited to 30 a
 * minute from one address, and every request of this file comes from the same one.
 */
async function otherShopper(prefix: string) {
  const [person] = await insertShoppers(shop.app.database.db, 1, { password: PASSWORD, prefix, dialect: shop.app.database.dialect });
  return { userId: person!.userId, cookie: person!.cookie };
}

const sessionsOf = (userId: string) =>
  shop.app.database.db.selectFrom("sessions").select(["id", "token", "userAgent", "lastUsedAt"]).where("userId", "=", userId).execute();

const tokenOf = (cookie: string) => {
  const credential = decodeURIComponent(cookie.slice(cookie.indexOf("=") + 1));
  return credential.slice(0, credential.lastIndexOf("."));
};

async function sessionIdOf(userId: string, cookie: string) {
  const row = (await sessionsOf(userId)).find((session) => session.token === tokenOf(cookie));
  if (!row) throw new Error("no such session");
  return row.id;
}

/** Who the cookie signs in, as the page and API layer see it. */
async function signedInAs(cookie: string): Promise<string | null> {
  const response = await shop.app.request("/api/me", { headers: { Cookie: cookie } });
  return response.status === 200 ? ((await response.json()) as { id: string }).id : null;
}

const caller = (cookie: string, userAgent: string | null = null): SessionCaller => ({ ...callerWith("203.0.113.9", cookie), userAgent });

async function viewer(cookie: string) {
  const { user } = await shop.app.services.accounts.getSession(caller(cookie));
  if (!user) throw new Error("not signed in");
  return user;
}

const openPage = (cookie: string | null, path = "/account/security") =>
  shop.app.request(`${TEST_ORIGIN}${path}`, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" });

const postPage = (cookie: string | null, fields: Record<string, string>) =>
  shop.app.request(`${TEST_ORIGIN}/account/security`, {
    method: "POST",
    headers: { Origin: TEST_ORIGIN, "Content-Type": "application/x-www-form-urlencoded", ...(cookie ? { Cookie: cookie } : {}) },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });

describe("the security page's sessions", () => {
  it("lists every session of the owner and no one else's, with its browser and system in words, and marks the one asking as this device", async () => {
    const asha = await shopperOnTwoDevices("sec-list");
    const ravi = await otherShopper("sec-list-other");
    const { sessions } = await shop.app.services.accounts.securityOverview(await viewer(asha.laptop), caller(asha.laptop));
    expect(sessions).toHaveLength(3);
    const ravisIds = (await sessionsOf(ravi.userId)).map((session) => session.id);
    expect(sessions.filter((session) => ravisIds.includes(session.id))).toEqual([]);
    expect(sessions[0]).toMatchObject({ device: "Chrome 130 on Linux", current: true, id: await sessionIdOf(asha.userId, asha.laptop) });
    const desktop = sessions.find((s) => s.device === "Firefox 128 on Windows 10");
    expect(desktop).toMatchObject({ current: false, id: await sessionIdOf(asha.userId, asha.desktop) });
    // The session written without a User-Agent.
    expect(sessions.filter((s) => s.device === "Unknown browser")).toHaveLength(1);
  });

  it("never puts a session's token in the page or its data, only the sessions' ids, and answers private, no-store", async () => {
    const asha = await shopperOnTwoDevices("sec-tokens");
    const tokens = (await sessionsOf(asha.userId)).map((session) => session.token);
    for (const path of ["/account/security", "/account/security.data"]) {
      const response = await openPage(asha.laptop, path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("cache-control"), path).toBe("private, no-store");
      const body = await response.text();
      for (const token of tokens) expect(body, path).not.toContain(token);
      expect(body, path).toContain(await sessionIdOf(asha.userId, asha.desktop));
    }
  });

  it("sends a visitor to log in and back to the page, and refuses every operation to a visitor", async () => {
    const response = await openPage(null);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/login?redirectTo=%2Faccount%2Fsecurity");
    const posted = await postPage(null, { intent: "end-others" });
    expect(posted.status).toBe(302);
    expect(posted.headers.get("location")).toBe("/login?redirectTo=%2Faccount%2Fsecurity");
    const visitor = callerWith("203.0.113.9");
    await expect(shop.app.services.accounts.securityOverview(null, visitor)).rejects.toMatchObject({ status: 401 });
    await expect(shop.app.services.accounts.endSession(null, visitor, { sessionId: "anything" })).rejects.toMatchObject({ status: 401 });
    await expect(shop.app.services.accounts.endOtherSessions(null, visitor)).rejects.toMatchObject({ status: 401 });
  });

  it("ends another session of the owner by its id: that device is signed out and the activity list names it", async () => {
    const asha = await shopperOnTwoDevices("sec-end");
    const response = await postPage(asha.laptop, { sessionId: await sessionIdOf(asha.userId, asha.desktop) });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(messages.security.sessionEnded("Firefox 128 on Windows 10"));
    expect(await signedInAs(asha.desktop)).toBeNull();
    expect(await signedInAs(asha.laptop)).toBe(asha.userId);
    const [newest] = await listSecurityEvents(shop.app.database.db, asha.userId);
    expect(newest).toMatchObject({ kind: "session-ended", method: "Firefox 128 on Windows 10" });

    // Who ended it: the address and browser of the request, as the service is given them.
    const inserted = await sessionIdOf(asha.userId, asha.inserted);
    expect(await shop.app.services.accounts.endSession(await viewer(asha.laptop), caller(asha.laptop, CHROME_LINUX), { sessionId: inserted })).toEqual({
      device: "Unknown browser",
    });
    expect((await listSecurityEvents(shop.app.database.db, asha.userId))[0]).toMatchObject({
      kind: "session-ended",
      method: "Unknown browser",
      ip: "203.0.113.9",
      userAgent: CHROME_LINUX,
    });
    expect(await signedInAs(asha.inserted)).toBeNull();
  });

  it("refuses to end another account's session by its id, and that session stays signed in", async () => {
    const asha = await shopperOnTwoDevices("sec-mine");
    const ravi = await otherShopper("sec-other");
    const ravisSession = await sessionIdOf(ravi.userId, ravi.cookie);
    const response = await postPage(asha.laptop, { sessionId: ravisSession });
    expect(response.status).toBe(404);
    expect(await response.text()).toContain(messages.security.sessionUnknown);
    await expect(shop.app.services.accounts.endSession(await viewer(asha.laptop), caller(asha.laptop), { sessionId: ravisSession })).rejects.toMatchObject({
      status: 404,
      message: messages.security.sessionUnknown,
    });
    expect(await signedInAs(ravi.cookie)).toBe(ravi.userId);
    expect((await listSecurityEvents(shop.app.database.db, ravi.userId)).map((event) => event.kind)).not.toContain("session-ended");
  });

  it("answers a made-up id, a missing one and this device's own with a clear refusal, ending nothing", async () => {
    const asha = await shopperOnTwoDevices("sec-bad");
    const before = (await sessionsOf(asha.userId)).map((session) => session.id).sort();
    const cases: [Record<string, string>, number, string][] = [
      [{ sessionId: "made-up-session-id" }, 404, messages.security.sessionUnknown],
      [{ sessionId: "x".repeat(5000) }, 400, messages.security.sessionUnknown],
      [{}, 400, messages.security.sessionIdRequired],
      [{ sessionId: await sessionIdOf(asha.userId, asha.laptop) }, 400, messages.security.sessionIsThisDevice],
    ];
    for (const [fields, status, message] of cases) {
      const response = await postPage(asha.laptop, fields);
      expect(response.status, JSON.stringify(fields).slice(0, 40)).toBe(status);
      expect(await response.text()).toContain(message);
    }
    expect((await sessionsOf(asha.userId)).map((session) => session.id).sort()).toEqual(before);
  });

  it("ends all the owner's other sessions and no one else's, recording each with its device", async () => {
    const asha = await shopperOnTwoDevices("sec-all");
    const ravi = await otherShopper("sec-all-other");
    const response = await postPage(asha.laptop, { intent: "end-others" });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(messages.security.otherSessionsEnded(2));
    expect(await signedInAs(asha.laptop)).toBe(asha.userId);
    expect(await signedInAs(asha.desktop)).toBeNull();
    expect(await signedInAs(asha.inserted)).toBeNull();
    expect(await signedInAs(ravi.cookie)).toBe(ravi.userId);
    const ended = (await listSecurityEvents(shop.app.database.db, asha.userId)).filter((event) => event.kind === "session-ended");
    expect(ended.map((event) => event.method).sort()).toEqual(["Firefox 128 on Windows 10", "Unknown browser"]);
  });

  it("closes Better Auth's own session list and ending endpoints, which answer with or take sessions' tokens", async () => {
    const asha = await shopperOnTwoDevices("sec-closed");
    expect((await shop.app.request("/api/auth/list-sessions", { headers: { Cookie: asha.laptop } })).status).toBe(404);
    const token = tokenOf(asha.desktop);
    for (const path of ["/api/auth/revoke-session", "/api/auth/revoke-other-sessions", "/api/auth/revoke-sessions"]) {
      expect((await shop.app.request(path, postJson({ token }, { Cookie: asha.laptop }))).status, path).toBe(404);
    }
    expect(await signedInAs(asha.desktop)).toBe(asha.userId);
  });
});

describe("the security page's activity list", () => {
  it("shows the owner's sign-ins and failed sign-ins with the device in words, and only the owner's", async () => {
    const asha = await shopperOnTwoDevices("sec-activity");
    const ravi = await otherShopper("sec-activity-other");
    await recordSecurityEvent(shop.app.database.db, { userId: ravi.userId, kind: "provider-linked", method: "Google", ip: null, userAgent: null });
    expect((await shop.app.request("/api/auth/sign-in/email", postJson({ email: asha.email, password: "not-the-password-1" }, { "User-Agent": FIREFOX_WINDOWS }))).status).toBe(401);
    const { activity } = await shop.app.services.accounts.securityOverview(await viewer(asha.laptop), caller(asha.laptop));
    expect(activity.map((event) => [event.kind, event.method, event.device])).toEqual([
      ["sign-in-failed", "password", "Firefox 128 on Windows 10"],
      ["signed-in", "password", "Firefox 128 on Windows 10"],
      ["signed-in", "password", "Chrome 130 on Linux"],
    ]);
    expect(JSON.stringify(activity)).not.toContain("Mozilla/5.0");
  });
});

describe("a session's last use", () => {
  it("is written on the first signed-in request, then not again until 5 minutes have passed", async () => {
    const asha = await shopperOnTwoDevices("sec-last-use");
    const lastUseOf = async () => (await sessionsOf(asha.userId)).find((session) => session.token === tokenOf(asha.inserted))!.lastUsedAt;
    expect(await lastUseOf()).toBeNull();
    const start = Date.now();
    vi.useFakeTimers({ toFake: ["Date"], now: start });
    expect(await signedInAs(asha.inserted)).toBe(asha.userId);
    expect(new Date((await lastUseOf())!).getTime()).toBe(start);

    vi.setSystemTime(start + LAST_USE_STEP_MS - 1000);
    expect(await signedInAs(asha.inserted)).toBe(asha.userId);
    expect(new Date((await lastUseOf())!).getTime()).toBe(start);

    vi.setSystemTime(start + LAST_USE_STEP_MS + 1000);
    expect(await signedInAs(asha.inserted)).toBe(asha.userId);
    expect(new Date((await lastUseOf())!).getTime()).toBe(start + LAST_USE_STEP_MS + 1000);
  });

  it("costs no statement while the noted use is recent, one conditional UPDATE when due, and changes nothing when another process wrote first", async () => {
    const asha = await shopperOnTwoDevices("sec-last-use-cost");
    let statements = 0;
    const counting: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        statements++;
        return args.result;
      },
    };
    const db = shop.app.database.db.withPlugin(counting);
    const id = await sessionIdOf(asha.userId, asha.inserted);
    const start = Date.now();
    await noteSessionUse(db, { id, lastUsedAt: null }, start);
    expect(statements).toBe(1);
    await noteSessionUse(db, { id, lastUsedAt: new Date(start).toISOString() }, start + LAST_USE_STEP_MS - 1000);
    expect(statements).toBe(1);
    // Read before the write above: the UPDATE runs, and its condition leaves the newer use alone.
    await noteSessionUse(db, { id, lastUsedAt: null }, start + 1000);
    expect(statements).toBe(2);
    const row = await db.selectFrom("sessions").select("lastUsedAt").where("id", "=", id).executeTakeFirstOrThrow();
    expect(new Date(row.lastUsedAt!).getTime()).toBe(start);
  });

  it("is shown on the page as within the last 5 minutes when recent, and as a time when older", async () => {
    const asha = await shopperOnTwoDevices("sec-last-use-page");
    const long = new Date(Date.now() - 60 * 60_000).toISOString();
    await shop.app.database.db.updateTable("sessions").set({ lastUsedAt: long }).where("token", "=", tokenOf(asha.desktop)).execute();
    const { sessions } = await shop.app.services.accounts.securityOverview(await viewer(asha.laptop), caller(asha.laptop));
    expect(sessions.find((s) => s.current)).toMatchObject({ usedRecently: true });
    expect(sessions.find((s) => s.device.startsWith("Firefox"))).toMatchObject({ usedRecently: false, lastUsedAt: long });
    const html = await (await openPage(asha.laptop)).text();
    expect(html).toContain(messages.security.usedRecently(5));
    expect(html).toContain(`dateTime="${long}"`);
  });
});
