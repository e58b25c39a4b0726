// Durable mail (docs/decisions/016-mail-outbox.md): a request only writes a row to the mail_outbox table, in its
// own transaction; one worker per server process sends what is due through the gateway (./mailer.ts), retrying
// with exponential backoff stored in the row, so a restart loses nothing and several processes on one
// PostgreSQL database send each mail once.
import { randomUUID } from "node:crypto";
import { sql, type InsertQueryBuilder, type InsertResult, type Kysely, type QueryCreator, type SqlBool } from "kysely";
import type { Logger } from "pino";
import { hasControlCharacters } from "#common/shared/fields.ts";
import type { Database } from "../db/client.ts";
import type { DB } from "../db/schema.ts";
import { toIsoString } from "../db/values.ts";
import { compiledOnce } from "../db/compiled-once.ts";
import { isConnectionLoss } from "../db/connection-loss.ts";
import { afterCommit } from "../db/write-transaction.ts";
import type { Sealer } from "../sealed-values.ts";
import type { Mailer, MailMessage } from "./mailer.ts";

/** One e-mail to queue: the message, what it is and what it is about (both for log lines, never its content). */
export interface OutboxMail extends MailMessage {
  /** e.g. `verification`, `order-placed`. */
  kind: string;
  /** The id of the order or account it is about, if any. */
  reference?: string | undefined;
}

export interface MailOutbox {
  /**
   * Queues a mail in `db`'s transaction (or on its own when `db` is the database): it is sent only if that
   * transaction commits. Answers the mail's id.
   */
  enqueue(db: Kysely<DB>, mail: OutboxMail): Promise<string>;
  /**
   * The same, as the row for the caller to insert with `insertOutboxRow` inside a statement of its own in `db`'s
   * transaction (a CTE on PostgreSQL: one round trip less at checkout, decision 009). It is sent only if that
   * transaction commits; the worker is woken after the commit whether or not the caller inserted it.
   */
  enqueueWithin(db: Kysely<DB>, mail: OutboxMail): OutboxRow;
  /** Calls `listener` after each committed enqueue (this process's worker starts sending at once). */
  onQueued(listener: () => void): () => void;
  /** A queued body in clear: the table holds it sealed, because its links carry tokens (decision 015). */
  openBody(sealed: string | null): string;
  /** A queued mail's own headers in clear (sealed too: a List-Unsubscribe link carries a token); none when it has none. */
  openHeaders(sealed: string | null): Record<string, string> | undefined;
}

const BODY_PURPOSE = "mail body";
const HEADERS_PURPOSE = "mail headers";
/** A header name as RFC 5322 allows it, without those nodemailer writes itself from the message's fields. */
const HEADER_NAME = /^[A-Za-z][A-Za-z0-9-]*$/;
const WRITTEN_BY_NODEMAILER = new Set(["from", "to", "cc", "bcc", "subject", "date", "message-id", "mime-version", "content-type", "content-transfer-encoding"]);

/** A mail as queued: its bodies and its own headers (JSON) sealed (decision 015), due from `queuedAt`. */
export interface OutboxRow {
  id: string;
  kind: string;
  reference: string | null;
  recipient: string;
  subject: string;
  textBody: string;
  htmlBody: string;
  headers: string | null;
  queuedAt: string;
}

/** The insert of a queued mail, to run alone or as part of another statement (its values may be compiledOnce's stand-ins). */
export function insertOutboxRow(into: QueryCreator<DB>, row: OutboxRow): InsertQueryBuilder<DB, "mail_outbox", InsertResult> {
  return into.insertInto("mail_outbox").values({
    id: row.id,
    kind: row.kind,
    reference: row.reference,
    recipient: row.recipient,
    subject: row.subject,
    text_body: row.textBody,
    html_body: row.htmlBody,
    headers: row.headers,
    status: "pending",
    next_attempt_at: row.queuedAt,
    created_at: row.queuedAt,
  });
}

/** `sealer` keeps bodies unreadable in the table; every process sharing the database must use the same secret. */
export function createMailOutbox(sealer: Sealer): MailOutbox {
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of listeners) listener();
  };
  /** A pending mail's row, its bodies and headers sealed, due now. */
  const queuedRow = ({ kind, reference, to, subject, text, html, headers }: OutboxMail): OutboxRow => {
    const now = new Date().toISOString();
    const own = headers && Object.keys(headers).length ? sealer.seal(HEADERS_PURPOSE, JSON.stringify(checkedHeaders(headers))) : null;
    return {
      id: randomUUID(),
      kind,
      reference: reference ?? null,
      recipient: to,
      subject,
      textBody: sealer.seal(BODY_PURPOSE, text),
      htmlBody: sealer.seal(BODY_PURPOSE, html),
      headers: own,
      queuedAt: now,
    };
  };
  return {
    async enqueue(db, mail) {
      const row = queuedRow(mail);
      await insertOutboxRow(db, row).execute();
      afterCommit(db, notify);
      return row.id;
    },
    enqueueWithin(db, mail) {
      afterCommit(db, notify);
      return queuedRow(mail);
    },
    onQueued(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    openBody(sealed) {
      return sealed === null ? "" : (sealer.open(BODY_PURPOSE, sealed) ?? "");
    },
    openHeaders(sealed) {
      const json = sealed === null ? null : sealer.open(HEADERS_PURPOSE, sealed);
      return json === null ? undefined : (JSON.parse(json) as Record<string, string>);
    },
  };
}

