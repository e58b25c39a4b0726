import type createSharp from "sharp";
import type { Sharp, SharpInput, SharpOptions } from "sharp";
import { MAX_INPUT_PIXELS, tooManyPixels, unsupportedImage, type ImageType } from "./image-checks.ts";

// What every decoder (./decode.ts, ./bmp-decoder.ts, ./ico-decoder.ts, ./svg-decoder.ts) opens pictures with: sharp,
// loaded once in the decoder process, and the bounds it is always opened under.

let loadedSharp: typeof createSharp | undefined;
/**
 * Loads sharp (about 20 MB resident) in the decoder process. libvips' operation cache is off, to keep it small, and
 * it works on one thread: the pool runs two decoders on two cores, and a picture's CPU time, which is limited, is
 * then about its wall time.
 */
export async function loadSharp(): Promise<void> {
  if (loadedSharp) return;
  const sharp = (await import("sharp")).default;
  sharp.cache(false);
  sharp.concurrency(1);
  loadedSharp = sharp;
}

/** sharp itself, once loadSharp has run (every entry into the decoders awaits it first). */
export function sharp(input: SharpInput, options?: SharpOptions): Sharp {
  if (!loadedSharp) throw new Error("sharp was used before loadSharp()");
  return loadedSharp(input, options);
}

export const SHARP_OPTIONS: SharpOptions = { limitInputPixels: MAX_INPUT_PIXELS };

/**
 * decode-bmp and decode-ico are plain JavaScript that blocks the event loop for ~60 ns a pixel: 8 megapixels
 * (half a second) is more than a 10 MB 24-bit BMP holds, yet a 1-bit one could claim 80.
 */
export const MAX_SCRIPT_DECODED_PIXELS = 8_000_000;

/**
 * A sharp pipeline over data that must be the given format in sharp's own reading too. The size its header declares
 * is read first, before a single pixel is decoded, and without the pixel limit (which would make a decompression bomb
 * look like a broken file): over 40 megapixels is refused with its own message, for product and profile pictures
 * alike. (A drawing is rendered at a bounded size whatever it declares; bitmaps and icons have their own bound.)
 */
export async function openWithSharp(data: Uint8Array, format: ImageType): Promise<Sharp> {
  const header = await sharp(data, { limitInputPixels: false }).metadata();
  if (header.format !== format) throw unsupportedImage();
  if (header.width && header.height && header.width * header.height > MAX_INPUT_PIXELS) throw tooManyPixels();
  return sharp(data, SHARP_OPTIONS);
}

/** Pixels a script decoder made (RGBA, 8 bits a channel), as a sharp pipeline. */
export function fromRgba(pixels: Uint8ClampedArray, width: number, height: number): Sharp {
  // 32-bit BMPs often leave the fourth byte unused (zero); read as alpha, the picture would be invisible.
  if (isInvisible(pixels)) for (let alpha = 3; alpha < pixels.length; alpha += 4) pixels[alpha] = 255;
  return sharp(pixels, { ...SHARP_OPTIONS, raw: { width, height, channels: 4 } });
}

function isInvisible(rgba: Uint8ClampedArray): boolean {
  for (let alpha = 3; alpha < rgba.length; alpha += 4) if (rgba[alpha] !== 0) return false;
  return true;
}

/** Refuses a size decode-bmp or decode-ico would allocate and loop over before reading a single pixel. */
export function checkPixelCount(width: number, height: number): void {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) throw unsupportedImage();
  if (width * height > MAX_SCRIPT_DECODED_PIXELS) throw unsupportedImage();
}
