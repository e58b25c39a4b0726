import type { Sharp } from "sharp";
import { MAX_INPUT_PIXELS, MAX_SVG_RENDER_PIXELS, tooManyPixels, unsupportedImage } from "./image-checks.ts";
import { sharp, SHARP_OPTIONS } from "./sharp-input.ts";

/**
 * sharp renders a drawing straight at the output size, but first checks the pixel limit against the size the
 * drawing declares (at 72 dpi), which can be anything: one declared larger is loaded at a lower density. (Its
 * filters and cost were checked with its type, by detectType.)
 */
export async function openSvg(data: Uint8Array): Promise<Sharp> {
  const { format, width, height } = await sharp(data, { limitInputPixels: false }).metadata();
  if (format !== "svg" || !width || !height) throw unsupportedImage();
  // sharp's lowest density is 1 dpi: a drawing larger than the limit even there cannot be loaded at all.
  if ((width / 72) * (height / 72) > MAX_INPUT_PIXELS) throw tooManyPixels();
  const scale = Math.min(1, Math.sqrt(MAX_SVG_RENDER_PIXELS / (width * height)));
  return sharp(data, { ...SHARP_OPTIONS, density: Math.max(72 * scale, 1) });
}
