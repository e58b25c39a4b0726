import { describe, expect, it } from "vitest";
import { listSecurityEvents, recordSecurityEvent } from "../../server/modules/accounts/index.ts";
import { callerWith, signIn, signUpVerified, tokenFromMail } from "../support/accounts.ts";
import { useAppWithMail } from "../support/app-with-mail.ts";
import { postJson } from "../support/test-app.ts";

const shop = useAppWithMail();
const browser = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";

const eventsOf = (userId: string) => listSecurityEvents(shop.app.database.db, userId);

describe("the account's activity list", () => {
  it("records a password sign-in with how, the browser's User-Agent, and the address the server saw", async () => {
    const { person, userId } = await signUpVerified(shop.app, shop.capture);
    await shop.app.services.accounts.signIn({ email: person.email, password: person.password }, { ...callerWith("203.0.113.7"), userAgent: browser });
    const [newest] = await eventsOf(userId);
    expect(newest).toMatchObject({ kind: "signed-in", method: "password", ip: "203.0.113.7", userAgent: browser });
  });

  it("records a wrong password against the account it was tried on, and nothing for an address with no account", async () => {
    const { person, userId } = await signUpVerified(shop.app, shop.capture);
    const before = await shop.app.database.db.selectFrom("security_events").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    expect((await signIn(shop.app, person.email, "not-the-password-1")).status).toBe(401);
    expect((await signIn(shop.app, `nobody.${userId}@example.com`, "not-the-password-1")).status).toBe(401);
    const after = await shop.app.database.db.selectFrom("security_events").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    expect(Number(after.n) - Number(before.n)).toBe(1);
    expect((await eventsOf(userId))[0]).toMatchObject({ kind: "sign-in-failed", method: "password" });
  });

  it("records a changed password and a reset one, and no sign-in for a password change", async () => {
    const { person, userId, cookie } = await signUpVerified(shop.app, shop.capture);
    await shop.app.services.accounts.changePassword({ currentPassword: person.password, newPassword: "a-fresh-calathea-41" }, callerWith("198.51.100.4", cookie));
    expect((await eventsOf(userId))[0]).toMatchObject({ kind: "password-changed" });

    expect((await shop.app.request("/api/auth/request-password-reset", postJson({ email: person.email, redirectTo: "/reset-password" }))).status).toBe(200);
    const token = await tokenFromMail(shop.capture, person.email, "/reset-password");
    await shop.app.services.accounts.resetPassword({ token, password: "a-fresh-calathea-42" }, callerWith("198.51.100.5"));
    const events = await eventsOf(userId);
    expect(events.map((event) => event.kind).slice(0, 2)).toEqual(["password-reset", "password-changed"]);
    expect(events[0]!.ip).toBe("198.51.100.5");
  });

  it("keeps only the newest 100 events of an account, and lists the newest 50, newest first", async () => {
    const { userId } = await signUpVerified(shop.app, shop.capture);
    // Later than the sign-up's own events, so these 105 are the newest.
    const start = Date.now() + 60_000;
    for (let i = 0; i < 105; i++) {
      await recordSecurityEvent(shop.app.database.db, { userId, kind: "session-ended", method: `#${i}`, ip: null, userAgent: null }, new Date(start + i * 1000));
    }
    const kept = await shop.app.database.db.selectFrom("security_events").select("method").where("user_id", "=", userId).execute();
    expect(kept).toHaveLength(100);
    expect(kept.map((row) => row.method)).not.toContain("#4");
    const listed = await eventsOf(userId);
    expect(listed).toHaveLength(50);
    expect(listed[0]!.method).toBe("#104");
    expect(listed[49]!.method).toBe("#55");
  });
});