/**
 * The headers a caller gives, refused when one could break the message: a name that is no header name or one the
 * message's own fields write (a second To would reach other people), a value over several lines (a header of its
 * own after the break). Only the shop's code writes them, so a refusal is a mistake in it, found at the first mail.
 */
function checkedHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name) || WRITTEN_BY_NODEMAILER.has(name.toLowerCase())) throw new Error(`a mail cannot carry a header named ${JSON.stringify(name)}`);
    if (hasControlCharacters(value)) throw new Error(`the mail header ${name} must be one line of text`);
  }
  return { ...headers };
}

export interface MailRetryPolicy {
  /** The wait after the first failure; each further failure doubles it, up to `maxDelayMs`. */
  firstDelayMs: number;
  maxDelayMs: number;
  /** After this many failed attempts the mail is given up (status `failed`). */
  maxAttempts: number;
}

/** 30 s, 1, 2, 4 … minutes, at most 2 hours apart: ten attempts over about 6 hours outlast a mail server's outage. */
export const MAIL_RETRY: MailRetryPolicy = { firstDelayMs: 30_000, maxDelayMs: 2 * 60 * 60_000, maxAttempts: 10 };

/** The wait before the attempt after `attempts` failed ones. */
export function retryDelayMs(policy: MailRetryPolicy, attempts: number): number {
  return Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** Math.max(0, attempts - 1));
}

export interface MailWorkerOptions {
  database: Pick<Database, "db" | "dialect">;
  mailer: Mailer;
  outbox: MailOutbox;
  logger: Logger;
  retry?: MailRetryPolicy;
  /** How often the worker looks for due mail when nothing wakes it (mail queued by another process, retries). */
  pollIntervalMs?: number;
  /** How many mails one claim takes (and sends at once). */
  batchSize?: number;
  /**
   * How long a claim keeps other workers off a mail. Longer than any send can take (the SMTP timeouts bound it),
   * so a mail is sent twice only if its process dies between the server's acceptance and the row's update.
   */
  leaseMs?: number;
  /** Sent mails are deleted this long after sending; given-up ones after `keepFailedMs`. */
  keepSentMs?: number;
  keepFailedMs?: number;
  /** The clock (tests move it forward instead of waiting). */
  now?: () => number;
}

export interface MailWorker {
  /** Claims and sends the mail due now until none is left (or the worker stops); answers how many were attempted. */
  sendDue(): Promise<number>;
  /** Deletes sent and given-up mails older than their keep times; answers how many. */
  prune(): Promise<number>;
  /**
   * Stops claiming and waits for the mails it holds, for at most `timeoutMs`. What is unsent stays in the
   * table for the next start (a held mail once its lease has run out).
   */
  stop(timeoutMs: number): Promise<void>;
}

const PRUNE_EVERY_MS = 60 * 60_000;

/** The mail worker of this process: sends due mail now, whenever mail is queued here, and every poll interval. */
export function startMailWorker(options: MailWorkerOptions): MailWorker {
  const worker = createMailWorker(options);
  const { logger, outbox, pollIntervalMs = 5_000 } = options;
  const now = options.now ?? Date.now;
  let stopping = false;
  let wakeUp: (() => void) | undefined;
  let wokenMeanwhile = false;
  let lastPrune = 0;
  let waitingForDatabase = false;

  const wake = () => {
    wokenMeanwhile = true;
    wakeUp?.();
  };
  const unsubscribe = outbox.onQueued(wake);

  const loop = (async () => {
    while (!stopping) {
      wokenMeanwhile = false;
      try {
        await worker.sendDue();
        if (!stopping && now() - lastPrune >= PRUNE_EVERY_MS) {
          lastPrune = now();
          await worker.prune();
        }
        if (waitingForDatabase) {
          waitingForDatabase = false;
          logger.info("the mail worker reaches the database again");
        }
      } catch (error) {
        // The database is unreachable for a moment (a restart, a failover): said once, then tried again at each
        // poll, quietly, until it answers; the mail waits in the table meanwhile.
        if (!isConnectionLoss(error)) logger.error({ err: error }, "the mail worker could not read the outbox");
        else if (!waitingForDatabase) logger.warn({ err: error }, "the mail worker cannot reach the database; it tries again at each poll");
        if (isConnectionLoss(error)) waitingForDatabase = true;
      }
      if (stopping || wokenMeanwhile) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, pollIntervalMs);
        function done() {
          clearTimeout(timer);
          wakeUp = undefined;
          resolve();
        }
        wakeUp = done;
      });
    }
  })();

  return {
    sendDue: worker.sendDue,
    prune: worker.prune,
    async stop(timeoutMs) {
      stopping = true;
      unsubscribe();
      wakeUp?.();
      const stopped = await worker.stop(timeoutMs);
      if (stopped) await loop;
    },
  };
}

