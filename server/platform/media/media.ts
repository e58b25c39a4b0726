import { createHash, randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { MAX_IMAGE_BYTES } from "#common/shared/constants.ts";
import { variantName, variantUrl, variantWidths, type ImageFormat } from "#common/shared/media-variants.ts";
import { messages } from "#common/shared/messages.ts";
import { MAX_UPLOAD_BYTES } from "#common/shared/uploads.ts";
import { InvalidInputError, ServiceError, TooManyRequestsError } from "../errors.ts";
import type { ResumableUploads } from "../uploads/resumable-uploads.ts";
import { createDecoderPool, type DecodeJob, type DecoderPool } from "./decoder-pool.ts";
import { detectType, productTooLarge } from "./image-checks.ts";
import { createLocalMediaStore, isSafeMediaName, type MediaStore, type StoredMedia } from "./media-store.ts";

export { MAX_SVG_RENDERED_ELEMENTS, svgRenderCost, svgTooComplex, unsupportedImage } from "./image-checks.ts";

export interface StoredImage {
  url: string;
  width: number;
  height: number;
}

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

/**
 * A finished upload's bytes. Its owner may delete it (tus DELETE) while it waits for a decoder: then it is refused
 * like an upload that does not exist, not as a server error.
 */
async function readUpload(filePath: string): Promise<Buffer> {
  try {
    return await readFile(filePath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new InvalidInputError(messages.uploads.notFound);
    throw error;
  }
}

const DEFAULT_SIZE = 256;
const STORED_NAME = /^(?:([0-9a-f]{16})-)?[0-9a-f]{32}\.webp$/;
/**
 * Pictures decoded at once, each in a decoder process of its own: on two cores, two leave the server process a
 * core for everything else (eight parallel uploads made static files wait 14 s when decodes were unbounded).
 */
export const MAX_CONCURRENT_DECODES = 2;
/** Uploads waiting for a decoder beyond this are told to come back (each waiting one holds up to 10 MB). */
export const MAX_WAITING_DECODES = 16;
/**
 * CPU time one picture may take to be decoded and encoded before its decoder process is killed and the picture
 * refused. A 25-megapixel photo takes about 1.5 s here for every width and format; what is refused before decoding
 * (filters, nested references, pixel floods) takes none.
 */
export const DECODE_CPU_LIMIT_MS = 4_000;
/**
 * Wall time one picture may take whatever its CPU time: a picture's answer waits no longer, even on a machine so busy
 * that its decoder gets a fraction of a core. Below the default shutdown budget (8 s).
 */
export const DECODE_WALL_LIMIT_MS = 7_000;

/** The decoders this process's media services share unless given their own: one pool, as the limits above are per process. */
let sharedDecoders: DecoderPool | undefined;

export type MediaService = ReturnType<typeof createMediaService>;

export function createMediaService(options: {
  mediaDir: string;
  publicPath?: string;
  /** Where stored images go: the local folder `mediaDir` unless another store (e.g. S3) is given. */
  store?: MediaStore;
  /** Finished resumable uploads that `imageFromUpload` turns into images. */
  uploads?: ResumableUploads;
  /** The decoder processes; the process's shared pool (limits above) unless given (tests give their own limits). */
  decoders?: DecoderPool;
}) {
  const store = options.store ?? createLocalMediaStore(options.mediaDir);
  const publicPath = (options.publicPath ?? "/media").replace(/\/+$/, "");
  const decoders = () =>
    options.decoders ?? (sharedDecoders ??= createDecoderPool({ concurrency: MAX_CONCURRENT_DECODES, waiting: MAX_WAITING_DECODES, cpuLimitMs: DECODE_CPU_LIMIT_MS, wallLimitMs: DECODE_WALL_LIMIT_MS }));
  let closed = false;

  /**
   * A square WebP (cover-cropped, centred) of `size` px. The type (and a drawing's cost) is checked here, so
   * what is refused by its content never waits for a decoder.
   */
  async function encodeSquareWebp(data: Uint8Array, size: number): Promise<Buffer> {
    if (data.byteLength > MAX_IMAGE_BYTES) throw new ServiceError(413, messages.images.tooLarge, { image: messages.images.tooLarge });
    await detectType(data);
    if (closed) throw new TooManyRequestsError(messages.images.restarting, 5);
    const webp = await decoders().run<Uint8Array>({ kind: "square", data, size });
    return Buffer.from(webp.buffer, webp.byteOffset, webp.byteLength);
  }

  /**
   * Decodes once (upright, at most 1280 wide), then encodes every width and format from those pixels, in a decoder
   * process. The bytes are read only once a decoder is free, so that waiting uploads do not each hold 20 MB.
   */
  async function encodeVariants(read: () => Promise<Buffer>): Promise<EncodedVariants> {
    if (closed) throw new TooManyRequestsError(messages.images.restarting, 5);
    const encoded = await decoders().run<EncodedVariants>(async (): Promise<DecodeJob> => {
      const data = await read();
      if (data.byteLength > MAX_UPLOAD_BYTES) throw productTooLarge();
      await detectType(data);
      return { kind: "variants", data };
    });
    return { ...encoded, files: encoded.files.map((file) => ({ ...file, content: Buffer.from(file.content.buffer, file.content.byteOffset, file.content.byteLength) })) };
  }

  return {
    /**
     * Validates by content, re-encodes to a square WebP (cover-cropped, centred) of `size` px (default 256),
     * metadata stripped, stored under a random name, marked as stored for `owner` when one is given.
     */
    async saveSquareImage(data: Uint8Array, saveOptions: { size?: number; owner?: string } = {}): Promise<StoredImage> {
      const size = saveOptions.size ?? DEFAULT_SIZE;
      if (!Number.isInteger(size) || size < 1 || size > 4096) throw new RangeError(`Invalid image size: ${size}`);
      const webp = await encodeSquareWebp(data, size);
      const tag = ownerTag(saveOptions.owner);
      const name = `${tag ? `${tag}-` : ""}${randomBytes(16).toString("hex")}.webp`;
      await store.put(name, webp);
      return { url: `${publicPath}/${name}`, width: size, height: size };
    },

    /**
     * Deletes a file this service stored for the same `owner` (or for none), given its url; ignores any other
     * url (another owner's file, one outside publicPath) and files already gone.
     */
    async remove(url: string, removeOptions: { owner?: string } = {}): Promise<void> {
      const prefix = `${publicPath}/`;
      const name = url.startsWith(prefix) ? url.slice(prefix.length) : "";
      // Only names this service makes, so no url can reach outside mediaDir ("../", sub-folders).
      const stored = STORED_NAME.exec(name);
      if (!stored || stored[1] !== ownerTag(removeOptions.owner)) return;
      await store.delete(name);
    },

    /**
     * Turns the finished upload `uploadId` of `uploaderId` into a stored image: checked by content (the types
     * of ACCEPTED_IMAGE_TYPES), refused unopened beyond 40 megapixels, turned upright, re-encoded to WebP and
     * AVIF at 320, 640 and 1280 px wide (never wider than sent), metadata (GPS, camera) dropped, stored under
     * a random key. A refused upload is deleted (except when the decoders are busy); an accepted one stays
     * until the caller's save commits and calls `removeUpload`, so a save refused after this call can use it
     * again (it expires after a day otherwise). Callers check who may attach it to what (e.g. only admins to products).
     */
    async imageFromUpload(uploadId: string, uploaderId: string): Promise<StoredImageSet> {
      if (!options.uploads) throw new Error("The media service was made without resumable uploads.");
      const uploads = options.uploads;
      const upload = await uploads.takeFinished(uploadId, uploaderId);
      try {
        if (upload.size > MAX_UPLOAD_BYTES) throw productTooLarge();
        const variants = await encodeVariants(() => readUpload(upload.filePath));
        const key = randomBytes(16).toString("hex");
        const written: string[] = [];
        try {
          for (const variant of variants.files) {
            const name = variantName(key, variant.width, variant.format);
            await store.put(name, variant.content);
            written.push(name);
          }
        } catch (error) {
          // Nothing half-stored: a key either has every file or none.
          await Promise.all(written.map((name) => store.delete(name)));
          throw error;
        }
        return { key, width: variants.width, height: variants.height, url: variantUrl(key, variants.width, "webp"), sourceType: variants.sourceType };
      } catch (error) {
        // Busy is not the file's fault: the upload stays for the retry.
        if (!(error instanceof TooManyRequestsError)) await uploads.remove(uploadId);
        throw error;
      }
    },

    /** Deletes a raw upload once what was made from it is saved (see `imageFromUpload`). */
    async removeUpload(uploadId: string): Promise<void> {
      await options.uploads?.remove(uploadId);
    },

    /** Deletes every file of an image made by `imageFromUpload`, given its key and width. */
    async removeImageSet(key: string, width: number): Promise<void> {
      if (!/^[0-9a-f]{32}$/.test(key)) return;
      await Promise.all(
        variantWidths(width).flatMap((w) => (["webp", "avif"] as const).map((format) => store.delete(variantName(key, w, format)))),
      );
    },

    /** A stored file to serve under /media/<name>, with its content type; null for any other name. */
    async open(name: string): Promise<(StoredMedia & { contentType: string }) | null> {
      if (!isSafeMediaName(name)) return null;
      const file = await store.get(name);
      return file && { ...file, contentType: name.endsWith(".avif") ? "image/avif" : "image/webp" };
    },

    /**
     * Stops decoding, for shutdown: pictures waiting are refused at once, and those being decoded get `graceMs`
     * before their decoder processes are killed; both are answered messages.images.restarting (429, to retry).
     */
    async close(graceMs = 0): Promise<void> {
      closed = true;
      const pool = options.decoders ?? sharedDecoders;
      if (!options.decoders) sharedDecoders = undefined;
      await pool?.close(graceMs);
    },
  };
}

interface EncodedVariants {
  width: number;
  height: number;
  sourceType: string;
  files: Array<{ width: number; format: ImageFormat; content: Buffer }>;
}

/** Who a file was stored for, as the start of its name: a hash, so any owner id makes the same shape of name. */
function ownerTag(owner: string | undefined): string | undefined {
  return owner === undefined ? undefined : createHash("sha256").update(owner).digest("hex").slice(0, 16);
}
