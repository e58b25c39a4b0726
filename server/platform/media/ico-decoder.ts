import decodeIco from "decode-ico";
import type { Sharp } from "sharp";
import { unsupportedImage } from "./image-checks.ts";
import { checkPixelCount, fromRgba, MAX_SCRIPT_DECODED_PIXELS, openWithSharp } from "./sharp-input.ts";

// ICO. decode-ico decodes every entry before returning any, so all their sizes are checked first — together,
// since many directory entries may point at the same large bitmap.

export async function openIco(data: Uint8Array): Promise<Sharp> {
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
