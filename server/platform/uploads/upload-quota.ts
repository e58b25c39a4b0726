import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { messages } from "#common/shared/messages.ts";
import type { Database } from "../db/client.ts";
import { inWriteTransaction } from "../db/write-transaction.ts";
import { ServiceError } from "../errors.ts";
import type { FreeDiskSpace } from "./free-disk-space.ts";

const MB = 1024 * 1024;

/**
 * The least an upload is counted at, whatever it declares: each one is a file and its description on disk, and
 * without a floor a quota in bytes would let an account keep any number of empty uploads.
 */
export const UPLOAD_MIN_CHARGE_BYTES = MB;

/**
 * How young a row the expiry sweep's reading leaves alone when the storage does not list it. tus names an upload
 * (and the row takes that name) just before it writes the upload's first file, so a listing made in between would
 * miss an upload that is about to be there; the sweep runs hourly, and a row this old with no upload behind it has
 * truly lost it.
 */
export const UPLOAD_HOLD_SETTLE_MS = 60_000;

// The advisory lock every quota check takes on PostgreSQL (the shop's two-key locks, 'PS' + 4; see
// write-transaction.ts): the shop-wide total is one sum, so two creations on any copies are checked one at a time.
const UPLOAD_QUOTA_LOCK = 0x5053_0004;

export interface UploadQuotaSettings {
  /** Declared bytes one account's uploads not yet used (or removed) may hold together. */
  perAccountBytes: number;
  /** The same, for every account together. */
  totalBytes: number;
  /** New uploads are refused when the disk would have less than this left after them. */
  minFreeDiskBytes: number;
}

/** What is held in the storage for one upload: who made it and how much it may grow to. */
export interface HeldUpload {
  id: string;
  uploader: string;
  bytes: number;
}

/** Room taken for an upload being created: kept under its id once tus has made it, released when it was not. */
export interface Reservation {
  keep(id: string): Promise<void>;
  release(): Promise<void>;
}

export type UploadQuota = ReturnType<typeof createUploadQuota>;

/**
 * The quotas of unfinished uploads. An upload counts from the moment it is created until its files are removed
 * (used by a form, refused by the pipeline, abandoned, or expired) at the length it DECLARED, not what has arrived:
 * tus never stores more than that, so a client cannot declare little and write much, and the room an upload may
 * grow to is taken before its first byte.
 *
 * The tally is the table `upload_holds`, one row per upload, so every server copy sharing the uploads' bucket
 * counts the same uploads: a check and its reservation are one write transaction (SQLite's writers are serial; on
 * PostgreSQL each takes one advisory lock first), so creations on any copies cannot both take the last room. The
 * rows are kept by every creation and removal made through here, and made to agree with the storage by each expiry
 * sweep (`resync`), which also counts uploads the table never knew (made before it existed) and forgets what was
 * removed by hand. The table holds at most one row per MB of the shop-wide quota (4,096 by default): the least
 * charge bounds it, so summing it costs the same whatever the shop sells.
 */
