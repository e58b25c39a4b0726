import { randomUUID } from "node:crypto";
import { sql, type Kysely } from "kysely";
import type pg from "pg";
import { loadPg } from "../db/load-pg.ts";
import type { Logger } from "pino";
import type { DB } from "../db/schema.ts";
import { afterCommit } from "../db/write-transaction.ts";
import { createLocalChangeFeed, type Change, type ChangeFeed } from "./change-feed.ts";

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

/** What travels in a NOTIFY payload: the change, and which process sent it (so that it does not hear itself twice). */
interface Envelope {
  from: string;
  change: Change;
}

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
    let envelope: Envelope;
    try {
      envelope = JSON.parse(message.payload) as Envelope;
    } catch {
      return; // not one of ours
    }
    if (envelope.from === processId || !envelope.change) return;
    local.deliver(envelope.change);
  };

  /** Opens the LISTEN connection; throws when it cannot. */
  async function connect(): Promise<void> {
    const next = new (loadPg().Client)({ connectionString: databaseUrl, keepAlive: true });
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
          logger.warn({ err: error, attempt }, "change feed: reconnection failed");
          scheduleReconnect();
        },
      );
    }, delay);
    retryTimer.unref();
  }

  // The first connection must work: a shop that cannot listen would serve stale pages without a word.
  await connect();

  return {
    publish(trxOrDb, change) {
      afterCommit(trxOrDb, () => {
        local.deliver(change);
        const payload = JSON.stringify({ from: processId, change } satisfies Envelope);
        sql`select pg_notify(${channel}, ${payload})`.execute(db).catch((error: unknown) => {
          // The change is committed and this process knows; the others see it at their next change or resync.
          if (!closed) logger.error({ err: error, change }, "change feed: could not tell the other processes");
        });
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
