import { createHash, randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import decodeBmp from "decode-bmp";
import decodeIco from "decode-ico";
import { fileTypeFromBuffer } from "file-type";
import type createSharp from "sharp";
import type { Sharp, SharpOptions } from "sharp";
import { MAX_IMAGE_BYTES } from "#common/shared/constants.ts";
import { MAX_IMAGE_WIDTH, variantName, variantUrl, variantWidths, type ImageFormat } from "#common/shared/media-variants.ts";
import { messages } from "#common/shared/messages.ts";
import { MAX_UPLOAD_BYTES } from "#common/shared/uploads.ts";
import { InvalidInputError, ServiceError, TooManyRequestsError } from "../errors.ts";
import type { ResumableUploads } from "../uploads/resumable-uploads.ts";
import { createLocalMediaStore, isSafeMediaName, type MediaStore, type StoredMedia } from "./media-store.ts";

/**
 * sharp (libvips, about 20 MB resident) is loaded with the first image this process encodes, not at start-up:
 * most processes seldom encode one (docs/decisions/029-bounded-memory.md). The two pipelines' entry points
 * (encodeVariants, encodeSquareWebp) load it; everything below them may then use it.
 */
let sharp: typeof createSharp;
async function loadSharp(): Promise<void> {
  sharp ??= (await import("sharp")).default;
}

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

/** Pixels sharp may decode from one upload (up to 160 MB as RGBA); more is refused as a decompression bomb. */
const MAX_INPUT_PIXELS = 40_000_000;
/**
 * decode-bmp and decode-ico are plain JavaScript that blocks the event loop for ~60 ns a pixel: 8 megapixels
 * (half a second) is more than a 10 MB 24-bit BMP holds, yet a 1-bit one could claim 80.
 */
const MAX_SCRIPT_DECODED_PIXELS = 8_000_000;
const DEFAULT_SIZE = 256;
const WEBP_QUALITY = 82;
/** AVIF at this quality is about as sharp as the WebP above at roughly two thirds of its bytes. */
const AVIF_QUALITY = 55;
/**
 * sharp's AVIF effort (0 fastest … 9 slowest, default 4). Measured on a 1280-wide picture here: effort 4 took
 * 14 s, effort 2 1.6 s for files within 1% of each other; effort 0 was a quarter faster but 15% larger.
 */
const AVIF_EFFORT = 2;
/** A very tall picture is cut to this many times its width (shop pictures are shown in cards and galleries). */
const MAX_ASPECT_HEIGHT = 3;
const STORED_NAME = /^(?:([0-9a-f]{16})-)?[0-9a-f]{32}\.webp$/;
const SHARP_OPTIONS: SharpOptions = { limitInputPixels: MAX_INPUT_PIXELS };
/** sharp's own bound on one pipeline (it cannot interrupt librsvg, hence the SVG limits below). */
const ENCODE_TIMEOUT_SECONDS = 10;
/**
 * Pictures decoded at once. Each holds a thread of libuv's pool (4 by default), which file reads and static
 * files share: two leave the rest free (issue 7: eight parallel uploads made static files wait 14 s).
 */
export const MAX_CONCURRENT_DECODES = 2;
/** Uploads waiting for a decoder beyond this are told to come back (each waiting one holds its 10 MB). */
export const MAX_WAITING_DECODES = 16;
/** A drawing is rendered at most this large (the stored picture is 256 px): its cost grows with the area. */
const MAX_SVG_RENDER_PIXELS = 1024 * 1024;
/**
 * Elements librsvg may draw for one drawing, counting each `<use>` and `url(#…)` reference as a copy of what
 * it points at: nested references multiply (a 2 KB drawing of nested `<use>` cost 3.9 s before issue 7, and
 * librsvg's own cap is 500,000). At the size above one element costs at most ~70 µs, so ~0.7 s in all.
 */
export const MAX_SVG_RENDERED_ELEMENTS = 10_000;
/** A filter primitive costs far more than a shape: it is counted as this many elements. */
const SVG_FILTER_PRIMITIVE_COST = 100;

type ImageType = "png" | "jpeg" | "gif" | "webp" | "tiff" | "bmp" | "ico" | "svg";

/** file-type's extension → the type we handle; anything missing here is refused (common/shared/images.ts names them to people). */
const BINARY_TYPES = new Map<string, ImageType>([
  ["png", "png"],
  ["apng", "png"], // an animated PNG is still a PNG; sharp takes its first frame
  ["jpg", "jpeg"],
  ["gif", "gif"],
  ["webp", "webp"],
  ["tif", "tiff"],
  ["bmp", "bmp"],
  ["ico", "ico"],
]);

export type MediaService = ReturnType<typeof createMediaService>;

export function createMediaService(options: {
  mediaDir: string;
  publicPath?: string;
  /** Where stored images go: the local folder `mediaDir` unless another store (e.g. S3) is given. */
  store?: MediaStore;
  /** Finished resumable uploads that `imageFromUpload` turns into images. */
  uploads?: ResumableUploads;
}) {
  const store = options.store ?? createLocalMediaStore(options.mediaDir);
  const publicPath = (options.publicPath ?? "/media").replace(/\/+$/, "");

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
  };
}

