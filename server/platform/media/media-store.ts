import { createReadStream } from "node:fs";
import { mkdir, open, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";

/** One stored file as the server hands it out. */
export interface StoredMedia {
  body: ReadableStream<Uint8Array>;
  size: number;
}

/**
 * Where finished images live, by name (decision 022). The local folder below is the default; an S3-compatible
 * bucket implements the same three calls (PutObject, GetObject, DeleteObject), and names are already flat,
 * random and safe as object keys.
 */
export interface MediaStore {
  /** Stores `content` under `name`, whole or not at all. */
  put(name: string, content: Uint8Array): Promise<void>;
  /** The file, or null when there is none. */
  get(name: string): Promise<StoredMedia | null>;
  /** Deletes the file; one already gone is fine. */
  delete(name: string): Promise<void>;
}

/** Names the media service makes: hex, dashes, one extension. Nothing else reaches the folder (no "../"). */
const SAFE_NAME = /^[0-9a-f][0-9a-f-]{0,100}\.(?:webp|avif)$/;

export function isSafeMediaName(name: string): boolean {
  return SAFE_NAME.test(name);
}

/** Files in one folder (DATA_DIR/media), readable only by the shop's own user (decision 015). */
export function createLocalMediaStore(directory: string): MediaStore {
  const resolve = (name: string) => {
    if (!isSafeMediaName(name)) throw new RangeError(`Not a media name: ${name}`);
    return path.join(directory, name);
  };
  return {
    async put(name, content) {
      const target = resolve(name);
      await mkdir(directory, { recursive: true, mode: 0o700 });
      // Written under a temporary name and renamed, so the final name only ever holds a complete file.
      const temporary = path.join(directory, `.${name}.tmp`);
      try {
        const file = await open(temporary, "wx", 0o600);
        try {
          await file.writeFile(content);
          await file.sync();
        } finally {
          await file.close();
        }
        await rename(temporary, target);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    },
    async get(name) {
      if (!isSafeMediaName(name)) return null;
      const file = path.join(directory, name);
      const info = await stat(file).catch(() => null);
      if (!info?.isFile()) return null;
      return { body: Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>, size: info.size };
    },
    async delete(name) {
      if (!isSafeMediaName(name)) return;
      await rm(path.join(directory, name), { force: true });
    },
  };
}
