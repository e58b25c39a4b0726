import { mkdirSync } from "node:fs";
import { readdir, readFile, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { S3Client } from "@aws-sdk/client-s3";
import { DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, AbortMultipartUploadCommand } from "@aws-sdk/client-s3";
import { FileStore } from "@tus/file-store";
import { S3Store } from "@tus/s3-store";
import type { DataStore, KvStore } from "@tus/utils";
import { isMissingObject, s3ClientConfig, type S3BucketSettings } from "../object-storage/s3-bucket.ts";
import { freeDiskSpace, type FreeDiskSpace } from "./free-disk-space.ts";

/** An upload's description as the storage lists it: its id, and when it was last written (for descriptions without a date). */
export interface StoredUpload {
  id: string;
  modifiedMs: number;
}

/**
 * Where unfinished uploads live: a folder of this server (DATA_DIR/uploads) or a bucket every copy of the shop
 * shares (MEDIA_S3_*). The rest of the uploads code (protocol, owners, quota, expiry) is the same for both; only
 * these few operations differ.
 */
export interface UploadStorage {
  /** tus's store over this storage; made at the first call. */
  datastore(): DataStore;
  /** Every upload's description found in the storage. */
  list(): Promise<StoredUpload[]>;
  /** A finished upload's bytes; null when it is gone (removed meanwhile). */
  read(id: string): Promise<Buffer | null>;
  /** Deletes an upload's bytes and description; nothing when there is none. */
  remove(id: string): Promise<void>;
  /** Free space left for uploads; a bucket has no disk of ours to fill. */
  freeDiskSpace: FreeDiskSpace;
}

/** Uploads in a folder of this server: what one copy of the shop uses. */
export function folderUploadStorage(directory: string, expiryMs: number, free?: FreeDiskSpace): UploadStorage {
  let store: FileStore | undefined;
  return {
    datastore() {
      // Made at the first upload request rather than at start: the store's constructor creates its folder
      // asynchronously and throws from the callback (an uncaught exception) when that fails, e.g. when the data
      // folder is removed meanwhile, as tests do with theirs. The folder is made here first, so that call finds it
      // and a real failure is an ordinary error at the first request.
      if (store) return store;
      mkdirSync(directory, { recursive: true, mode: 0o700 });
      store = new FileStore({ directory, expirationPeriodInMilliseconds: expiryMs });
      return store;
    },
    async list() {
      mkdirSync(directory, { recursive: true, mode: 0o700 });
      const found: StoredUpload[] = [];
      for (const name of await readdir(directory)) {
        if (!name.endsWith(".json")) continue;
        const modified = await stat(path.join(directory, name)).catch(() => null);
        if (modified) found.push({ id: name.slice(0, -".json".length), modifiedMs: modified.mtimeMs });
      }
      return found;
    },
    async read(id) {
      try {
        return await readFile(path.join(directory, id));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    async remove(id) {
      await rm(path.join(directory, id), { force: true });
      await rm(path.join(directory, `${id}.json`), { force: true });
    },
    freeDiskSpace: free ?? freeDiskSpace({ directory }),
  };
}

/** Where unfinished uploads live in the bucket, apart from the stored pictures. */
export const UPLOADS_KEY_PREFIX = "uploads/";

/**
 * tus's S3 store, its objects under UPLOADS_KEY_PREFIX. The store has no option for a prefix and names objects
 * after the upload id in many places; a step on its client adds the prefix to every key it sends instead.
 */
class PrefixedS3Store extends S3Store {
  constructor(options: ConstructorParameters<typeof S3Store>[0], prefix: string) {
    super(options);
    this.client.middlewareStack.add(
      (next) => (args) => {
        const input = args.input as { Key?: string; Delete?: { Objects?: Array<{ Key?: string }> } };
        if (typeof input.Key === "string") input.Key = prefix + input.Key;
        for (const object of input.Delete?.Objects ?? []) if (typeof object.Key === "string") object.Key = prefix + object.Key;
        return next(args);
      },
      { step: "initialize", name: "plantShopUploadsPrefix" },
    );
  }
}

/**
 * tus keeps an upload's description in a cache of its process; with several copies another one may have removed the
 * upload meanwhile, so every request reads the description from the bucket (one small GET).
 */
const noCache: KvStore<never> = {
  get: () => Promise.resolve(undefined),
  set: () => Promise.resolve(),
  delete: () => Promise.resolve(),
  list: () => Promise.resolve([]),
};

/**
 * Uploads in the bucket through tus's S3 store: a multipart upload per tus upload, `<id>.info` its description,
 * `<id>.part` a chunk too small for a part yet. Every copy of the shop sees the same uploads. `client` is the
 * process's client of the bucket (the stored pictures' too) for listing, reading and removing; tus's store keeps a
 * client of its own, which adds the uploads' prefix to every key and sends checksums only where S3 requires them.
 */
export function bucketUploadStorage(settings: S3BucketSettings, expiryMs: number, client: S3Client): UploadStorage {
  let store: S3Store | undefined;
  const bucket = settings.bucket;
  const key = (name: string) => UPLOADS_KEY_PREFIX + name;
  const storage: UploadStorage = {
    datastore() {
      store ??= new PrefixedS3Store(
        {
          // A chunk is streamed, its length unknown to the SDK, which then sends it aws-chunked with a trailing
          // checksum by default; S3-compatible services that do not decode that store the framing or lose bytes
          // (the tests' s3rver among them). Checksums only where S3 requires them, as before the SDK's default changed.
          s3ClientConfig: { ...s3ClientConfig(settings), bucket, requestChecksumCalculation: "WHEN_REQUIRED" },
          // The browser sends 5 MiB chunks (UPLOAD_CHUNK_BYTES), S3's least part size: each full chunk is one part.
          partSize: 5 * 1024 * 1024,
          cache: noCache,
          // Told for the Upload-Expires header; the shop sweeps expired uploads itself (removeExpired) rather than
          // by object tags, which not every S3-compatible service keeps.
          expirationPeriodInMilliseconds: expiryMs,
          useTags: false,
        },
        UPLOADS_KEY_PREFIX,
      );
      // tus's termination (the owner's DELETE) removes as the shop does: the store's own stops at a finished upload.
      store.remove = (id) => storage.remove(id);
      return store;
    },
    async list() {
      const found: StoredUpload[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: UPLOADS_KEY_PREFIX, ContinuationToken: token }));
        for (const object of page.Contents ?? []) {
          const name = object.Key?.slice(UPLOADS_KEY_PREFIX.length) ?? "";
          if (name.endsWith(".info")) found.push({ id: name.slice(0, -".info".length), modifiedMs: object.LastModified?.getTime() ?? 0 });
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return found;
    },
    async read(id) {
      // Read whole into memory: an upload is at most 20 MB and the media pipeline decodes from a buffer anyway (it
      // read the folder's file whole too), so a temporary file would only add a copy on disk.
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key(id) }));
        return object.Body ? Buffer.from(await object.Body.transformToByteArray()) : null;
      } catch (error) {
        if (isMissingObject(error)) return null;
        throw error;
      }
    },
    async remove(id) {
      // tus's own removal stops at a finished upload (its multipart upload is gone) before deleting the objects.
      const info = await readUploadIdOf(client, bucket, key(`${id}.info`));
      if (info) {
        await client
          .send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key(id), UploadId: info }))
          .catch(() => undefined); // finished, or aborted already
      }
      await client.send(
        new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: [{ Key: key(id) }, { Key: key(`${id}.info`) }, { Key: key(`${id}.part`) }], Quiet: true } }),
      );
    },
    freeDiskSpace: () => Promise.resolve(Number.POSITIVE_INFINITY),
  };
  return storage;
}

/** The multipart upload's id tus wrote in an upload's description, or undefined when there is none. */
async function readUploadIdOf(client: S3Client, bucket: string, infoKey: string): Promise<string | undefined> {
  try {
    const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: infoKey }));
    await object.Body?.transformToByteArray();
    return object.Metadata?.["upload-id"];
  } catch (error) {
    if (isMissingObject(error)) return undefined;
    throw error;
  }
}
