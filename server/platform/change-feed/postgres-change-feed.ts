import { randomUUID } from "node:crypto";
import { sql, type Kysely } from "kysely";
import type pg from "pg";
import { loadPg } from "../db/load-pg.ts";
import type { Logger } from "pino";
import type { DB } from "../db/schema.ts";
import { afterCommit } from "../db/write-transaction.ts";
import { isConnectionLoss } from "../db/connection-loss.ts";
import { createLocalChangeFeed, isChange, type Change, type ChangeFeed } from "./change-feed.ts";

export interface PostgresChangeFeedOptions {
  /** The database the shop runs on; the feed holds one connection of its own to it, for LISTEN. */
  databaseUrl: string;
  /** Where NOTIFY is sent from: the shop's ordinary connection pool. */
  db: Kysely<DB>;
  logger: Logger;
  /** The NOTIFY channel; every process of one shop uses the same (tests give each their own). */
  channel?: string;
  /** Waits between reconnection attempts after the LISTEN connection drops (ms); the last repeats. */
  reconnectDelaysMs?: readonly number[];
}

export const DEFAULT_CHANNEL = "plant_shop_changes";
const RECONNECT_DELAYS_MS = [100, 500, 1000, 2000, 5000];
/** Failed reconnections between two log lines once the feed is retrying at its longest delay (about a minute). */
const QUIET_ATTEMPTS = 12;
/** How long one attempt to open the LISTEN connection may take, so a database that does not answer is retried. */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * What travels in a NOTIFY payload: the changes, and which process sent them (so that it does not hear itself
 * twice). `change` alone is what processes sent before changes were batched.
 */
interface Envelope {
  from: string;
  changes?: Change[];
  change?: Change;
}

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more; a batch is split to stay well under it. */
const MAX_PAYLOAD_CHARS = 7000;

/**
 * The change feed across server processes (decision 019): a change is delivered in this process at once
 * (after commit) and sent to the others with NOTIFY; one dedicated connection per process LISTENs and delivers
 * what the other processes sent. Each process hears every change exactly once, its own included, and hears its
 * own even while the LISTEN connection is down.
 *
 * NOTIFY is sent after the commit, from the pool, rather than inside the transaction: `publish` is synchronous
 * so that services need not await it. A crash between commit and NOTIFY loses one announcement, which costs the
 * other processes' pages a stale view until their next change or reconnect, never a wrong write.
 *
 * When the LISTEN connection drops, the feed reconnects (with the delays given) and then delivers
 * `{ type: "resync" }`: what was sent meanwhile was missed, so listeners re-read or forget everything.
 */
export async function createPostgresChangeFeed(options: PostgresChangeFeedOptions): Promise<ChangeFeed> {
  const { databaseUrl, db, logger } = options;
  const channel = options.channel ?? DEFAULT_CHANNEL;
  const delays = options.reconnectDelaysMs ?? RECONNECT_DELAYS_MS;
  const processId = randomUUID();
  const local = createLocalChangeFeed();
  let client: pg.Client | undefined;
  let closed = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let attempt = 0;

  const onNotification = (message: pg.Notification) => {
    if (message.channel !== channel || !message.payload) return;
    let envelope: Partial<Envelope> | null;
    try {
      envelope = JSON.parse(message.payload) as Partial<Envelope> | null;
    } catch {
      return; // not one of ours
    }
    if (typeof envelope !== "object" || envelope === null || envelope.from === processId) return;
    const changes: unknown[] = Array.isArray(envelope.changes) ? envelope.changes : envelope.change ? [envelope.change] : [];
    for (const change of changes) if (isChange(change)) local.deliver(change);
  };

  /** Opens the LISTEN connection; throws when it cannot. */
  async function connect(): Promise<void> {
    const next = new (loadPg().Client)({ connectionString: databaseUrl, keepAlive: true, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    // An error on an idle client (the server went away) comes as an event; without a listener it would crash the process.
    next.on("error", (error) => lost(next, error));
    next.on("end", () => lost(next));
    next.on("notification", onNotification);
    try {
      await next.connect();
      await next.query(`listen ${loadPg().escapeIdentifier(channel)}`);
    } catch (error) {
      next.removeAllListeners("end");
      await next.end().catch(() => undefined);
      throw error;
    }
    if (closed) {
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
  }

  function lost(which: pg.Client, error?: Error) {
    if (which !== client || closed) return;
    client = undefined;
    which.removeAllListeners("end");
    which.end().catch(() => undefined);
    logger.warn({ err: error }, "change feed: lost its database connection; reconnecting");
    scheduleReconnect();
  }

  function scheduleReconnect() {
    if (closed || retryTimer) return;
    const delay = delays[Math.min(attempt, delays.length - 1)]!;
    attempt++;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      connect().then(
        () => {
          if (closed) return;
          logger.info({ attempts: attempt }, "change feed: listening again");
          attempt = 0;
          // Whatever other processes announced while this one was deaf is unknown: everyone re-reads.
          local.deliver({ type: "resync" });
        },
        (error: unknown) => {
          // While the database stays away this repeats every few seconds: said at the first failure, then about
          // once a minute, so an outage does not flood the log.
          if (attempt <= 1 || attempt % QUIET_ATTEMPTS === 0) logger.warn({ err: error, attempt }, "change feed: reconnection failed; still trying");
          scheduleReconnect();
        },
      );
    }, delay);
    retryTimer.unref();
  }

  // The first connection must work: a shop that cannot listen would serve stale pages without a word.
  await connect();

  // Changes wait here while a NOTIFY is on its way; the next one carries all of them, each once. Under load
  // (every checkout changes a plant's stock) that is one NOTIFY per round trip instead of one per order, and
  // when nothing is in flight a change still leaves at once (docs/decisions/019).
  let waiting = new Map<string, Change>();
  let sending = false;

  function sendWaiting() {
    if (sending || !waiting.size) return;
    const changes = [...waiting.values()];
    waiting = new Map();
    const payloads: string[] = [];
    let batch: Change[] = [];
    const envelope = (list: Change[]) => JSON.stringify({ from: processId, changes: list } satisfies Envelope);
    for (const change of changes) {
      if (batch.length && envelope([...batch, change]).length > MAX_PAYLOAD_CHARS) {
        payloads.push(envelope(batch));
        batch = [];
      }
      batch.push(change);
    }
    payloads.push(envelope(batch));
    sending = true;
    const statement = sql`select pg_notify(${channel}, payload) from unnest(${payloads}::text[]) with ordinality as p(payload, n) order by n`;
    statement
      .execute(db)
      .catch((error: unknown) => {
        // The changes are committed and this process knows; the others see them at their next change or resync
        // (a lost connection is no defect of ours: their LISTEN connections were lost too, and resync).
        if (!closed) (isConnectionLoss(error) ? logger.warn : logger.error).call(logger, { err: error, changes }, "change feed: could not tell the other processes");
      })
      .finally(() => {
        sending = false;
        sendWaiting();
      });
  }

  return {
    publish(trxOrDb, change) {
      afterCommit(trxOrDb, () => {
        local.deliver(change);
        waiting.set(JSON.stringify(change), change);
        sendWaiting();
      });
    },
    subscribe: (listener) => local.subscribe(listener),
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      const current = client;
      client = undefined;
      if (current) {
        current.removeAllListeners("end");
        await current.end().catch(() => undefined);
      }
      await local.close();
    },
  };
}
