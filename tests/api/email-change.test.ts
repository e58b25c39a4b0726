import { describe, expect, it } from "vitest";
import { messages } from "../../common/shared/messages.ts";
import { callerWith, sessionCookie, signIn, signUpVerified } from "../support/accounts.ts";
import { useAppWithMail } from "../support/app-with-mail.ts";
import { extractLinks } from "../support/smtp-capture.ts";

// Changing the e-mail address (decision 040): asked for with the password, made by the link mailed to the new
// address; the answer never tells whether another account has the address.

const shop = useAppWithMail();
const ac = messages.accountChanges;
const IP = "203.0.113.41";

async function signedIn(cookie: string) {
  const caller = callerWith(IP, cookie);
  const { user } = await shop.app.services.accounts.getSession(caller);
  if (!user) throw new Error("not signed in");
  return { caller, user };
}

const queuedTo = async (email: string) =>
  (await shop.app.database.db.selectFrom("mail_outbox").select(["kind", "recipient"]).where("recipient", "=", email).execute()).map((m) => m.kind);

async function changeLinkTo(email: string) {
  const mail = await shop.capture.waitFor((m) => m.to.includes(email) && m.text.includes("/account/email/confirm?"));
  const link = extractLinks(mail.text).find((l) => new URL(l).pathname === "/account/email/confirm");
  const token = link && new URL(link).searchParams.get("token");
  if (!token) throw new Error(`no confirmation link in the mail to ${email}`);
  return token;
}

describe("changing the e-mail address", () => {
  it("answers the same for a free and a taken address; only the free one gets a link, and the taken one's holder a notice", async () => {
    const asha = await signUpVerified(shop.app, shop.capture);
    const ravi = await signUpVerified(shop.app, shop.capture);
    const { caller, user } = await signedIn(asha.cookie);
    const free = `new.${Date.now()}@example.com`;

    const toFree = await shop.app.services.accounts.requestEmailChange(user, { newEmail: free, password: asha.person.password }, caller);
    const toTaken = await shop.app.services.accounts.requestEmailChange(user, { newEmail: ravi.person.email.toUpperCase(), password: asha.person.password }, caller);

    expect(toFree).toEqual({ sentTo: free });
    expect(toTaken).toEqual({ sentTo: ravi.person.email });
    expect(await queuedTo(free)).toEqual(["email-change-link"]);
    expect(await queuedTo(ravi.person.email)).not.toContain("email-change-link");
    expect(await queuedTo(ravi.person.email)).toContain("email-taken");
    const notice = await shop.capture.waitFor((m) => m.to.includes(ravi.person.email) && m.subject.includes("use your e-mail address"));
    expect(notice.text).toContain("nothing changed");
    expect(notice.text).not.toContain(asha.person.email);
    // Ravi's account is untouched.
    expect((await signIn(shop.app, ravi.person.email, ravi.person.password)).status).toBe(200);
  });

  it("keeps the old address, which still signs in, until the link is opened; then the new one signs in, other sessions end and the old address is told", async () => {
    const { db } = shop.app.database;
    const { person, cookie, userId } = await signUpVerified(shop.app, shop.capture);
    const { caller, user } = await signedIn(cookie);
    const elsewhere = sessionCookie(await signIn(shop.app, person.email, person.password));
    const newEmail = `moved.${Date.now()}@example.com`;
    await shop.app.services.accounts.requestEmailChange(user, { newEmail, password: person.password }, caller);
    const token = await changeLinkTo(newEmail);

    expect((await signIn(shop.app, person.email, person.password)).status).toBe(200);
    expect((await signIn(shop.app, newEmail, person.password)).status).toBe(401);
    expect(await shop.app.services.accounts.readEmailChangeLink({ token })).toEqual({ newEmail });

    expect(await shop.app.services.accounts.confirmEmailChange(user, { token }, caller)).toEqual({ email: newEmail });

    expect((await signIn(shop.app, newEmail, person.password)).status).toBe(200);
    expect((await signIn(shop.app, person.email, person.password)).status).toBe(401);
    expect((await shop.app.services.accounts.getSession(caller)).user).toMatchObject({ id: userId, email: newEmail, emailVerified: true });
    expect((await shop.app.services.accounts.getSession(callerWith(IP, elsewhere))).user).toBeNull();
    const events = await db.selectFrom("security_events").select("kind").where("user_id", "=", userId).execute();
    expect(events.map((e) => e.kind)).toContain("email-changed");
    const told = await shop.capture.waitFor((m) => m.to.includes(person.email) && m.subject.includes("was changed"));
    expect(told.text).toContain(newEmail);
    // Used once: the account no longer has the address the link was made for.
    expect(await shop.app.services.accounts.readEmailChangeLink({ token })).toBeNull();
    await expect(shop.app.services.accounts.confirmEmailChange(null, { token }, callerWith(IP))).rejects.toMatchObject({ status: 400, message: ac.emailLinkInvalid });
  });

  it("ends every session when the link is opened in a browser not signed in", async () => {
    const { person, cookie, userId } = await signUpVerified(shop.app, shop.capture);
    const { caller, user } = await signedIn(cookie);
    const newEmail = `elsewhere.${Date.now()}@example.com`;
    await shop.app.services.accounts.requestEmailChange(user, { newEmail, password: person.password }, caller);
    await shop.app.services.accounts.confirmEmailChange(null, { token: await changeLinkTo(newEmail) }, callerWith(IP));
    expect(await shop.app.database.db.selectFrom("sessions").select("id").where("userId", "=", userId).execute()).toHaveLength(0);
  });

  it("sends nothing on a wrong password, and refuses the link in a browser signed in to another account", async () => {
    const asha = await signUpVerified(shop.app, shop.capture);
    const ravi = await signUpVerified(shop.app, shop.capture);
    const { caller, user } = await signedIn(asha.cookie);
    const newEmail = `wrong.${Date.now()}@example.com`;
    await expect(
      shop.app.services.accounts.requestEmailChange(user, { newEmail, password: `${asha.person.password}x` }, caller),
    ).rejects.toMatchObject({ status: 400, fieldErrors: { password: ac.passwordWrong } });
    expect(await queuedTo(newEmail)).toEqual([]);
    await expect(shop.app.services.accounts.requestEmailChange(user, { newEmail: asha.person.email, password: asha.person.password }, caller)).rejects.toMatchObject({
      fieldErrors: { newEmail: ac.sameEmail },
    });

    await shop.app.services.accounts.requestEmailChange(user, { newEmail, password: asha.person.password }, caller);
    const token = await changeLinkTo(newEmail);
    const other = await signedIn(ravi.cookie);
    await expect(shop.app.services.accounts.confirmEmailChange(other.user, { token }, other.caller)).rejects.toMatchObject({ status: 403, message: ac.emailLinkOtherAccount });
    expect((await signIn(shop.app, asha.person.email, asha.person.password)).status).toBe(200);
  });
});
