import decodeBmp from "decode-bmp";
import type { Sharp } from "sharp";
import { unsupportedImage } from "./image-checks.ts";
import { checkPixelCount, fromRgba } from "./sharp-input.ts";

// BMP. decode-bmp trusts the header: it allocates width × height before looking at the pixels, reads the
// height as unsigned (a top-down bitmap's negative height becomes ~4 billion), expects the pixels right after
// the header and palette (ignoring the offset the file gives), and ignores compression and colour masks.
// So the size and format are checked first, and the bitmap is handed over laid out the way it reads it.

const BI_RGB = 0;
const BI_BITFIELDS = 3;

export function openBmp(data: Uint8Array): Sharp {
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