function productTooLarge(): ServiceError {
  return new ServiceError(413, messages.images.productTooLarge, { image: messages.images.productTooLarge });
}

function tooManyPixels(): InvalidInputError {
  return new InvalidInputError(messages.images.tooManyPixels, { image: messages.images.tooManyPixels });
}

interface EncodedVariants {
  width: number;
  height: number;
  sourceType: string;
  files: Array<{ width: number; format: ImageFormat; content: Buffer }>;
}

/**
 * Decodes once (upright, at most 1280 wide) into raw pixels, then encodes every width and format from those:
 * one decode of a large photo instead of six. Runs in the decoder queue; the bytes are read only once a decoder
 * is free, so waiting uploads do not each hold 20 MB.
 */
async function encodeVariants(read: () => Promise<Buffer>): Promise<EncodedVariants> {
  await loadSharp();
  return decoders.run(async () => {
    const data = await read();
    if (data.byteLength > MAX_UPLOAD_BYTES) throw productTooLarge();
    try {
      const sourceType = await detectType(data);
      const image = await openImage(data);
      const { data: pixels, info } = await image
        .rotate()
        .resize({ width: MAX_IMAGE_WIDTH, height: MAX_IMAGE_WIDTH * MAX_ASPECT_HEIGHT, fit: "inside", withoutEnlargement: true })
        .raw()
        .timeout({ seconds: ENCODE_TIMEOUT_SECONDS })
        .toBuffer({ resolveWithObject: true });
      const raw = { width: info.width, height: info.height, channels: info.channels };
      const files: EncodedVariants["files"] = [];
      for (const variantWidth of variantWidths(info.width)) {
        const resized = () => sharp(pixels, { raw }).resize({ width: variantWidth }).timeout({ seconds: ENCODE_TIMEOUT_SECONDS });
        files.push({ width: variantWidth, format: "webp", content: await resized().webp({ quality: WEBP_QUALITY }).toBuffer() });
        files.push({ width: variantWidth, format: "avif", content: await resized().avif({ quality: AVIF_QUALITY, effort: AVIF_EFFORT }).toBuffer() });
      }
      return { width: info.width, height: info.height, sourceType, files };
    } catch (error) {
      // Whatever the decoders make of hostile or broken bytes is the uploader's problem, not a server error.
      if (error instanceof ServiceError) throw error;
      throw unsupportedImage();
    }
  });
}

/** Who a file was stored for, as the start of its name: a hash, so any owner id makes the same shape of name. */
function ownerTag(owner: string | undefined): string | undefined {
  return owner === undefined ? undefined : createHash("sha256").update(owner).digest("hex").slice(0, 16);
}

export function unsupportedImage(): InvalidInputError {
  return new InvalidInputError(messages.images.unsupported, { image: messages.images.unsupported });
}

async function encodeSquareWebp(data: Uint8Array, size: number): Promise<Buffer> {
  await loadSharp();
  if (data.byteLength > MAX_IMAGE_BYTES) throw new ServiceError(413, messages.images.tooLarge, { image: messages.images.tooLarge });
  return decoders.run(async () => {
    try {
      const image = await openImage(data);
      return await image
        .rotate()
        .resize(size, size, { fit: "cover", position: "centre" })
        .webp({ quality: WEBP_QUALITY })
        .timeout({ seconds: ENCODE_TIMEOUT_SECONDS })
        .toBuffer();
    } catch (error) {
      // Whatever the decoders make of hostile or broken bytes is the uploader's problem, not a server error.
      if (error instanceof ServiceError) throw error;
      throw unsupportedImage();
    }
  });
}

