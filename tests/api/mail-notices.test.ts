import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { callerWith, newPerson, sessionCookie, signIn, signUpVerified, tokenFromMail } from "../support/accounts.ts";
import { useAppWithMail } from "../support/app-with-mail.ts";
import { captureLogs } from "../support/log-capture.ts";
import { extractLinks } from "../support/smtp-capture.ts";
import { createTestApp, postJson } from "../support/test-app.ts";

const shop = useAppWithMail();
const CHANGED = "Your Plant Shop password was changed";

const changedNotices = (email: string) => shop.capture.messages.filter((mail) => mail.to.includes(email) && mail.subject === CHANGED);
const queuedNotices = async (userId: string) =>
  (await shop.app.database.db.selectFrom("mail_outbox").select("id").where("kind", "=", "password-changed").where("reference", "=", userId).execute()).length;

describe("the 'your password was changed' notice", () => {
  it("is sent when the signed-in person changes their password, and not when the current password is wrong", async () => {
    const { person, cookie, userId } = await signUpVerified(shop.app, shop.capture);
    const change = (currentPassword: string) =>
      shop.app.services.accounts.changePassword(
        { currentPassword, newPassword: "fiddle-leaf-fig-42" },
        callerWith("10.0.0.7", cookie),
      );

    await expect(change("not-my-password-1")).rejects.toMatchObject({ status: 400 });
    expect(await queuedNotices(userId)).toBe(0);

    await change(person.password);
    const notice = await shop.capture.waitFor((mail) => mail.to.includes(person.email) && mail.subject === CHANGED);
    expect(notice.text).toContain(`Hello ${person.name},`);
    expect(notice.text).toContain("Forgot password?");
    expect(changedNotices(person.email)).toHaveLength(1);
    expect(await queuedNotices(userId)).toBe(1);
  });

  it("is sent when a reset link sets a new password", async () => {
    const { person, userId } = await signUpVerified(shop.app, shop.capture);
    expect((await shop.app.request("/api/auth/request-password-reset", postJson({ email: person.email, redirectTo: "/reset-password" }))).status).toBe(200);
    const token = await tokenFromMail(shop.capture, person.email, "/reset-password");
    const reset = await shop.app.request("/api/auth/reset-password", postJson({ token, newPassword: "string-of-pearls-9" }));
    expect(reset.status).toBe(200);

    await shop.capture.waitFor((mail) => mail.to.includes(person.email) && mail.subject === CHANGED);
    expect(changedNotices(person.email)).toHaveLength(1);
    expect(await queuedNotices(userId)).toBe(1);
    expect((await signIn(shop.app, person.email, "string-of-pearls-9")).status).toBe(200);
  });
});

describe("the Contact Us copy", () => {
  it("goes to CONTACT_EMAIL through the outbox, stored with the message, with a reply link to the sender", async () => {
    const app = await createTestApp({ SMTP_URL: shop.capture.url, CONTACT_EMAIL: "owner@nursery.example" });
    try {
      const response = await app.request("/api/contact", postJson({ name: "Ravi", email: "ravi@example.com", subject: "Deliveries", message: "Do you deliver to Pune?" }));
      expect(response.status).toBe(201);
      const { id } = await response.json();
      const copy = await shop.capture.waitFor((mail) => mail.to.includes("owner@nursery.example"));
      expect(copy.subject).toBe("Contact form: Deliveries");
      expect(copy.text).toContain("Do you deliver to Pune?");
      expect(copy.html).toContain("mailto:ravi@example.com");
      expect(await app.database.db.selectFrom("mail_outbox").select(["kind", "reference"]).execute()).toEqual([{ kind: "contact-message", reference: id }]);
    } finally {
      await app.cleanup();
    }
  }, 20_000); // builds a second app (a migrated database) inside the test
});

describe("without SMTP_URL", () => {
  it("writes each e-mail to the outbox folder and logs the file's name, never the link or its token", async () => {
    const logs = captureLogs();
    const app = await createTestApp({}, undefined, logs.logger);
    try {
      const person = newPerson();
      expect((await app.request("/api/auth/sign-up/email", postJson(person))).status).toBe(200);
      const written = await logs.waitFor((line) => line.msg === "e-mail written to the outbox folder" && line.kind === "verification");
      expect(written).toMatchObject({ level: 30, mailId: expect.any(String), file: expect.stringMatching(/\.eml$/) });

      const eml = await readFile(String(written.file), "utf8");
      // The file is quoted-printable: join its soft line breaks before looking for the link.
      const link = extractLinks(eml.replace(/=\r?\n/g, "").replace(/=3D/g, "=")).find((l) => new URL(l).pathname === "/verify");
      const token = link && new URL(link).searchParams.get("token");
      expect(token).toBeTruthy();
      const logged = JSON.stringify(logs.lines);
      expect(logged).not.toContain(token!);
      expect(logged).not.toContain("/verify?");

      // And the link in the file works.
      const verified = await app.request("/api/verification", postJson({ token, password: person.password }));
      expect(sessionCookie(verified)).toMatch(/session_token=/);
    } finally {
      await app.cleanup();
    }
  }, 20_000); // builds an app of its own (a migrated database) inside the test
});
