import type { Sharp } from "sharp";
import { MAX_IMAGE_WIDTH, variantWidths, type ImageFormat } from "#common/shared/media-variants.ts";
import { ServiceError } from "../errors.ts";
import { detectType, unsupportedImage } from "./image-checks.ts";
import { openBmp } from "./bmp-decoder.ts";
import { openIco } from "./ico-decoder.ts";
import { openSvg } from "./svg-decoder.ts";
import { loadSharp, openWithSharp, sharp } from "./sharp-input.ts";

// Decoding and encoding pictures: each picture opened by the decoder for its type (sharp's own for most, the
// script decoders for BMP and ICO, a bounded render for SVG), then resized and encoded with sharp. Only a
// decoder process (./decoder-process.ts) runs this: a decode that runs too long is ended by killing that process,
// which is the one thing that stops librsvg or libvips in the middle of their work.

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