/** At most `running` jobs at once, in arrival order; beyond `waiting` queued ones, a job is refused. */
function createQueue(running: number, waiting: number) {
  let active = 0;
  const queue: Array<() => void> = [];
  return {
    async run<T>(job: () => Promise<T>): Promise<T> {
      if (active >= running) {
        if (queue.length >= waiting) throw new TooManyRequestsError(messages.images.busy, 5);
        await new Promise<void>((resolve) => queue.push(resolve));
      } else {
        active++;
      }
      try {
        return await job();
      } finally {
        // The slot passes straight to the next job in line, or is given back.
        const next = queue.shift();
        if (next) next();
        else active--;
      }
    },
  };
}

const decoders = createQueue(MAX_CONCURRENT_DECODES, MAX_WAITING_DECODES);

async function openImage(data: Uint8Array): Promise<Sharp> {
  const type = await detectType(data);
  if (type === "bmp") return openBmp(data);
  if (type === "ico") return openIco(data);
  if (type === "svg") return openSvg(data);
  return openWithSharp(data, type);
}

async function detectType(data: Uint8Array): Promise<ImageType> {
  const detected = await fileTypeFromBuffer(data);
  const binary = detected && BINARY_TYPES.get(detected.ext);
  if (binary) return binary;
  if ((detected === undefined || detected.ext === "xml") && isSafeSvg(data)) return "svg";
  throw unsupportedImage();
}

/**
 * A sharp pipeline over data that must be the given format in sharp's own reading too. The size its header declares
 * is read first, before a single pixel is decoded, and without the pixel limit (which would make a decompression bomb
 * look like a broken file): over 40 megapixels is refused with its own message, for product and profile pictures
 * alike. (A drawing is rendered at a bounded size whatever it declares; bitmaps and icons have their own bound.)
 */
async function openWithSharp(data: Uint8Array, format: ImageType): Promise<Sharp> {
  const header = await sharp(data, { limitInputPixels: false }).metadata();
  if (header.format !== format) throw unsupportedImage();
  if (header.width && header.height && header.width * header.height > MAX_INPUT_PIXELS) throw tooManyPixels();
  return sharp(data, SHARP_OPTIONS);
}

function fromRgba(pixels: Uint8ClampedArray, width: number, height: number): Sharp {
  // 32-bit BMPs often leave the fourth byte unused (zero); read as alpha, the picture would be invisible.
  if (isInvisible(pixels)) for (let alpha = 3; alpha < pixels.length; alpha += 4) pixels[alpha] = 255;
  return sharp(pixels, { ...SHARP_OPTIONS, raw: { width, height, channels: 4 } });
}

function isInvisible(rgba: Uint8ClampedArray): boolean {
  for (let alpha = 3; alpha < rgba.length; alpha += 4) if (rgba[alpha] !== 0) return false;
  return true;
}

/** Refuses a size decode-bmp or decode-ico would allocate and loop over before reading a single pixel. */
function checkPixelCount(width: number, height: number): void {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) throw unsupportedImage();
  if (width * height > MAX_SCRIPT_DECODED_PIXELS) throw unsupportedImage();
}

// ---------------------------------------------------------------------------------------------------------
// BMP. decode-bmp trusts the header: it allocates width × height before looking at the pixels, reads the
// height as unsigned (a top-down bitmap's negative height becomes ~4 billion), expects the pixels right after
// the header and palette (ignoring the offset the file gives), and ignores compression and colour masks.
// So the size and format are checked first, and the bitmap is handed over laid out the way it reads it.

const BI_RGB = 0;
const BI_BITFIELDS = 3;

function openBmp(data: Uint8Array): Sharp {
  if (data.byteLength < 54) throw unsupportedImage();
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const pixelOffset = view.getUint32(10, true);
  const headerSize = view.getUint32(14, true);
  const width = view.getInt32(18, true);
  const height = view.getInt32(22, true);
  const depth = view.getUint16(28, true);
  const compression = view.getUint32(30, true);
  const colours = view.getUint32(46, true) || (depth <= 8 ? 2 ** depth : 0);
  const pixelStart = 14 + headerSize + colours * 4;

  checkPixelCount(width, Math.abs(height));
  if (headerSize < 40 || pixelOffset < pixelStart) throw unsupportedImage();
  if (compression !== BI_RGB && !(compression === BI_BITFIELDS && hasBgraMasks(view, headerSize, depth))) throw unsupportedImage();

  const bitmap = decodeBmp(laidOutForDecodeBmp(data, pixelStart, pixelOffset, Math.abs(height)));
  const image = fromRgba(bitmap.data, bitmap.width, bitmap.height);
  return height < 0 ? image.flip() : image;
}

