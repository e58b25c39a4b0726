import { randomBytes } from "node:crypto";
import { variantName, variantUrl, variantWidths, type ImageFormat } from "#common/shared/media-variants.ts";
import { messages } from "#common/shared/messages.ts";
import { MAX_UPLOAD_BYTES } from "#common/shared/uploads.ts";
import { TooManyRequestsError } from "../errors.ts";
import type { DecodeJob } from "./decoder-protocol.ts";
import { detectType, productTooLarge } from "./image-checks.ts";
import type { MediaContext } from "./media-context.ts";

// Product and category pictures: made from a finished resumable upload into a set of files, every width in WebP
// and AVIF, all derived from one random key.

/** A product or category image made from an upload: its files derive from `key` and `width` (common/shared/media-variants.ts). */
export interface StoredImageSet {
  key: string;
  /** The largest stored copy's size (at most 1280 wide), which is what `url` shows. */
  width: number;
  height: number;
  /** The largest WebP copy: a plain <img src> for whoever ignores srcset. */
  url: string;
  /** The type the uploaded file turned out to be, by its content. */
  sourceType: string;
}

interface EncodedVariants {
  width: number;
  height: number;
  sourceType: string;
  files: Array<{ width: number; format: ImageFormat; content: Buffer }>;
}

/**
 * Turns the finished upload `uploadId` of `uploaderId` into a stored image: checked by content (the types
 * of ACCEPTED_IMAGE_TYPES), refused unopened beyond 40 megapixels, turned upright, re-encoded to WebP and
 * AVIF at 320, 640 and 1280 px wide (never wider than sent), metadata (GPS, camera) dropped, stored under
 * a random key. A refused upload is deleted (except when the decoders are busy); an accepted one stays
 * until the caller's save commits and calls `removeUpload`, so a save refused after this call can use it
 * again (it expires after a day otherwise). Callers check who may attach it to what (e.g. only admins to products).
 */
export async function imageFromUpload(ctx: MediaContext, uploadId: string, uploaderId: string): Promise<StoredImageSet> {
  if (!ctx.uploads) throw new Error("The media service was made without resumable uploads.");
  const uploads = ctx.uploads;
  const upload = await uploads.takeFinished(uploadId, uploaderId);
  try {
    if (upload.size > MAX_UPLOAD_BYTES) throw productTooLarge();
    const variants = await encodeVariants(ctx, () => upload.read());
    const key = randomBytes(16).toString("hex");
    const written: string[] = [];
    try {
      for (const variant of variants.files) {
        const name = variantName(key, variant.width, variant.format);
        await ctx.store.put(name, variant.content);
        written.push(name);
      }
    } catch (error) {
      // Nothing half-stored: a key either has every file or none.
      await Promise.all(written.map((name) => ctx.store.delete(name)));
      throw error;
    }
    return { key, width: variants.width, height: variants.height, url: variantUrl(key, variants.width, "webp"), sourceType: variants.sourceType };
  } catch (error) {
    // Busy is not the file's fault: the upload stays for the retry.
    if (!(error instanceof TooManyRequestsError)) await uploads.remove(uploadId);
    throw error;
  }
}

/** Deletes every file of an image made by `imageFromUpload`, given its key and width. */
export async function removeImageSet(ctx: Pick<MediaContext, "store">, key: string, width: number): Promise<void> {
  if (!/^[0-9a-f]{32}$/.test(key)) return;
  await Promise.all(variantWidths(width).flatMap((w) => (["webp", "avif"] as const).map((format) => ctx.store.delete(variantName(key, w, format)))));
}

/**
 * Decodes once (upright, at most 1280 wide), then encodes every width and format from those pixels, in a decoder
 * process. The bytes are read only once a decoder is free, so that waiting uploads do not each hold 20 MB.
 */
async function encodeVariants(ctx: Pick<MediaContext, "decoders" | "closed">, read: () => Promise<Buffer>): Promise<EncodedVariants> {
  if (ctx.closed) throw new TooManyRequestsError(messages.images.restarting, 5);
  const encoded = await ctx.decoders().run<EncodedVariants>(async (): Promise<DecodeJob> => {
    const data = await read();
    if (data.byteLength > MAX_UPLOAD_BYTES) throw productTooLarge();
    await detectType(data);
    return { kind: "variants", data };
  });
  return { ...encoded, files: encoded.files.map((file) => ({ ...file, content: Buffer.from(file.content.buffer, file.content.byteOffset, file.content.byteLength) })) };
}
