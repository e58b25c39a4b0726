import { describe, expect, it } from "vitest";
import { messages } from "../../common/shared/messages.ts";
import { useAppWithPages } from "../support/app-with-pages.ts";
import { hashPassword } from "../../server/modules/accounts/index.ts";
import { callerWith } from "../support/accounts.ts";
import { extractLinks } from "../support/smtp-capture.ts";
import { insertShoppers, SHOP_AUTH_SECRET } from "../support/shop-process.ts";
import { TEST_ORIGIN } from "../support/test-app.ts";

// The pages that change the e-mail address and delete the account act for the signed-in person on their own
// account only: a visitor is sent to log in, and nobody's password or link works on another's account.

const shop = useAppWithPages({ AUTH_SECRET: SHOP_AUTH_SECRET });
const ac = messages.accountChanges;
const PASSWORD = "monstera-deliciosa-77";

async function twoShoppers() {
  const [asha, ravi] = await insertShoppers(shop.app.database.db, 2, { password: PASSWORD, prefix: "changes", dialect: shop.app.database.dialect });
  const emailOf = async (id: string) => (await shop.app.database.db.selectFrom("users").select("email").where("id", "=", id).executeTakeFirstOrThrow()).email;
  return { asha: { ...asha!, email: await emailOf(asha!.userId) }, ravi: { ...ravi!, email: await emailOf(ravi!.userId) } };
}

const post = (path: string, fields: Record<string, string>, cookie?: string) =>
  shop.app.request(`${TEST_ORIGIN}${path}`, {
    method: "POST",
    headers: { Origin: TEST_ORIGIN, "Content-Type": "application/x-www-form-urlencoded", ...(cookie ? { Cookie: cookie } : {}) },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });

const accountExists = async (userId: string) => Boolean(await shop.app.database.db.selectFrom("users").select("id").where("id", "=", userId).executeTakeFirst());
const linksQueued = async () => (await shop.app.database.db.selectFrom("mail_outbox").select("id").where("kind", "=", "email-change-link").execute()).length;

describe("the account change pages", () => {
  it("send a visitor to log in, and a visitor's POST to them changes nothing", async () => {
    const { asha } = await twoShoppers();
    for (const path of ["/account/email", "/account/delete"]) {
      const page = await shop.app.request(`${TEST_ORIGIN}${path}`, { redirect: "manual" });
      expect(page.status).toBe(302);
      expect(page.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
    }
    const links = await linksQueued();
    expect((await post("/account/email", { newEmail: "visitor@example.com", password: PASSWORD })).headers.get("location")).toMatch(/^\/login\?/);
    expect((await post("/account/delete", { password: PASSWORD })).headers.get("location")).toMatch(/^\/login\?/);
    expect(await linksQueued()).toBe(links);
    expect(await accountExists(asha.userId)).toBe(true);
  });

  it("act on the signed-in person's own account only: another's password proves nothing", async () => {
    const { asha, ravi } = await twoShoppers();
    // Ravi's own password is another one: Asha's, typed in Ravi's session, must not work.
    await shop.app.database.db.updateTable("accounts").set({ password: await hashPassword("ravis-own-pothos-58") }).where("userId", "=", ravi.userId).execute();
    const links = await linksQueued();
    const refused = await post("/account/delete", { password: PASSWORD }, ravi.cookie);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(ac.passwordWrong);
    expect(await post("/account/email", { newEmail: "taken.over@example.com", password: PASSWORD }, ravi.cookie).then((r) => r.status)).toBe(400);
    expect(await accountExists(asha.userId)).toBe(true);
    expect(await accountExists(ravi.userId)).toBe(true);
    expect(await linksQueued()).toBe(links);
  });

  it("refuse one person's confirmation link in a browser signed in to another account", async () => {
    const { asha, ravi } = await twoShoppers();
    const caller = callerWith("203.0.113.42", asha.cookie);
    const { user } = await shop.app.services.accounts.getSession(caller);
    const newEmail = `asha.moved.${Date.now()}@example.com`;
    await shop.app.services.accounts.requestEmailChange(user, { newEmail, password: PASSWORD }, caller);
    const mail = await shop.app.database.db.selectFrom("mail_outbox").select("text_body").where("recipient", "=", newEmail).executeTakeFirstOrThrow();
    const link = extractLinks(shop.app.infrastructure.outbox.openBody(mail.text_body)).find((l) => new URL(l).pathname === "/account/email/confirm");
    const token = new URL(link!).searchParams.get("token")!;
    const refused = await post("/account/email/confirm", { token }, ravi.cookie);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain(ac.emailLinkOtherAccount);
    expect(await shop.app.database.db.selectFrom("users").select("email").where("id", "=", asha.userId).executeTakeFirstOrThrow()).toEqual({ email: asha.email });
  });

  it("delete the account, end the session and land on the home page", async () => {
    const { asha } = await twoShoppers();
    const deleted = await post("/account/delete", { password: PASSWORD }, asha.cookie);
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get("location")).toBe("/");
    expect(deleted.headers.getSetCookie().some((c) => /session_token=;|session_token=.*Max-Age=0/i.test(c))).toBe(true);
    expect(await accountExists(asha.userId)).toBe(false);
  });
});