/** Colour masks (inside a V4/V5 header, else right after it) that say what decode-bmp assumes: 32-bit BGRA. */
function hasBgraMasks(view: DataView, headerSize: number, depth: number): boolean {
  if (depth !== 32) return false;
  const [red, green, blue] = [view.getUint32(54, true), view.getUint32(58, true), view.getUint32(62, true)];
  const alpha = headerSize >= 56 ? view.getUint32(66, true) : 0;
  return red === 0x00ff0000 && green === 0x0000ff00 && blue === 0x000000ff && (alpha === 0xff000000 || alpha === 0);
}

/** A copy with the pixels moved up against the palette and the height positive (the rows are flipped after). */
function laidOutForDecodeBmp(data: Uint8Array, pixelStart: number, pixelOffset: number, height: number): Uint8Array {
  const copy = Buffer.concat([data.subarray(0, pixelStart), data.subarray(pixelOffset)]);
  copy.writeInt32LE(height, 22);
  return copy;
}

// ---------------------------------------------------------------------------------------------------------
// ICO. decode-ico decodes every entry before returning any, so all their sizes are checked first — together,
// since many directory entries may point at the same large bitmap.

async function openIco(data: Uint8Array): Promise<Sharp> {
  checkIcoSizes(data);
  const [largest] = decodeIco(data).sort((a, b) => b.width * b.height - a.width * a.height);
  if (!largest) throw unsupportedImage();
  if (largest.type === "png") return openWithSharp(largest.data, "png");
  return fromRgba(largest.data, largest.width, largest.height);
}

function checkIcoSizes(data: Uint8Array): void {
  if (data.byteLength < 6) throw unsupportedImage();
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const count = view.getUint16(4, true);
  if (count === 0 || data.byteLength < 6 + 16 * count) throw unsupportedImage();
  let pixels = 0;
  for (let index = 0; index < count; index++) {
    const entry = 6 + 16 * index;
    const size = view.getUint32(entry + 8, true);
    const offset = view.getUint32(entry + 12, true);
    if (size < 40 || offset + size > data.byteLength) throw unsupportedImage();
    const [width, height] = icoEntrySize(view, offset, view.getUint8(entry), view.getUint8(entry + 1));
    checkPixelCount(width, height);
    pixels += width * height;
  }
  if (pixels > MAX_SCRIPT_DECODED_PIXELS) throw unsupportedImage();
}

/** The size decode-ico will use: a PNG's own, else the bitmap header's (height counts the mask twice). */
function icoEntrySize(view: DataView, offset: number, listedWidth: number, listedHeight: number): [number, number] {
  if (view.getUint32(offset) === 0x89504e47) return [view.getUint32(offset + 16), view.getUint32(offset + 20)];
  const width = view.getInt32(offset + 4, true);
  const height = Math.trunc(view.getInt32(offset + 8, true) / 2);
  return [width || listedWidth, height || listedHeight];
}

// ---------------------------------------------------------------------------------------------------------
// SVG. The rasteriser (librsvg) can follow references to other files and URLs and expand entities; only
// self-contained documents are let through.

