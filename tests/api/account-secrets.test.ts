import { messages } from "../../common/shared/messages.ts";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sql, type Kysely } from "kysely";
import { pino } from "pino";
import { composeShop } from "../../server/compose.ts";
import { ConfigError, loadConfig } from "../../server/config.ts";
import { accountsMigrations } from "../../server/modules/accounts/index.ts";
import { callerWith, newPerson, signIn, signUpVerified, tokenFromMail } from "../support/accounts.ts";
import { extractLinks, startSmtpCapture, type SmtpCapture } from "../support/smtp-capture.ts";
import { createTestApp, postJson, TEST_ORIGIN, type TestApp } from "../support/test-app.ts";

// Secrets: tokens neither stored in clear nor logged, and sign-up saying nothing about who has an
// account (decision 015).

let capture: SmtpCapture;
let app: TestApp;
/** Every line the server logged, at every level, as written. */
let logLines: string[];

beforeAll(async () => {
  capture = await startSmtpCapture();
});
afterAll(async () => {
  await capture.close();
});
beforeEach(async () => {
  logLines = [];
  const logger = pino({ level: "trace" }, { write: (line: string) => void logLines.push(line) });
  app = await createTestApp({ SMTP_URL: capture.url }, undefined, logger);
});
afterEach(async () => {
  await app.cleanup();
});

const pageRequest = (clientIp: string) => callerWith(clientIp);

