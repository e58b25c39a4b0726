import { MemoryLocker, Server } from "@tus/server";
import type { Locker } from "@tus/utils";
import { MAX_UPLOAD_BYTES, UPLOAD_CHUNK_BYTES, UPLOAD_PURPOSES, type UploadPurpose } from "#common/shared/uploads.ts";
import { messages } from "#common/shared/messages.ts";
import type { Database } from "../db/client.ts";
import { ForbiddenError, InvalidInputError, NotFoundError, ServiceError, UnauthorizedError } from "../errors.ts";
import type { SessionUser } from "../session-user.ts";
import type { FreeDiskSpace } from "./free-disk-space.ts";
import { folderUploadStorage, type UploadStorage } from "./upload-storage.ts";
import { createUploadQuota, type HeldUpload, type Reservation, type UploadQuotaSettings } from "./upload-quota.ts";

/** tus names uploads with 16 random bytes in hex; nothing else may reach the disk as an upload id. */
const UPLOAD_ID = /^[0-9a-f]{32}$/;

/**
 * The upload a request's URL names: the last segment of its path, when it is an id this store makes. The one reading
 * of the id, for the owner check and for tus alike: tus's own takes the end of the whole URL, query string included,
 * so `…/<mine>?x=/<theirs>` would pass the check on one upload and reach the other.
 */
function uploadIdIn(url: string): string | undefined {
  const id = new URL(url).pathname.split("/").pop() ?? "";
  return UPLOAD_ID.test(id) ? id : undefined;
}

/** Set by us on the request handed to tus (a client's own copy is dropped), read back in onUploadCreate. */
const UPLOADER_HEADER = "x-plant-shop-uploader";
/** Names the quota reservation of a creation handed to tus (dropped from clients' requests too). */
const RESERVATION_HEADER = "x-plant-shop-reservation";
/** Unfinished uploads, and finished ones no form used, are deleted this long after they began (tus expiration). */
export const UPLOAD_EXPIRY_MS = 24 * 60 * 60 * 1000;

/** The quotas when none are given (tests of the protocol alone): the shop's defaults, as server/config.ts has them. */
const DEFAULT_QUOTA: UploadQuotaSettings = {
  perAccountBytes: 1024 * 1024 * 1024,
  totalBytes: 4 * 1024 * 1024 * 1024,
  minFreeDiskBytes: 512 * 1024 * 1024,
};

/**
 * Where the raw uploads live: a folder (DATA_DIR/uploads), whose disk's free space the quota keeps a reserve of, or
 * another storage (the bucket, with MEDIA_S3_*), which says its own free space.
 */
type UploadsPlace =
  | {
      directory: string;
      storage?: never;
      /** Free space of the folder's disk; statfs, read at most once a second, unless given (tests). */
      freeDiskSpace?: FreeDiskSpace;
    }
  | { storage: (expiryMs: number) => UploadStorage; directory?: never; freeDiskSpace?: never };

export type ResumableUploadsOptions = UploadsPlace & {
  /** Where the quotas' tally is kept (table upload_holds), shared by every copy on the same database. */
  database: Pick<Database, "db" | "dialect">;
  /** Who may write to an upload at a time: tus's in-process locks unless given (PostgreSQL's, with several copies). */
  locker?: Locker;
  /** Where the endpoint is mounted, e.g. /api/uploads. */
  basePath: string;
  expiryMs?: number;
  maxBytes?: number;
  /** How much unfinished uploads may hold, per account and in all, and the disk's reserve (decision 035). */
  quota?: UploadQuotaSettings;
};

/** A finished upload, ready to be read once and removed. */
export interface FinishedUpload {
  id: string;
  /** Its bytes; refused as not found when the upload was removed meanwhile (e.g. by its owner). */
  read(): Promise<Buffer>;
  size: number;
  purpose: UploadPurpose;
}

export type ResumableUploads = ReturnType<typeof createResumableUploads>;

/**
 * Resumable uploads over the tus protocol (https://tus.io/protocols/resumable-upload): the browser creates an
 * upload, sends it in 5 MiB PATCHes and, after a dropped connection, asks (HEAD) how much arrived and goes on
 * from there. Each upload belongs to the person who created it; the raw bytes never leave this folder except
 * through `takeFinished`, which hands them to the media pipeline (decision 022).
 */