/** The worker's steps without its loop (tests drive them one by one). */
export function createMailWorker({
  database,
  mailer,
  logger,
  retry = MAIL_RETRY,
  batchSize = 10,
  leaseMs = 10 * 60_000,
  keepSentMs = 7 * 24 * 60 * 60_000,
  keepFailedMs = 30 * 24 * 60 * 60_000,
  now = Date.now,
  outbox,
}: Omit<MailWorkerOptions, "pollIntervalMs">) {
  const { db, dialect } = database;
  const running = new Set<Promise<unknown>>();
  let holding = 0;
  let stopping = false;
  const iso = (ms: number) => new Date(ms).toISOString();

  /**
   * Takes up to `batchSize` due mails: their due time moves forward by the lease and they get this claim. On
   * PostgreSQL `FOR UPDATE SKIP LOCKED` lets workers in other processes claim other rows at the same moment
   * instead of waiting (a row another worker claimed meanwhile no longer matches and is passed over). SQLite runs
   * the claim as one statement, which nothing can interleave with, and never holds its write lock across a wait.
   * One statement on both: on PostgreSQL the due rows are locked by its subquery (the usual queue claim), which
   * saves the worker three round trips per claim (it shares the pool with checkouts; docs/decisions/016).
   * `= any(array(…))`, not `in (…)`: PostgreSQL may run an `in` subquery again for every row it updates, each
   * run skipping what the last one locked, and so claim more than `batchSize`; an array subquery runs once.
   */
  const claimDue = compiledOnce((from, v: { token: string; leaseUntil: string; dueBy: string; batchSize: number }) => {
    const dueIds = from
      .selectFrom("mail_outbox")
      .select("id")
      .where("status", "=", "pending")
      .where("next_attempt_at", "<=", v.dueBy)
      .orderBy("next_attempt_at")
      .limit(v.batchSize);
    return from
      .updateTable("mail_outbox")
      .set((eb) => ({ next_attempt_at: v.leaseUntil, attempts: eb("attempts", "+", 1), claim: v.token }))
      .where(dialect === "postgres" ? sql<SqlBool>`id = any(array(${dueIds.forUpdate().skipLocked()}))` : sql<SqlBool>`id in (${dueIds})`)
      .where("status", "=", "pending")
      .returning(["id", "kind", "reference", "recipient", "subject", "text_body", "html_body", "headers", "attempts"]);
  });

  /**
   * Takes up to `batchSize` due mails: their due time moves forward by the lease and they get this claim. On
   * PostgreSQL `FOR UPDATE SKIP LOCKED` lets workers in other processes claim other rows at the same moment
   * instead of waiting (a row another worker claimed meanwhile no longer matches and is passed over). SQLite runs
   * the claim as one statement, which nothing can interleave with, and never holds its write lock across a wait.
   */
  async function claim() {
    const token = randomUUID();
    const startedAt = now();
    const rows = await claimDue.execute(db, { token, leaseUntil: iso(startedAt + leaseMs), dueBy: iso(startedAt), batchSize });
    return rows.map((row) => ({ ...row, claim: token }));
  }

  type Claimed = Awaited<ReturnType<typeof claim>>[number];

  /** Sends one claimed mail; answers true when it went (its row is then marked by markSent), false when not. */
  async function send(mail: Claimed): Promise<boolean> {
    const about = { mailId: mail.id, kind: mail.kind, ...(mail.reference ? { reference: mail.reference } : {}) };
    const mine = (query: ReturnType<typeof update>) => query.where("id", "=", mail.id).where("claim", "=", mail.claim);
    const update = () => db.updateTable("mail_outbox");
    let sent;
    try {
      sent = await mailer.send({
        to: mail.recipient,
        subject: mail.subject,
        text: outbox.openBody(mail.text_body),
        html: outbox.openBody(mail.html_body),
        headers: outbox.openHeaders(mail.headers),
      });
    } catch (error) {
      const giveUp = mail.attempts >= retry.maxAttempts;
      const nextAttemptAt = iso(now() + retryDelayMs(retry, mail.attempts));
      // The error's own words only (an SMTP reply), never the message: it may hold a link with a token.
      const reason = error instanceof Error ? error.message.slice(0, 500) : "unknown error";
      const code = (error as { code?: unknown } | null)?.code;
      await mine(
        update().set(
          giveUp
            ? { status: "failed", last_error: reason, claim: null, finished_at: iso(now()), text_body: null, html_body: null, headers: null }
            : { next_attempt_at: nextAttemptAt, last_error: reason, claim: null },
        ),
      ).execute();
      logger.error(
        { ...about, attempt: mail.attempts, error: reason, ...(typeof code === "string" ? { code } : {}), willRetry: !giveUp, ...(giveUp ? {} : { nextAttemptAt }) },
        "e-mail could not be sent",
      );
      return false;
    }
    if (sent?.file) logger.info({ ...about, file: sent.file }, "e-mail written to the outbox folder");
    else logger.info(about, "e-mail sent");
    return true;
  }

  /** The mails of one claim that went, marked sent in one statement (and their bodies dropped). */
  async function markSent(claim: string, ids: string[]) {
    if (!ids.length) return;
    await db
      .updateTable("mail_outbox")
      .set({ status: "sent", claim: null, finished_at: iso(now()), text_body: null, html_body: null, headers: null, last_error: null })
      .where("id", "in", ids)
      .where("claim", "=", claim)
      .execute();
  }

  async function sendBatches(): Promise<number> {
    let attempted = 0;
    while (!stopping) {
      const batch = await claim();
      if (!batch.length) break;
      holding += batch.length;
      const went = await Promise.all(
        batch.map((mail) =>
          send(mail).catch((error: unknown) => {
            logger.error({ err: error, mailId: mail.id }, "the outcome of an e-mail could not be recorded");
            return false;
          }),
        ),
      );
      const sentIds = batch.filter((_, i) => went[i]).map((mail) => mail.id);
      // A mail sent but not marked (the database is gone for a moment) is sent again after its lease: at least once.
      await markSent(batch[0]!.claim, sentIds)
        .catch((error: unknown) => logger.error({ err: error, mailIds: sentIds }, "the outcome of an e-mail could not be recorded"))
        .finally(() => (holding -= batch.length));
      attempted += batch.length;
    }
    return attempted;
  }

  function sendDue(): Promise<number> {
    const run = sendBatches().finally(() => running.delete(run));
    running.add(run);
    return run;
  }

  return {
    sendDue,

    async prune(): Promise<number> {
      const result = await db
        .deleteFrom("mail_outbox")
        .where((eb) =>
          eb.or([
            eb.and([eb("status", "=", "sent"), eb("finished_at", "<", iso(now() - keepSentMs))]),
            eb.and([eb("status", "=", "failed"), eb("finished_at", "<", iso(now() - keepFailedMs))]),
          ]),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** Answers whether everything held was finished in time. */
    async stop(timeoutMs: number): Promise<boolean> {
      stopping = true;
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
      const finished = await Promise.race([Promise.allSettled(running).then(() => true as const), timedOut]);
      clearTimeout(timer);
      if (!finished) logger.warn({ unsent: holding }, "shutting down with e-mails still being sent; they stay queued");
      return finished;
    },
  };
}

/** For an operator or a test: a queued mail's state, without its content. */
export async function mailState(db: Kysely<DB>, id: string) {
  const row = await db
    .selectFrom("mail_outbox")
    .select(["status", "attempts", "next_attempt_at", "last_error", "finished_at"])
    .where("id", "=", id)
    .executeTakeFirst();
  return row && { ...row, next_attempt_at: toIsoString(row.next_attempt_at) };
}

/** The most unsent mails the backlog reading counts; past it the depth reads as this many (see outboxBacklog). */
export const BACKLOG_COUNT_CAP = 10_000;

/**
 * The unsent mails (pending, including those waiting to be retried) and when the oldest of them was queued, for the
 * metrics. Read through the (status, next_attempt_at) index and capped at BACKLOG_COUNT_CAP rows, so a scrape
 * costs at most that much however large the outbox grows; past the cap both figures are about the capped rows.
 */
export async function outboxBacklog(db: Kysely<DB>): Promise<{ pending: number; oldestQueuedAt: Date | null }> {
  const unsent = db.selectFrom("mail_outbox").select("created_at").where("status", "=", "pending").orderBy("next_attempt_at").limit(BACKLOG_COUNT_CAP).as("unsent");
  const row = await db
    .selectFrom(unsent)
    .select((eb) => [eb.fn.countAll<number | string>().as("pending"), eb.fn.min("unsent.created_at").as("oldest")])
    .executeTakeFirstOrThrow();
  return { pending: Number(row.pending), oldestQueuedAt: row.oldest === null ? null : new Date(toIsoString(row.oldest)) };
}