/** Every value in every table of the shop's database, as one text per row. */
async function everyStoredValue(): Promise<string[]> {
  const { db, dialect } = app.database;
  // This schema's tables only (Kysely's introspection would read every test file's schema on PostgreSQL).
  const tables = await (dialect === "postgres"
    ? sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema()`
    : sql<{ name: string }>`select name from sqlite_master where type = 'table'`
  ).execute(db);
  expect(tables.rows.map((table) => table.name)).toContain("verifications");
  const rows: string[] = [];
  for (const { name } of tables.rows) {
    const found = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db);
    for (const row of found.rows) rows.push(`${name}: ${Object.values(row).map(String).join(" | ")}`);
  }
  return rows;
}

async function requestReset(email: string): Promise<string> {
  const response = await app.request("/api/auth/request-password-reset", postJson({ email, redirectTo: "/reset-password" }));
  expect(response.status).toBe(200);
  return tokenFromMail(capture, email, "/reset-password");
}

describe("a password reset token", () => {
  it("is nowhere in the database, and the link in the e-mail still resets the password", async () => {
    const { person } = await signUpVerified(app, capture);
    const token = await requestReset(person.email);

    const stored = await everyStoredValue();
    expect(stored.some((row) => row.startsWith("verifications: ")), "the reset request wrote its row").toBe(true);
    expect(stored.filter((row) => row.includes(token))).toEqual([]);

    expect(await app.services.accounts.isResetLinkValid(token)).toBe(true);
    await app.services.accounts.resetPassword({ token, password: "new-leaf-after-reset-9" }, pageRequest("203.0.113.9"));
    expect((await signIn(app, person.email, "new-leaf-after-reset-9")).status).toBe(200);
  });

  it("stored in clear by an older version stops working at the upgrade (migration 0005-hashed-tokens)", async () => {
    const { userId } = await signUpVerified(app, capture);
    const token = "OldRawToken0123456789abc";
    const now = new Date();
    // Better Auth's table, which the shop's own code never reads (so it is not in its schema type).
    await (app.database.db as unknown as Kysely<{ verifications: Record<string, string> }>)
      .insertInto("verifications")
      .values({
        id: crypto.randomUUID(),
        identifier: `reset-password:${token}`,
        value: userId,
        expiresAt: new Date(now.getTime() + 30 * 60_000).toISOString(),
        createdAt: now.toISOString(),
        updatedAt: now.toISOString(),
      })
      .execute();
    // Better Auth falls back to the identifier in clear, so such a row would go on working...
    expect(await app.services.accounts.isResetLinkValid(token)).toBe(true);

    const hashedTokens = accountsMigrations.find((part) => part.name === "0005-hashed-tokens")!;
    await hashedTokens.migration({ dialect: app.database.dialect, timestamp: sql.raw("") }).up(app.database.db as unknown as Kysely<unknown>);
    expect(await app.services.accounts.isResetLinkValid(token)).toBe(false);
  });
});

describe("the server log", () => {
  it("never holds a verification or reset token, nor the links that carry them", async () => {
    // Sign-up, a resent verification link, verification, a reset link checked and used, the token-in-path
    // check of Better Auth's own endpoint, and a sign-up with a taken address: every token of them.
    const person = newPerson();
    expect((await app.request("/api/auth/sign-up/email", postJson(person))).status).toBe(200);
    const first = await tokenFromMail(capture, person.email, "/verify");
    expect((await app.request("/api/auth/send-verification-email", postJson({ email: person.email }))).status).toBe(200);
    // (The resent token may equal the first: it is signed, and says the same within the same second.)
    const isVerifyMail = (mail: { to: string[]; text: string }) => mail.to.includes(person.email) && mail.text.includes("/verify?token=");
    const resent = await capture.waitFor((mail) => isVerifyMail(mail) && capture.messages.filter(isVerifyMail).length >= 2);
    const second = new URL(extractLinks(resent.text).find((link) => link.includes("/verify?token="))!).searchParams.get("token")!;
    expect((await app.request("/api/verification", postJson({ token: second, password: person.password }))).status).toBe(200);

    const reset = await requestReset(person.email);
    expect((await app.request(`/api/auth/reset-password/${reset}?callbackURL=/reset-password`)).status).toBe(302);
    expect(await app.services.accounts.isResetLinkValid(reset)).toBe(true);
    await app.services.accounts.resetPassword({ token: reset, password: "new-leaf-after-reset-9" }, pageRequest("203.0.113.9"));
    expect((await app.request("/api/auth/sign-up/email", postJson(newPerson({ email: person.email })))).status).toBe(200);
    await capture.waitFor((mail) => mail.to.includes(person.email) && mail.subject.startsWith("Someone tried to create"));

    expect(logLines.length, "the server logged the requests").toBeGreaterThan(5);
    expect(logLines.join("\n")).toContain("reset-password/:token");
    for (const secret of [first, second, reset, encodeURIComponent(first), encodeURIComponent(reset)]) {
      expect(logLines.filter((line) => line.includes(secret))).toEqual([]);
    }
    expect(logLines.filter((line) => /token=/.test(line))).toEqual([]);
  }, 30_000);
});

/**
 * The answer with what differs between any two sign-ups (id and times) replaced by its type, and the names
 * sent compared with the ones answered.
 */
async function shapeOf(response: Response, sent: { email: string; username: string }) {
  const body = (await response.json()) as { user: Record<string, unknown> };
  const { id, createdAt, updatedAt, email, username, displayUsername, ...rest } = body.user;
  return {
    status: response.status,
    contentType: response.headers.get("content-type"),
    setCookies: response.headers.getSetCookie(),
    keys: Object.keys(body.user),
    body: { ...body, user: rest },
    types: [id, createdAt, updatedAt].map((value) => typeof value),
    names: [email === sent.email.toLowerCase(), username === sent.username.toLowerCase(), displayUsername === sent.username],
  };
}

describe("a sign-up with an address that has an account", () => {
  it("gets the JSON answer a new address gets, and the owner gets an e-mail saying so instead", async () => {
    const { person: owner } = await signUpVerified(app, capture);
    const mailsBefore = capture.messages.length;

    const takenInput = newPerson({ email: owner.email.toUpperCase(), name: "Someone Else", username: `Fern_${Date.now().toString(36)}` });
    const freshInput = newPerson({ name: "Someone Else", username: `Moss_${Date.now().toString(36)}` });
    const taken = await shapeOf(await app.request("/api/auth/sign-up/email", postJson(takenInput)), takenInput);
    const fresh = await shapeOf(await app.request("/api/auth/sign-up/email", postJson(freshInput)), freshInput);
    expect(taken).toEqual(fresh);
    expect(taken.status).toBe(200);
    expect(taken.names).toEqual([true, true, true]);

    const notice = await capture.waitFor((mail) => mail.to.includes(owner.email) && mail.subject.startsWith("Someone tried to create"));
    expect(notice.text).toContain(`${TEST_ORIGIN}/login`);
    expect(notice.text).toContain(`${TEST_ORIGIN}/forgot-password`);
    const toOwner = capture.messages.slice(mailsBefore).filter((mail) => mail.to.includes(owner.email));
    expect(toOwner.map((mail) => mail.subject), "no verification link to the owner").toEqual([notice.subject]);
    // The account is as it was: one user with that address, the same name, the same password.
    const users = await app.database.db.selectFrom("users").select("name").where(sql<string>`lower(email)`, "=", owner.email).execute();
    expect(users).toEqual([{ name: owner.name }]);
    expect((await signIn(app, owner.email, owner.password)).status).toBe(200);
  });

  it("on the register page's path gets the answer a new address gets, and the owner gets the e-mail", async () => {
    const { person: owner } = await signUpVerified(app, capture);
    const { accounts } = app.services;

    const taken = newPerson({ email: owner.email.toUpperCase() });
    const fresh = newPerson();
    const answeredTaken = await accounts.register(taken, pageRequest("203.0.113.20"));
    const answeredFresh = await accounts.register(fresh, pageRequest("203.0.113.20"));
    expect(answeredTaken).toEqual({ email: taken.email, accountId: expect.any(String) });
    expect(answeredFresh).toEqual({ email: fresh.email, accountId: expect.any(String) });
    // The id answered for the taken address is made up: it must never pass for the owner's at /verify.
    const ownerRow = await app.database.db.selectFrom("users").select("id").where(sql<string>`lower(email)`, "=", owner.email).executeTakeFirstOrThrow();
    expect(answeredTaken.accountId).not.toBe(ownerRow.id);
    const freshRow = await app.database.db.selectFrom("users").select("id").where("email", "=", fresh.email).executeTakeFirstOrThrow();
    expect(answeredFresh.accountId).toBe(freshRow.id);

    await capture.waitFor((mail) => mail.to.includes(owner.email) && mail.subject.startsWith("Someone tried to create"));
    await capture.waitFor((mail) => mail.to.includes(fresh.email) && mail.text.includes("/verify?token="));
  });

  it("is told when its username is taken, whether or not the address has an account", async () => {
    const { person: owner } = await signUpVerified(app, capture);
    const other = await signUpVerified(app, capture, newPerson({ name: "Ravi" }));
    const answers = [];
    for (const email of [owner.email, newPerson().email]) {
      const response = await app.request("/api/auth/sign-up/email", postJson(newPerson({ email, username: other.person.username })));
      answers.push({ status: response.status, body: await response.json() });
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]?.status).toBe(400);
  });

  it("mails the owner at most 3 times an hour, and answers as before past that", async () => {
    const { person: owner } = await signUpVerified(app, capture);
    for (let i = 0; i < 5; i++) {
      expect((await app.request("/api/auth/sign-up/email", postJson(newPerson({ email: owner.email })))).status).toBe(200);
    }
    // Each notice is queued within its request, so the outbox holds every one there will be; all of them arrive.
    const queued = await app.database.db.selectFrom("mail_outbox").select("subject").where("recipient", "=", owner.email).where("kind", "=", "existing-account").execute();
    expect(queued).toHaveLength(3);
    const notices = () => capture.messages.filter((mail) => mail.to.includes(owner.email) && mail.subject.startsWith("Someone tried to create"));
    await capture.waitFor(() => notices().length === 3);
    expect(notices().map((mail) => mail.subject)).toEqual(queued.map((row) => row.subject));
  });
});

describe("an admin account the account rules refuse at start-up", () => {
  it("stops start-up with a message naming ADMIN_EMAIL / ADMIN_PASSWORD, not the auth library's error", async () => {
    // loadConfig refuses such a password already; this is the net under it, for whatever the rules refuse later.
    const config = { ...loadConfig({ DATA_DIR: app.dataDir, SMTP_URL: capture.url }), admin: { email: "owner@nursery.example", password: "password123" } };
    const failure = await composeShop(config, app.database, pino({ level: "silent" })).then(() => undefined, (error: unknown) => error);
    expect(failure).toBeInstanceOf(ConfigError);
    expect((failure as ConfigError).message).toContain(`ADMIN_EMAIL / ADMIN_PASSWORD: the admin account cannot be made: ${messages.validation.passwordTooCommon}`);
    expect(await app.database.db.selectFrom("users").select("id").where("email", "=", "owner@nursery.example").execute()).toEqual([]);
  });
});
