import { crc32 } from "node:zlib";
import sharp from "sharp";

/**
 * A real 1 × 1 PNG whose header claims `width` × `height` pixels, with a correct checksum so that only the size is
 * a lie: a decompression bomb of about 70 bytes (docs/decisions/022). Used by the media tests, the browser tests and
 * bench/pixel-flood.ts.
 */
export async function pixelFloodPng(width = 100_000, height = 100_000): Promise<Buffer> {
  const png = await sharp({ create: { width: 1, height: 1, channels: 3, background: "#2d6a4f" } }).png().toBuffer();
  // IHDR's data starts at byte 16: width, height (big-endian), then its CRC over type and data at byte 29.
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}