export function createResumableUploads(options: ResumableUploadsOptions) {
  const expiryMs = options.expiryMs ?? UPLOAD_EXPIRY_MS;
  const maxBytes = options.maxBytes ?? MAX_UPLOAD_BYTES;
  const storage = options.storage ? options.storage(expiryMs) : folderUploadStorage(options.directory, expiryMs, options.freeDiskSpace);
  /** Creations handed to tus, by reservation token: onUploadCreate puts the room under the id tus chose. */
  const creating = new Map<string, { reservation: Reservation; id?: string }>();
  let nextCreation = 0;
  const quota = createUploadQuota({
    database: options.database,
    settings: options.quota ?? DEFAULT_QUOTA,
    freeDiskSpace: options.freeDiskSpace ?? storage.freeDiskSpace,
    listHeld,
  });
  /** tus's server, made at the first upload request (with the store, see folderUploadStorage). */
  let engine: { store: ReturnType<UploadStorage["datastore"]>; tus: Server } | undefined;
  function tusEngine() {
    if (engine) return engine;
    const store = storage.datastore();
    const tus = new Server({
      path: options.basePath,
      datastore: store,
      locker: options.locker ?? new MemoryLocker(),
      maxSize: maxBytes,
      relativeLocation: true,
      // tus answers every origin with `Access-Control-Allow-Origin: *` unless told otherwise. The shop's pages send
      // uploads from their own origin, which needs no CORS header; no other site's page may read the answers.
      allowedOrigins: () => false,
      // The upload id is the capability to continue an upload: only its owner may use it (checked in `handle`, on
      // the id read the same way).
      getFileIdFromRequest: (request) => uploadIdIn(request.url),
      disableTerminationForFinishedUploads: false,
      async onUploadCreate(request, upload) {
        const uploader = request.headers.get(UPLOADER_HEADER);
        if (!uploader) throw tusError(401, messages.uploads.loginFirst);
        // The id is known here, before tus writes anything: from now on the room is the upload's, even if what
        // follows fails half-way with files left on disk.
        const creation = creating.get(request.headers.get(RESERVATION_HEADER) ?? "");
        if (creation) {
          await creation.reservation.keep(upload.id);
          creation.id = upload.id;
        }
        return { metadata: { ...upload.metadata, uploader } };
      },
    });
    engine = { store, tus };
    return engine;
  }

  /** An upload's description and how much of it arrived (the file's size), or null when there is none. */
  async function readInfo(id: string): Promise<UploadInfo | null> {
    if (!UPLOAD_ID.test(id)) return null;
    try {
      const upload = await tusEngine().store.getUpload(id);
      return { id, size: upload.size, offset: upload.offset, creation_date: upload.creation_date, metadata: upload.metadata };
    } catch {
      return null;
    }
  }

  async function removeUpload(id: string): Promise<void> {
    if (!UPLOAD_ID.test(id)) return;
    await storage.remove(id);
    await quota.forget(id);
  }

  /**
   * After tus answered a creation: a reservation tus never reached (refused before onUploadCreate) is released; one
   * it reached stays with its upload while the upload's description is on disk.
   */
  async function settleCreation(token: string, created: boolean): Promise<void> {
    const creation = creating.get(token);
    creating.delete(token);
    if (!creation || created) return;
    if (creation.id === undefined) await creation.reservation.release();
    else if (!(await readInfo(creation.id))) await quota.forget(creation.id);
  }

  /** Every upload in the storage at the length it declared (the quota's reading of it). */
  async function listHeld(): Promise<HeldUpload[]> {
    tusEngine();
    const uploads: HeldUpload[] = [];
    for (const { id } of await storage.list()) {
      const info = await readInfo(id);
      if (!info) continue;
      const uploader = info.metadata?.uploader;
      uploads.push({ id: info.id, uploader: typeof uploader === "string" ? uploader : "", bytes: info.size ?? maxBytes });
    }
    return uploads;
  }

  return {
    /**
     * Answers one tus request for `user`. Creating needs an admin, a purpose (a product or category image), a
     * declared length within 20 MB, and room within the quotas; every later request needs the upload's owner.
     * Reading an upload back (GET) is not offered: the raw bytes are never served.
     */
    async handle(request: Request, user: SessionUser | null): Promise<Response> {
      if (request.method === "OPTIONS") return tusEngine().tus.handleWeb(request);
      if (!user) throw new UnauthorizedError(messages.uploads.loginFirst);
      const headers = new Headers(request.headers);
      headers.delete(UPLOADER_HEADER);
      headers.delete(RESERVATION_HEADER);
      // tus would take the method from this header: the method checked below must be the one it runs.
      headers.delete("x-http-method-override");
      // Concatenation (joining partial uploads) is an extension the file store lacks: tus would answer 501.
      if (request.headers.has("upload-concat")) throw new InvalidInputError(messages.uploads.concatNotSupported);
      let token: string | undefined;
      if (request.method === "POST") {
        // Only the catalogue's pictures are sent this way (decision 035): nothing a shopper does uses an upload.
        if (!user.isAdmin) throw new ForbiddenError(messages.uploads.adminsOnly);
        const purpose = parseMetadata(request.headers.get("upload-metadata")).purpose;
        if (!isPurpose(purpose)) throw new InvalidInputError(messages.uploads.unknownPurpose);
        const length = declaredLength(request.headers);
        if (length > maxBytes) throw new ServiceError(413, messages.uploads.tooLarge);
        token = String(nextCreation++);
        creating.set(token, { reservation: await quota.reserve(user.id, length) });
        headers.set(UPLOADER_HEADER, user.id);
        headers.set(RESERVATION_HEADER, token);
      } else if (request.method === "HEAD" || request.method === "PATCH" || request.method === "DELETE") {
        const id = uploadIdIn(request.url);
        const info = id === undefined ? null : await readInfo(id);
        // Somebody else's upload looks exactly like one that does not exist.
        if (!info || info.metadata?.uploader !== user.id) throw new NotFoundError(messages.uploads.notFound);
      } else {
        return new Response(null, { status: 405, headers: { Allow: "OPTIONS, POST, HEAD, PATCH, DELETE" } });
      }
      let created = false;
      try {
        const forwarded = new Request(request.url, {
          method: request.method,
          headers,
          body: request.body,
          signal: request.signal,
          // Node's fetch types need this to stream a request body through.
          ...(request.body ? { duplex: "half" } : {}),
        } as RequestInit);
        const response = await tusEngine().tus.handleWeb(forwarded);
        created = response.status === 201;
        if (request.method === "DELETE" && response.status === 204) {
          const id = uploadIdIn(request.url);
          if (id) await quota.forget(id);
        }
        return response;
      } finally {
        if (token !== undefined) await settleCreation(token, created);
      }
    },

    /**
     * The finished upload `id` of `uploaderId`, for the media pipeline to read; refused with a message a person
     * can act on when it is somebody else's, unknown, expired or not finished.
     */
    async takeFinished(id: string, uploaderId: string): Promise<FinishedUpload> {
      const info = await readInfo(id);
      if (!info || info.metadata?.uploader !== uploaderId) throw new InvalidInputError(messages.uploads.notFound);
      if (info.size === undefined || info.offset !== info.size) throw new InvalidInputError(messages.uploads.notFinished);
      const purpose = info.metadata.purpose;
      return {
        id,
        size: info.size,
        async read() {
          const bytes = await storage.read(id);
          if (!bytes) throw new InvalidInputError(messages.uploads.notFound);
          return bytes;
        },
        purpose: isPurpose(purpose) ? purpose : "product",
      };
    },

    /** Deletes an upload's bytes and description (after the media pipeline used or refused it). */
    remove: removeUpload,

    /**
     * Deletes every upload begun more than the expiry ago, finished or not (a finished one no form used is as
     * dead as an abandoned one). Its cost grows with the uploads in the folder, not with the shop: run by a timer.
     */
    async removeExpired(now = Date.now()): Promise<number> {
      let removed = 0;
      for (const { id, modifiedMs } of await storage.list()) {
        const info = await readInfo(id);
        const began = info?.creation_date ? Date.parse(info.creation_date) : NaN;
        const age = Number.isNaN(began) ? now - modifiedMs : now - began;
        if (age <= expiryMs) continue;
        await removeUpload(id);
        removed++;
      }
      // The sweep's reading of the folder also corrects the quota's tally (e.g. uploads removed by hand).
      await quota.resync(now);
      return removed;
    },

    /** Chunk size the browser uses; here so the server and its tests agree with the client. */
    chunkBytes: UPLOAD_CHUNK_BYTES,
  };
}

