import decodeBmp from "decode-bmp";
import decodeIco from "decode-ico";
import type createSharp from "sharp";
import type { Sharp, SharpOptions } from "sharp";
import { MAX_IMAGE_WIDTH, variantWidths, type ImageFormat } from "#common/shared/media-variants.ts";
import { ServiceError } from "../errors.ts";
import {
  detectType,
  MAX_INPUT_PIXELS,
  MAX_SVG_RENDER_PIXELS,
  tooManyPixels,
  unsupportedImage,
  type ImageType,
} from "./image-checks.ts";

// Decoding and encoding pictures with sharp (libvips, librsvg) and the script decoders for BMP and ICO. Only a
// decoder process (./decoder-process.ts) runs this: a decode that runs too long is ended by killing that process,
// which is the one thing that stops librsvg or libvips in the middle of their work.

let sharp: typeof createSharp;
let loaded = false;
/**
 * Loads sharp (about 20 MB resident) in the decoder process. libvips' operation cache is off, to keep it small, and
 * it works on one thread: the pool runs two decoders on two cores, and a picture's CPU time, which is limited, is
 * then about its wall time.
 */
export async function loadSharp(): Promise<void> {
  if (loaded) return;
  sharp = (await import("sharp")).default;
  sharp.cache(false);
  sharp.concurrency(1);
  loaded = true;
}

/**
 * decode-bmp and decode-ico are plain JavaScript that blocks the event loop for ~60 ns a pixel: 8 megapixels
 * (half a second) is more than a 10 MB 24-bit BMP holds, yet a 1-bit one could claim 80.
 */
const MAX_SCRIPT_DECODED_PIXELS = 8_000_000;
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
const SHARP_OPTIONS: SharpOptions = { limitInputPixels: MAX_INPUT_PIXELS };

interface EncodedVariants {
  width: number;
  height: number;
  sourceType: string;
  files: Array<{ width: number; format: ImageFormat; content: Buffer }>;
}

/**
 * Decodes once (upright, at most 1280 wide) into raw pixels, then encodes every width and format from those:
 * one decode of a large photo instead of six. Runs in a decoder process; the server process has checked the size
 * and the type before (./image-checks.ts), and they are checked again here, where the bytes are decoded.
 */
export async function encodeVariants(data: Uint8Array): Promise<EncodedVariants> {
  await loadSharp();
  try {
    const sourceType = await detectType(data);
    const image = await openImage(data);
    const { data: pixels, info } = await image
      .rotate()
      .resize({ width: MAX_IMAGE_WIDTH, height: MAX_IMAGE_WIDTH * MAX_ASPECT_HEIGHT, fit: "inside", withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const raw = { width: info.width, height: info.height, channels: info.channels };
    const files: EncodedVariants["files"] = [];
    for (const variantWidth of variantWidths(info.width)) {
      const resized = () => sharp(pixels, { raw }).resize({ width: variantWidth });
      files.push({ width: variantWidth, format: "webp", content: await resized().webp({ quality: WEBP_QUALITY }).toBuffer() });
      files.push({ width: variantWidth, format: "avif", content: await resized().avif({ quality: AVIF_QUALITY, effort: AVIF_EFFORT }).toBuffer() });
    }
    return { width: info.width, height: info.height, sourceType, files };
  } catch (error) {
    // Whatever the decoders make of hostile or broken bytes is the uploader's problem, not a server error.
    if (error instanceof ServiceError) throw error;
    throw unsupportedImage();
  }
}

/** A square WebP (cover-cropped, centred) of `size` px; runs in a decoder process like encodeVariants. */
export async function encodeSquareWebp(data: Uint8Array, size: number): Promise<Buffer> {
  await loadSharp();
  try {
    const image = await openImage(data);
    return await image.rotate().resize(size, size, { fit: "cover", position: "centre" }).webp({ quality: WEBP_QUALITY }).toBuffer();
  } catch (error) {
    // Whatever the decoders make of hostile or broken bytes is the uploader's problem, not a server error.
    if (error instanceof ServiceError) throw error;
    throw unsupportedImage();
  }
}

async function openImage(data: Uint8Array): Promise<Sharp> {
  const type = await detectType(data);
  if (type === "bmp") return openBmp(data);
  if (type === "ico") return openIco(data);
  if (type === "svg") return openSvg(data);
  return openWithSharp(data, type);
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

/**
 * sharp renders a drawing straight at the output size, but first checks the pixel limit against the size the
 * drawing declares (at 72 dpi), which can be anything: one declared larger is loaded at a lower density. (Its
 * filters and cost were checked with its type, by detectType.)
 */
async function openSvg(data: Uint8Array): Promise<Sharp> {
  const { format, width, height } = await sharp(data, { limitInputPixels: false }).metadata();
  if (format !== "svg" || !width || !height) throw unsupportedImage();
  // sharp's lowest density is 1 dpi: a drawing larger than the limit even there cannot be loaded at all.
  if ((width / 72) * (height / 72) > MAX_INPUT_PIXELS) throw tooManyPixels();
  const scale = Math.min(1, Math.sqrt(MAX_SVG_RENDER_PIXELS / (width * height)));
  return sharp(data, { ...SHARP_OPTIONS, density: Math.max(72 * scale, 1) });
}

