import { messages } from "#common/shared/messages.ts";
import { ServiceError } from "../errors.ts";
import type { FreeDiskSpace } from "./free-disk-space.ts";

const MB = 1024 * 1024;

/**
 * The least an upload is counted at, whatever it declares: each one is a file and its description on disk, and
 * without a floor a quota in bytes would let an account keep any number of empty uploads.
 */
export const UPLOAD_MIN_CHARGE_BYTES = MB;

export interface UploadQuotaSettings {
  /** Declared bytes one account's uploads not yet used (or removed) may hold together. */
  perAccountBytes: number;
  /** The same, for every account together. */
  totalBytes: number;
  /** New uploads are refused when the disk would have less than this left after them. */
  minFreeDiskBytes: number;
}

/** What is held on disk for one upload: who made it and how much it may grow to. */
export interface HeldUpload {
  id: string;
  uploader: string;
  bytes: number;
}

/** Room taken for an upload being created: kept under its id once tus has made it, released when it was not. */
export interface Reservation {
  keep(id: string): void;
  release(): void;
}

export type UploadQuota = ReturnType<typeof createUploadQuota>;

/**
 * The disk quotas of unfinished uploads. An upload counts from the moment it is created until its file is removed
 * (used by a form, refused by the pipeline, abandoned, or expired) at the length it DECLARED, not what has arrived:
 * tus never stores more than that, so a client cannot declare little and write much, and the room an upload may
 * grow to is taken before its first byte. The tally lives in this process (the uploads folder is this server's
 * own, like tus's locks): it is read from the folder at first use, kept up to date by every create and removal
 * made through it, and read again from the folder by each expiry sweep (`resync`). A check and its reservation
 * happen in one turn of the event loop, so parallel creations cannot both take the last room.
 */
export function createUploadQuota(options: {
  settings: UploadQuotaSettings;
  freeDiskSpace: FreeDiskSpace;
  /** Every upload in the folder, as its description says. */
  listHeld: () => Promise<HeldUpload[]>;
}) {
  const { settings } = options;
  const held = new Map<string, { uploader: string; bytes: number }>();
  const byAccount = new Map<string, number>();
  let total = 0;
  let nextReservation = 0;
  /** Ids forgotten while the folder is being read, so the reading cannot bring them back. */
  let forgottenDuringScan: Set<string> | undefined;
  let loaded: Promise<void> | undefined;

  function add(key: string, uploader: string, bytes: number) {
    forget(key);
    held.set(key, { uploader, bytes });
    byAccount.set(uploader, (byAccount.get(uploader) ?? 0) + bytes);
    total += bytes;
  }

  function forget(key: string) {
    forgottenDuringScan?.add(key);
    const entry = held.get(key);
    if (!entry) return;
    held.delete(key);
    const left = (byAccount.get(entry.uploader) ?? 0) - entry.bytes;
    if (left > 0) byAccount.set(entry.uploader, left);
    else byAccount.delete(entry.uploader);
    total -= entry.bytes;
  }

  /** Reads the folder and makes the tally agree with it, keeping what changed while it was read. */
  async function resync(): Promise<void> {
    const before = new Set([...held.keys()].filter((key) => !key.startsWith("reserving:")));
    const forgotten = new Set<string>();
    forgottenDuringScan = forgotten;
    try {
      const onDisk = await options.listHeld();
      const found = new Set(onDisk.map((upload) => upload.id));
      for (const key of before) if (!found.has(key)) forget(key);
      for (const upload of onDisk) {
        if (!held.has(upload.id) && !forgotten.has(upload.id)) add(upload.id, upload.uploader, charge(upload.bytes));
      }
    } finally {
      if (forgottenDuringScan === forgotten) forgottenDuringScan = undefined;
    }
  }

  /** The first reading of the folder, which every check waits for; when it fails, the next check reads again. */
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
      // From here to the end, no await: the check and the reservation are one step.
      const bytes = charge(declaredBytes);
      if ((byAccount.get(uploader) ?? 0) + bytes > settings.perAccountBytes) {
        throw new ServiceError(413, messages.uploads.accountQuotaReached(Math.floor(settings.perAccountBytes / MB)));
      }
      if (total + bytes > settings.totalBytes) throw new ServiceError(413, messages.uploads.shopQuotaReached);
      if (free - declaredBytes < settings.minFreeDiskBytes) throw new ServiceError(413, messages.uploads.diskNearlyFull);
      const key = `reserving:${nextReservation++}`;
      add(key, uploader, bytes);
      let settled = false;
      return {
        keep(id) {
          if (settled) return;
          settled = true;
          forget(key);
          add(id, uploader, bytes);
        },
        release() {
          if (settled) return;
          settled = true;
          forget(key);
        },
      };
    },
    /** The upload `id` was removed: its room is free again. */
    forget,
    /** Reads the folder again (the expiry sweep, which reads it anyway): what vanished from it is no longer counted. */
    async resync(): Promise<void> {
      const reading = resync();
      loaded ??= firstReading(reading);
      await reading;
    },
  };
}

function charge(declaredBytes: number): number {
  return Math.max(declaredBytes, UPLOAD_MIN_CHARGE_BYTES);
}
