import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { captureLogs } from "../../../tests/support/log-capture.ts";
import { startSmtpCapture, type SmtpCapture } from "../../../tests/support/smtp-capture.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database.ts";
import { openDatabase, type Database } from "../db/client.ts";
import { inWriteTransaction } from "../db/write-transaction.ts";
import { createMailOutbox, createMailWorker, mailState, startMailWorker, type MailRetryPolicy, type OutboxMail } from "./mail-outbox.ts";
import { createMailer, type Mailer, type MailMessage } from "./mailer.ts";
import { createSealer } from "../sealed-values.ts";

const testSealer = createSealer("mail-outbox-test-secret-0123456789abcdef");

let database: TestDatabase;
beforeEach(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  await database.cleanup();
});

const TOKEN = "tok3n-that-must-never-be-logged";
const mail = (n = 1): OutboxMail => ({
  kind: "password-reset",
  reference: `user-${n}`,
  to: `asha.${n}@example.com`,
  subject: `Mail ${n}`,
  text: `Open https://shop.example/reset-password?token=${TOKEN}-${n}`,
  html: `<a href="https://shop.example/reset-password?token=${TOKEN}-${n}">Reset</a>`,
});

/** A mailer that records what it sends, or fails with `failure` while that is set. */
function recordingMailer() {
  const sent: MailMessage[] = [];
  const state = { failure: undefined as Error | undefined };
  const mailer: Mailer = {
    kind: "smtp",
    async send(message) {
      if (state.failure) throw state.failure;
      sent.push(message);
    },
    close: async () => undefined,
  };
  return { mailer, sent, state };
}

/** A clock the test moves by hand, starting a second after the real one so mail queued now is due. */
function manualClock() {
  let ms = Date.now() + 1_000;
  return { now: () => ms, set: (to: number) => void (ms = to), start: ms };
}

const silent = () => captureLogs().logger;
const RETRY: MailRetryPolicy = { firstDelayMs: 60_000, maxDelayMs: 3_600_000, maxAttempts: 3 };

describe("queueing", () => {
  it("never sends a mail queued in a transaction that rolled back, and sends one whose transaction committed", async () => {
    const outbox = createMailOutbox(testSealer);
    let wakes = 0;
    outbox.onQueued(() => wakes++);
    await expect(
      inWriteTransaction(database, async (trx) => {
        await outbox.enqueue(trx, mail(1));
        throw new Error("the order could not be stored");
      }),
    ).rejects.toThrow("the order could not be stored");
    await inWriteTransaction(database, (trx) => outbox.enqueue(trx, mail(2)));
    // The worker is woken after the commit only, never for the rolled-back mail.
    expect(wakes).toBe(1);

    const { mailer, sent } = recordingMailer();
    const worker = createMailWorker({ outbox: createMailOutbox(testSealer), database, mailer, logger: silent() });
    expect(await worker.sendDue()).toBe(1);
    expect(sent.map((m) => m.subject)).toEqual(["Mail 2"]);
    expect(await database.db.selectFrom("mail_outbox").select(["subject", "status"]).execute()).toEqual([{ subject: "Mail 2", status: "sent" }]);
  });

  it("clears a sent mail's content (its links carry tokens) and keeps what an operator needs", async () => {
    const id = await createMailOutbox(testSealer).enqueue(database.db, mail());
    await createMailWorker({ outbox: createMailOutbox(testSealer), database, mailer: recordingMailer().mailer, logger: silent() }).sendDue();
    const row = await database.db.selectFrom("mail_outbox").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ kind: "password-reset", reference: "user-1", recipient: "asha.1@example.com", status: "sent", attempts: 1, text_body: null, html_body: null, claim: null });
  });
});