export function createUploadQuota(options: {
  database: Pick<Database, "db" | "dialect">;
  settings: UploadQuotaSettings;
  freeDiskSpace: FreeDiskSpace;
  /** Every upload in the storage, as its description says. */
  listHeld: () => Promise<HeldUpload[]>;
  now?: () => number;
}) {
  const { database, settings } = options;
  const { db } = database;
  const now = options.now ?? Date.now;
  let loaded: Promise<void> | undefined;

  async function forget(id: string): Promise<void> {
    await db.deleteFrom("upload_holds").where("id", "=", id).execute();
  }

  /**
   * Reads the storage and makes the table agree with it: an upload it lists that has no row is counted from now;
   * a row it does not list is forgotten once it is older than the settling time (a creation whose row was made
   * just before its files is not lost, and a reservation whose creation died with its process ends there too).
   */
  async function resync(at = now()): Promise<void> {
    const listed = await options.listHeld();
    const rows = await db.selectFrom("upload_holds").select(["id", "held_since"]).execute();
    const known = new Set(rows.map((row) => row.id));
    const found = new Set(listed.map((upload) => upload.id));
    const lost = rows.filter((row) => !found.has(row.id) && Number(row.held_since) < at - UPLOAD_HOLD_SETTLE_MS).map((row) => row.id);
    const unknown = listed.filter((upload) => !known.has(upload.id));
    for (let start = 0; start < lost.length; start += BATCH) {
      await db.deleteFrom("upload_holds").where("id", "in", lost.slice(start, start + BATCH)).execute();
    }
    for (let start = 0; start < unknown.length; start += BATCH) {
      const values = unknown.slice(start, start + BATCH).map((upload) => ({ id: upload.id, uploader: upload.uploader, bytes: charge(upload.bytes), held_since: at }));
      // Another copy's sweep, or the creation itself, may have written the row since it was read: theirs stands.
      await db.insertInto("upload_holds").values(values).onConflict((conflict) => conflict.column("id").doNothing()).execute();
    }
  }

  /** The first reading of the storage by this process, which every check waits for; when it fails, the next check reads again. */
  function firstReading(reading: Promise<void>): Promise<void> {
    return reading.catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
  }

  return {
    /**
     * Takes room for a new upload of `declaredBytes` by `uploader`, or refuses with 413 and a message saying whose
     * room ran out: the account's, the shop's, or the disk's (below its reserve).
     */
    async reserve(uploader: string, declaredBytes: number): Promise<Reservation> {
      await (loaded ??= firstReading(resync()));
      const free = await options.freeDiskSpace();
      const bytes = charge(declaredBytes);
      const key = `reserving:${randomUUID()}`;
      await inWriteTransaction(database, async (trx) => {
        if (database.dialect === "postgres") await sql`select pg_advisory_xact_lock(${sql.lit(UPLOAD_QUOTA_LOCK)}, 0)`.execute(trx);
        const held = await trx
          .selectFrom("upload_holds")
          .select([
            sql<number | string | null>`sum(bytes)`.as("total"),
            sql<number | string | null>`sum(case when uploader = ${uploader} then bytes else 0 end)`.as("mine"),
          ])
          .executeTakeFirstOrThrow();
        if (Number(held.mine ?? 0) + bytes > settings.perAccountBytes) {
          throw new ServiceError(413, messages.uploads.accountQuotaReached(Math.floor(settings.perAccountBytes / MB)));
        }
        if (Number(held.total ?? 0) + bytes > settings.totalBytes) throw new ServiceError(413, messages.uploads.shopQuotaReached);
        if (free - declaredBytes < settings.minFreeDiskBytes) throw new ServiceError(413, messages.uploads.diskNearlyFull);
        await trx.insertInto("upload_holds").values({ id: key, uploader, bytes, held_since: now() }).execute();
      });
      let settled = false;
      return {
        async keep(id) {
          if (settled) return;
          settled = true;
          await db.updateTable("upload_holds").set({ id, held_since: now() }).where("id", "=", key).execute();
        },
        async release() {
          if (settled) return;
          settled = true;
          await forget(key);
        },
      };
    },
    /** The upload `id` was removed: its room is free again. */
    forget,
    /**
     * Reads the storage again (the expiry sweep, which reads it anyway): what vanished from it is no longer counted,
     * what the table did not know is. `at` is the sweep's time.
     */
    async resync(at?: number): Promise<void> {
      const reading = resync(at);
      loaded ??= firstReading(reading);
      await reading;
    },
  };
}

/** Rows deleted or inserted per statement by a sweep: well inside both databases' limits on parameters. */
const BATCH = 500;

function charge(declaredBytes: number): number {
  return Math.max(declaredBytes, UPLOAD_MIN_CHARGE_BYTES);
}
