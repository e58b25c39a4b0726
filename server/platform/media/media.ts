import type { ResumableUploads } from "../uploads/resumable-uploads.ts";
import { createDecoderPool, type DecoderPool } from "./decoder-pool.ts";
import { imageFromUpload, removeImageSet } from "./image-sets.ts";
import type { MediaContext } from "./media-context.ts";
import { createLocalMediaStore, isSafeMediaName, type MediaStore, type StoredMedia } from "./media-store.ts";
import { removeSquareImage, saveSquareImage } from "./square-images.ts";

export { MAX_SVG_RENDERED_ELEMENTS, svgRenderCost, svgTooComplex, unsupportedImage } from "./image-checks.ts";
export type { StoredImage } from "./square-images.ts";
export type { StoredImageSet } from "./image-sets.ts";

// Stored pictures as the rest of the server sees them: square pictures (./square-images.ts) and image sets made
// from uploads (./image-sets.ts), checked by content (./image-checks.ts) and decoded in decoder processes
// (./decoder-pool.ts, ./decode.ts). This file binds those operations to one store and one pool, serves the stored
// files and stops the decoding at shutdown.

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
  const ctx: MediaContext = {
    store: options.store ?? createLocalMediaStore(options.mediaDir),
    publicPath: (options.publicPath ?? "/media").replace(/\/+$/, ""),
    uploads: options.uploads,
    decoders: () =>
      options.decoders ?? (sharedDecoders ??= createDecoderPool({ concurrency: MAX_CONCURRENT_DECODES, waiting: MAX_WAITING_DECODES, cpuLimitMs: DECODE_CPU_LIMIT_MS, wallLimitMs: DECODE_WALL_LIMIT_MS })),
    closed: false,
  };

  return {
    /** A square WebP of a picture sent whole (profile pictures): see square-images.ts. */
    saveSquareImage: (data: Uint8Array, saveOptions?: { size?: number; owner?: string }) => saveSquareImage(ctx, data, saveOptions),
    /** Deletes a square picture this service stored for the same `owner`; any other url is ignored. */
    remove: (url: string, removeOptions?: { owner?: string }) => removeSquareImage(ctx, url, removeOptions),
    /** A finished upload made into a stored image set (product and category pictures): see image-sets.ts. */
    imageFromUpload: (uploadId: string, uploaderId: string) => imageFromUpload(ctx, uploadId, uploaderId),

    /** Deletes a raw upload once what was made from it is saved (see `imageFromUpload`). */
    async removeUpload(uploadId: string): Promise<void> {
      await options.uploads?.remove(uploadId);
    },

    /** Deletes every file of an image made by `imageFromUpload`, given its key and width. */
    removeImageSet: (key: string, width: number) => removeImageSet(ctx, key, width),

    /** A stored file to serve under /media/<name>, with its content type; null for any other name. */
    async open(name: string): Promise<(StoredMedia & { contentType: string }) | null> {
      if (!isSafeMediaName(name)) return null;
      const file = await ctx.store.get(name);
      return file && { ...file, contentType: name.endsWith(".avif") ? "image/avif" : "image/webp" };
    },

    /**
     * Stops decoding, for shutdown: pictures waiting are refused at once, and those being decoded get `graceMs`
     * before their decoder processes are killed; both are answered messages.images.restarting (429, to retry).
     */
    async close(graceMs = 0): Promise<void> {
      ctx.closed = true;
      const pool = options.decoders ?? sharedDecoders;
      if (!options.decoders) sharedDecoders = undefined;
      await pool?.close(graceMs);
    },
  };
}
