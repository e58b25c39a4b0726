import { readdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { HeadObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { isSafeMediaName } from "../media/media-store.ts";
import type { S3BucketSettings } from "./s3-bucket.ts";
import { createS3MediaStore } from "./s3-media-store.ts";

export interface MoveResult {
  /** Pictures now in the bucket whose local copy was deleted. */
  moved: number;
  /** Files left in the folder because they are not pictures the shop made (other names, unfinished writes). */
  skipped: string[];
}

/**
 * Moves the stored pictures of a media folder (DATA_DIR/media) into the bucket, one at a time: upload, check the
 * bucket holds as many bytes (HeadObject), and only then delete the local copy. A run that stops half way leaves
 * each picture in the folder, in the bucket, or both; running again uploads whatever is still local (the same
 * bytes under the same name) and deletes it, so any number of runs ends with every picture moved once.
 */
export async function moveMediaToBucket({ mediaDir, settings, client, onMoved }: { mediaDir: string; settings: Pick<S3BucketSettings, "bucket">; client: S3Client; onMoved?: (name: string) => void }): Promise<MoveResult> {
  const store = createS3MediaStore(settings, client);
  const result: MoveResult = { moved: 0, skipped: [] };
  const entries = await readdir(mediaDir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw error;
  });
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isFile() || !isSafeMediaName(entry.name)) {
      result.skipped.push(entry.name);
      continue;
    }
    const file = path.join(mediaDir, entry.name);
    const content = await readFile(file);
    await store.put(entry.name, content);
    const head = await client.send(new HeadObjectCommand({ Bucket: settings.bucket, Key: entry.name }));
    if (head.ContentLength !== content.byteLength) {
      throw new Error(`${entry.name}: the bucket holds ${head.ContentLength ?? "no"} bytes, the folder ${content.byteLength}; the local copy is kept`);
    }
    await rm(file, { force: true });
    result.moved += 1;
    onMoved?.(entry.name);
  }
  return result;
}