describe("a mail's own headers", () => {
  const UNSUBSCRIBE = `<https://shop.example/alerts/unsubscribe?token=${TOKEN}>`;
  const withHeaders = (): OutboxMail => ({ ...mail(), headers: { "List-Unsubscribe": UNSUBSCRIBE, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } });

  it("are kept with the queued mail, sealed (a link in them carries a token), reach the SMTP server as sent by a worker started afterwards, and are cleared once it is sent", async () => {
    const id = await createMailOutbox(testSealer).enqueue(database.db, withHeaders());
    const queued = await database.db.selectFrom("mail_outbox").select("headers").where("id", "=", id).executeTakeFirstOrThrow();
    expect(queued.headers).not.toBeNull();
    expect(queued.headers).not.toContain(TOKEN);

    const capture = await startSmtpCapture();
    try {
      // A worker of its own, as after a restart: all it has of the headers is the row.
      const mailer = createMailer({ smtpUrl: capture.url, from: "Plant Shop <shop@example.com>", outboxDir: "/nonexistent" });
      await createMailWorker({ outbox: createMailOutbox(testSealer), database, mailer, logger: silent() }).sendDue();
      await mailer.close();
      const received = await capture.waitFor((m) => m.subject === "Mail 1");
      expect(received.headers["list-unsubscribe"]).toBe(UNSUBSCRIBE);
      expect(received.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    } finally {
      await capture.close();
    }
    expect(await database.db.selectFrom("mail_outbox").select(["status", "headers"]).where("id", "=", id).executeTakeFirstOrThrow()).toEqual({ status: "sent", headers: null });
  });

  it("are refused when one would add a recipient or start a header of its own", async () => {
    const outbox = createMailOutbox(testSealer);
    await expect(outbox.enqueue(database.db, { ...mail(), headers: { Bcc: "someone.else@example.com" } })).rejects.toThrow("a mail cannot carry a header named");
    await expect(outbox.enqueue(database.db, { ...mail(), headers: { "List-Unsubscribe": `${UNSUBSCRIBE}\r\nBcc: someone.else@example.com` } })).rejects.toThrow("must be one line");
    expect(await database.db.selectFrom("mail_outbox").select("id").execute()).toEqual([]);
  });
});

describe("retries", () => {
  it("retries a failed mail with exponential backoff kept in the row, so a new worker after a restart carries on", async () => {
    const clock = manualClock();
    const id = await createMailOutbox(testSealer).enqueue(database.db, mail());
    const failing = recordingMailer();
    failing.state.failure = new Error("421 Service not available, try later");
    const logs = captureLogs();

    const first = createMailWorker({ outbox: createMailOutbox(testSealer), database, mailer: failing.mailer, logger: logs.logger, retry: RETRY, now: clock.now });
    expect(await first.sendDue()).toBe(1);
    expect(await mailState(database.db, id)).toMatchObject({ status: "pending", attempts: 1, next_attempt_at: new Date(clock.start + 60_000).toISOString(), last_error: "421 Service not available, try later" });
    await first.stop(1_000);

    // A restart: a new worker over the same database. Not due yet, then due and failing again: twice the wait.
    const second = createMailWorker({ outbox: createMailOutbox(testSealer), database, mailer: failing.mailer, logger: logs.logger, retry: RETRY, now: clock.now });
    clock.set(clock.start + 59_999);
    expect(await second.sendDue()).toBe(0);
    clock.set(clock.start + 60_000);
    expect(await second.sendDue()).toBe(1);
    expect(await mailState(database.db, id)).toMatchObject({ status: "pending", attempts: 2, next_attempt_at: new Date(clock.start + 60_000 + 120_000).toISOString() });
    await second.stop(1_000);

    const working = recordingMailer();
    const third = createMailWorker({ outbox: createMailOutbox(testSealer), database, mailer: working.mailer, logger: logs.logger, retry: RETRY, now: clock.now });
    clock.set(clock.start + 180_000);
    expect(await third.sendDue()).toBe(1);
    expect(working.sent.map((m) => m.subject)).toEqual(["Mail 1"]);
    expect(await mailState(database.db, id)).toMatchObject({ status: "sent", attempts: 3, last_error: null });

    const failures = logs.lines.filter((line) => line.msg === "e-mail could not be sent");
    expect(failures.map((line) => [line.mailId, line.kind, line.reference, line.attempt, line.willRetry])).toEqual([
      [id, "password-reset", "user-1", 1, true],
      [id, "password-reset", "user-1", 2, true],
    ]);
  });

  it("gives a mail up after the last attempt, and logs every failure with the mail's id but never its content", async () => {
    const clock = manualClock();
    const id = await createMailOutbox(testSealer).enqueue(database.db, mail());
    const failing = recordingMailer();
    failing.state.failure = new Error("550 mailbox unavailable");
    const logs = captureLogs();
    const worker = createMailWorker({ outbox: createMailOutbox(testSealer), database, mailer: failing.mailer, logger: logs.logger, retry: RETRY, now: clock.now });
    for (let attempt = 0; attempt < 3; attempt++) {
      expect(await worker.sendDue()).toBe(1);
      clock.set(clock.now() + RETRY.maxDelayMs);
    }
    expect(await worker.sendDue()).toBe(0);

    expect(await database.db.selectFrom("mail_outbox").select(["status", "attempts", "text_body", "html_body"]).where("id", "=", id).executeTakeFirstOrThrow()).toEqual({
      status: "failed",
      attempts: 3,
      text_body: null,
      html_body: null,
    });
    expect(logs.lines.map((line) => [line.mailId, line.attempt, line.willRetry])).toEqual([
      [id, 1, true],
      [id, 2, true],
      [id, 3, false],
    ]);
    const logged = JSON.stringify(logs.lines);
    expect(logged).not.toContain(TOKEN);
    expect(logged).not.toContain("Mail 1");
    expect(logged).not.toContain("asha.1@example.com");
  });
});

describe("shutdown", () => {
  /** A mailer whose sends wait until the test lets them go. */
  function heldMailer() {
    const waiting: (() => void)[] = [];
    const arrivals: (() => void)[] = [];
    const sent: string[] = [];
    const mailer: Mailer = {
      kind: "smtp",
      send: (message) =>
        new Promise<void>((resolve) => {
          waiting.push(() => (sent.push(message.subject), resolve()));
          arrivals.shift()?.();
        }),
      close: async () => undefined,
    };
    const nextSend = async () => {
      if (!waiting.length) await new Promise<void>((resolve) => arrivals.push(resolve));
      return waiting.shift()!;
    };
    return { mailer, sent, nextSend };
  }

  it("stops claiming, finishes the mail it holds, and leaves the rest queued for the next start", async () => {
    const outbox = createMailOutbox(testSealer);
    await outbox.enqueue(database.db, mail(1));
    await outbox.enqueue(database.db, mail(2));
    const held = heldMailer();
    const worker = startMailWorker({ database, mailer: held.mailer, outbox, logger: silent(), batchSize: 1, pollIntervalMs: 3_600_000 });
    const release = await held.nextSend();

    const stopped = worker.stop(60_000);
    release();
    await stopped;
    expect(held.sent).toHaveLength(1);
    expect(await database.db.selectFrom("mail_outbox").select("status").orderBy("status").execute()).toEqual([{ status: "pending" }, { status: "sent" }]);

    const next = recordingMailer();
    expect(await createMailWorker({ outbox: createMailOutbox(testSealer), database, mailer: next.mailer, logger: silent() }).sendDue()).toBe(1);
    expect([...held.sent, ...next.sent.map((m) => m.subject)].sort()).toEqual(["Mail 1", "Mail 2"]);
  });

  it("stops waiting after the time it is given; the mail it held is sent by the next start once its claim runs out", async () => {
    const clock = manualClock();
    const outbox = createMailOutbox(testSealer);
    const id = await outbox.enqueue(database.db, mail());
    const logs = captureLogs();
    const held = heldMailer();
    const worker = startMailWorker({ database, mailer: held.mailer, outbox, logger: logs.logger, leaseMs: 600_000, now: clock.now });
    await held.nextSend(); // never let go: a send that hangs past the shutdown budget

    await worker.stop(20);
    expect(await logs.waitFor((line) => line.msg === "shutting down with e-mails still being sent; they stay queued")).toMatchObject({ unsent: 1 });

    const next = recordingMailer();
    const restarted = createMailWorker({ outbox: createMailOutbox(testSealer), database, mailer: next.mailer, logger: silent(), now: clock.now });
    expect(await restarted.sendDue()).toBe(0);
    clock.set(clock.start + 600_000);
    expect(await restarted.sendDue()).toBe(1);
    expect(await mailState(database.db, id)).toMatchObject({ status: "sent", attempts: 2 });
  });
});

describe("pruning", () => {
  it("deletes sent mail after the keep time, given-up mail after its own, and never queued mail", async () => {
    const clock = manualClock();
    const outbox = createMailOutbox(testSealer);
    await outbox.enqueue(database.db, mail(1));
    const { mailer, state } = recordingMailer();
    const worker = createMailWorker({ outbox: createMailOutbox(testSealer), database, mailer, logger: silent(), now: clock.now, retry: { ...RETRY, maxAttempts: 1 }, keepSentMs: 1_000, keepFailedMs: 5_000 });
    await worker.sendDue();
    state.failure = new Error("550 no such user");
    const failedId = await outbox.enqueue(database.db, mail(2));
    await worker.sendDue();
    const queuedId = await outbox.enqueue(database.db, mail(3));
    const ids = async () => (await database.db.selectFrom("mail_outbox").select("id").execute()).map((row) => row.id).sort();

    clock.set(clock.start + 1_001);
    expect(await worker.prune()).toBe(1);
    expect(await ids()).toEqual([failedId, queuedId].sort());
    clock.set(clock.start + 5_001);
    expect(await worker.prune()).toBe(1);
    expect(await ids()).toEqual([queuedId]);
  });
});

describe("several server processes", () => {
  let capture: SmtpCapture;
  beforeAll(async () => {
    capture = await startSmtpCapture();
  });
  afterAll(async () => {
    await capture.close();
  });

  /** A second connection pool (PostgreSQL) or connection (SQLite) to the same database, as another process has. */
  async function secondHandle(): Promise<Database> {
    if (database.postgresUrl) return openDatabase({ databaseUrl: database.postgresUrl });
    const { file } = (await sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(database.db)).rows[0]!;
    return openDatabase({ sqliteFile: file });
  }

  it("send each mail exactly once when two workers on two connections claim at the same time", async () => {
    const other = await secondHandle();
    const outbox = createMailOutbox(testSealer);
    const count = 30;
    for (let n = 1; n <= count; n++) await outbox.enqueue(database.db, { ...mail(n), to: "race@example.com" });
    const mailers = [1, 2].map(() => createMailer({ smtpUrl: capture.url, from: "Plant Shop <shop@example.com>", outboxDir: "/nonexistent" }));
    const workers = [database, other].map((handle, i) => createMailWorker({ outbox: createMailOutbox(testSealer), database: handle, mailer: mailers[i]!, logger: silent(), batchSize: 1 }));
    try {
      const attempted = await Promise.all(workers.map((worker) => worker.sendDue()));
      expect(attempted[0]! + attempted[1]!).toBe(count);
      // Both really took part: each claimed some of the mails.
      expect(attempted.every((n) => n > 0)).toBe(true);
      const received = capture.messages.filter((m) => m.to.includes("race@example.com")).map((m) => m.subject);
      expect(received.sort()).toEqual(Array.from({ length: count }, (_, i) => `Mail ${i + 1}`).sort());
      const statuses = await database.db.selectFrom("mail_outbox").select(["status", "attempts"]).distinct().execute();
      expect(statuses).toEqual([{ status: "sent", attempts: 1 }]);
    } finally {
      for (const mailer of mailers) await mailer.close();
      await other.destroy();
    }
  }, 30_000);
});
