import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { isSafeMediaName, type MediaStore } from "../media/media-store.ts";
import { isMissingObject, type S3BucketSettings } from "./s3-bucket.ts";

/**
 * Names are random and never reused (a changed picture gets a new name), so an object never changes: browsers and
 * any CDN in front of the bucket may keep it for a year without asking again.
 */
export const MEDIA_OBJECT_CACHE_CONTROL = "public, max-age=31536000, immutable";

export function mediaContentType(name: string): string {
  return name.endsWith(".avif") ? "image/avif" : "image/webp";
}

/**
 * Stored pictures as objects of an S3-compatible bucket, keyed by their name (MEDIA_S3_*; docs/decisions/059). The
 * same names as the local folder and the same check: only names the media service makes become keys.
 */
export function createS3MediaStore(settings: Pick<S3BucketSettings, "bucket">, client: S3Client): MediaStore {
  const { bucket } = settings;
  const keyOf = (name: string) => {
    if (!isSafeMediaName(name)) throw new RangeError(`Not a media name: ${name}`);
    return name;
  };
  return {
    async put(name, content) {
      // One PutObject is whole or not at all: the object is visible only once all of it is stored.
      await client.send(
        new PutObjectCommand({ Bucket: bucket, Key: keyOf(name), Body: content, ContentLength: content.byteLength, ContentType: mediaContentType(name), CacheControl: MEDIA_OBJECT_CACHE_CONTROL }),
      );
    },
    async get(name) {
      if (!isSafeMediaName(name)) return null;
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: name }));
        if (!object.Body || object.ContentLength === undefined) return null;
        return { body: object.Body.transformToWebStream() as ReadableStream<Uint8Array>, size: object.ContentLength };
      } catch (error) {
        // S3 answers a missing key with 403, not 404, to a key not allowed to list the bucket: any name a visitor
        // makes up would otherwise be a server error. A key that may not read at all shows at the first upload.
        if (isMissingObject(error) || (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode === 403) return null;
        throw error;
      }
    },
    async delete(name) {
      if (!isSafeMediaName(name)) return;
      // S3 answers a delete of a missing key with success too.
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: name }));
    },
  };
}