const SVG_FORBIDDEN = /<!ENTITY|<!DOCTYPE|<script|<foreignObject|<\?xml-stylesheet|@import|xml:base/i;
const SVG_REFERENCE = /href\s*=\s*(?:"([^"]*)"|'([^']*)')/gi;
const SVG_CSS_URL = /url\(\s*["']?(?!#|data:)/i;
const SVG_ENCODING = /encoding\s*=\s*["']([^"']*)["']/i;

function isSafeSvg(data: Uint8Array): boolean {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(data);
  } catch {
    return false;
  }
  const root = rootElementStart(text);
  if (root < 0 || !/^<svg[\s/>]/.test(text.slice(root, root + 5))) return false;
  if (SVG_FORBIDDEN.test(text) || SVG_CSS_URL.test(text)) return false;
  if (!/^(utf-8|us-ascii)$/i.test(SVG_ENCODING.exec(text.slice(0, root))?.[1] ?? "utf-8")) return false;
  for (const [, double, single] of text.matchAll(SVG_REFERENCE)) {
    const target = double ?? single ?? "";
    if (!target.startsWith("#") && !/^data:/i.test(target)) return false;
  }
  return true;
}

/** Where the root element starts, after a BOM, the XML declaration, comments and whitespace; -1 if unclosed. */
function rootElementStart(text: string): number {
  let at = text.startsWith("\uFEFF") ? 1 : 0;
  if (/^<\?xml\s/.test(text.slice(at, at + 6))) {
    const end = text.indexOf("?>", at);
    if (end < 0) return -1;
    at = end + 2;
  }
  for (;;) {
    while (at < text.length && /\s/.test(text.charAt(at))) at++;
    if (!text.startsWith("<!--", at)) return at;
    const end = text.indexOf("-->", at + 4);
    if (end < 0) return -1;
    at = end + 3;
  }
}

/**
 * sharp renders a drawing straight at the output size, but first checks the pixel limit against the size the
 * drawing declares (at 72 dpi), which can be anything: one declared larger is loaded at a lower density.
 */
async function openSvg(data: Uint8Array): Promise<Sharp> {
  if (svgRenderCost(new TextDecoder().decode(data)) > MAX_SVG_RENDERED_ELEMENTS) throw svgTooComplex();
  const { format, width, height } = await sharp(data, { limitInputPixels: false }).metadata();
  if (format !== "svg" || !width || !height) throw unsupportedImage();
  // sharp's lowest density is 1 dpi: a drawing larger than the limit even there cannot be loaded at all.
  if ((width / 72) * (height / 72) > MAX_INPUT_PIXELS) throw tooManyPixels();
  const scale = Math.min(1, Math.sqrt(MAX_SVG_RENDER_PIXELS / (width * height)));
  return sharp(data, { ...SHARP_OPTIONS, density: Math.max(72 * scale, 1) });
}

export function svgTooComplex(): InvalidInputError {
  return new InvalidInputError(messages.images.tooComplex, { image: messages.images.tooComplex });
}

// Tags with their attributes (quoted values may hold ">"), and the references an attribute value can make.
// ("<" ends an unquoted run, so that no start of a tag scans past the next one: the scan stays linear.)
const SVG_TAG = /<(\/?)([A-Za-z_][\w:.-]*)((?:[^<>"']|"[^"]*"|'[^']*')*?)(\/?)>/g;
const SVG_ATTRIBUTE = /([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const SVG_URL_REFERENCE = /url\(\s*["']?#([^"')\s]+)/g;

interface SvgNode {
  weight: number;
  children: SvgNode[];
  references: string[];
}

/**
 * How many elements librsvg would draw, each reference expanded into what it points at (memoised, so the
 * count itself is linear); a reference cycle or a document we cannot follow counts as endless. Stylesheets
 * that reference (`url(#…)` in `<style>`) may apply to every element, so they count as endless too.
 */
export function svgRenderCost(text: string): number {
  const source = text.replace(/<!--[\s\S]*?-->/g, "");
  const root: SvgNode = { weight: 0, children: [], references: [] };
  const ids = new Map<string, SvgNode>();
  const open: Array<{ name: string; node: SvgNode }> = [];
  let parent = root;
  for (const match of source.matchAll(SVG_TAG)) {
    const [tag, closing, name = "", attributes = "", selfClosing] = match;
    if (closing) {
      const top = open.pop();
      if (!top || top.name !== name) return Infinity;
      parent = open.at(-1)?.node ?? root;
      continue;
    }
    const local = name.replace(/^.*:/, "");
    if (local === "style" && /url\(/i.test(source.slice(match.index + tag.length, source.indexOf("</", match.index)))) return Infinity;
    if (local === "feTurbulence" && Number(/numOctaves\s*=\s*["']\s*(\d+)/.exec(attributes)?.[1] ?? 1) > 8) return Infinity;
    const node: SvgNode = { weight: local.startsWith("fe") ? SVG_FILTER_PRIMITIVE_COST : 1, children: [], references: [] };
    for (const [, attribute = "", double, single] of attributes.matchAll(SVG_ATTRIBUTE)) {
      const value = double ?? single ?? "";
      if (attribute === "id") ids.set(value, node);
      else if (/(^|:)href$/.test(attribute) && value.startsWith("#")) node.references.push(value.slice(1));
      for (const [, target = ""] of value.matchAll(SVG_URL_REFERENCE)) node.references.push(target);
    }
    parent.children.push(node);
    if (!selfClosing) {
      open.push({ name, node });
      parent = node;
    }
  }
  if (open.length) return Infinity;

  const cost = new Map<SvgNode, number>();
  const visiting = new Set<SvgNode>();
  const costOf = (node: SvgNode): number => {
    const known = cost.get(node);
    if (known !== undefined) return known;
    if (visiting.has(node)) return Infinity;
    visiting.add(node);
    let total = node.weight;
    for (const child of node.children) total += costOf(child);
    for (const id of node.references) {
      const target = ids.get(id);
      if (target) total += costOf(target);
    }
    visiting.delete(node);
    cost.set(node, total);
    return total;
  };
  return costOf(root);
}
