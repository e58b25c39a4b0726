import { randomUUID } from "node:crypto";
import { ERRORS, type Lock, type Locker, type RequestRelease } from "@tus/utils";
import type pg from "pg";
import type { Logger } from "pino";
import { loadPg } from "../db/load-pg.ts";

/** The first key of the two-key advisory locks this shop takes on PostgreSQL ('PS' + 3): uploads being written. */
export const UPLOAD_LOCKS = 0x5053_0003;
/** Where a request waiting for an upload asks its holder, in whichever copy it is, to let go. */
export const DEFAULT_RELEASE_CHANNEL = "plant_shop_upload_release";
/** How long a request waits for an upload's lock before tus answers it with a timeout (tus's MemoryLocker's own). */
const ACQUIRE_TIMEOUT_MS = 30_000;
/** Between two attempts at a lock held in another copy: it is let go when that copy's request ends. */
const RETRY_MS = 50;

export interface PostgresUploadLocker extends Locker {
  close(): Promise<void>;
}

/**
 * tus's upload locks shared by every copy of the shop on one PostgreSQL database, so that two copies never write
 * to one upload at once (a browser that lost its connection to one copy resumes on another). Each lock is a
 * session-level advisory lock taken on one connection this process keeps for them; PostgreSQL frees them all when
 * that connection ends, so a copy that dies holds nothing. Advisory locks are re-entrant within a session: two
 * requests of this process for one upload are told apart by the process's own map first.
 *
 * tus asks the holder to let go when another request wants the upload (a client resuming after a stall): the
 * waiting request sends NOTIFY with the upload's id, and the copy holding it ends its request, which unlocks.
 */
export function createPostgresUploadLocker(options: {
  databaseUrl: string;
  logger: Logger;
  channel?: string;
  acquireTimeoutMs?: number;
}): PostgresUploadLocker {
  const channel = options.channel ?? DEFAULT_RELEASE_CHANNEL;
  const timeoutMs = options.acquireTimeoutMs ?? ACQUIRE_TIMEOUT_MS;
  /** Uploads this process holds, and how to ask each holder to let go. */
  const held = new Map<string, RequestRelease>();
  const processId = randomUUID();
  /** Woken when this process lets go of a lock, so a local waiter tries again at once. */
  const waiters = new Set<() => void>();
  let connecting: Promise<pg.Client> | undefined;
  let closed = false;

  function connection(): Promise<pg.Client> {
    connecting ??= (async () => {
      const Pg = loadPg();
      const client = new Pg.Client({ connectionString: options.databaseUrl });
      client.on("error", (error) => {
        // Its locks ended with the session: the requests holding them finish, the next lock opens a new one.
        options.logger.warn({ err: error }, "upload locks' connection lost");
        connecting = undefined;
        void client.end().catch(() => undefined);
      });
      client.on("notification", (message) => {
        if (message.channel !== channel || !message.payload) return;
        // `<process>:<upload id>`. Its own requests are not this process's to end: one of them may be the sender,
        // trying again, which holds the map's entry for the moment it asks PostgreSQL.
        const [from, id] = message.payload.split(":");
        if (from !== processId && id) void held.get(id)?.();
      });
      try {
        await client.connect();
        await client.query(`listen ${client.escapeIdentifier(channel)}`);
      } catch (error) {
        connecting = undefined;
        await client.end().catch(() => undefined);
        throw error;
      }
      return client;
    })();
    return connecting;
  }

  /** Who holds an upload's lock is known by a hash of its id: a clash only makes two uploads wait for each other. */
  const keyOf = (id: string) => hash32(id);

  function newLock(id: string): Lock {
    let mine = false;
    return {
      async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          if (signal.aborted || closed || Date.now() >= deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
          const local = held.get(id);
          if (local) {
            await local();
          } else {
            // Taken in the map before the database answers, so this process asks PostgreSQL once per upload.
            held.set(id, requestRelease);
            let taken = false;
            try {
              const client = await connection();
              const result = await client.query<{ taken: boolean }>("select pg_try_advisory_lock($1, $2) as taken", [UPLOAD_LOCKS, keyOf(id)]);
              taken = result.rows[0]?.taken === true;
              if (!taken) await client.query("select pg_notify($1, $2)", [channel, `${processId}:${id}`]);
            } finally {
              if (!taken) {
                held.delete(id);
                wake();
              }
            }
            if (taken) {
              mine = true;
              return;
            }
          }
          await pause(signal, Math.min(RETRY_MS, Math.max(0, deadline - Date.now())));
        }
      },
      async unlock(): Promise<void> {
        if (!mine) throw new Error("Releasing an unlocked lock!");
        mine = false;
        try {
          const client = await connecting;
          await client?.query("select pg_advisory_unlock($1, $2)", [UPLOAD_LOCKS, keyOf(id)]);
        } finally {
          held.delete(id);
          wake();
        }
      },
    };
  }

  function wake() {
    for (const waiter of [...waiters]) waiter();
  }

  /** Waits for the retry delay, a local unlock, or the request's end, whichever comes first. */
  function pause(signal: AbortSignal, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        waiters.delete(done);
        signal.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      waiters.add(done);
      signal.addEventListener("abort", done);
    });
  }

  return {
    newLock,
    async close() {
      closed = true;
      const client = await connecting?.catch(() => undefined);
      connecting = undefined;
      await client?.end().catch(() => undefined);
    },
  };
}

/** A 32-bit signed hash of an upload id (FNV-1a), the second key of its advisory lock. */
function hash32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}