interface UploadInfo {
  id: string;
  size?: number | undefined;
  offset: number;
  creation_date?: string | undefined;
  metadata?: Record<string, string | null> | undefined;
}

function isPurpose(value: unknown): value is UploadPurpose {
  return typeof value === "string" && (UPLOAD_PURPOSES as readonly string[]).includes(value);
}

/**
 * The Upload-Length a new upload declares, read as tus reads it (a plain non-negative integer); anything else,
 * Upload-Defer-Length included, is refused: the quota is taken for the declared length before any byte arrives.
 */
function declaredLength(headers: Headers): number {
  const value = headers.get("upload-length");
  const length = Number(value);
  if (headers.has("upload-defer-length") || value === null || !Number.isSafeInteger(length) || length < 0 || String(length) !== value) {
    throw new InvalidInputError(messages.uploads.lengthRequired);
  }
  return length;
}

/** tus's Upload-Metadata: comma-separated `key base64value` pairs. */
function parseMetadata(header: string | null): Record<string, string> {
  const result: Record<string, string> = {};
  for (const pair of (header ?? "").split(",")) {
    const [key, value] = pair.trim().split(" ");
    if (!key) continue;
    result[key] = value ? Buffer.from(value, "base64").toString("utf8") : "";
  }
  return result;
}

/** The shape tus expects a hook to throw to answer with a status and body. */
function tusError(status: number, body: string) {
  return { status_code: status, body };
}
