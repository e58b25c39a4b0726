import { promisify } from "node:util";
import zlib from "node:zlib";

// A gzip answer joined from bytes compressed once and bytes that differ per request, without compressing the whole
// answer for every request. A shared page's kept render is the same for every shopper but for a few small parts;
// compressing it per request (brotli or gzip over tens of kilobytes) cost a signed-in page about two thirds of its
// throughput with a browser's Accept-Encoding (docs/performance.md, "Signed-in pages").
//
// How: DEFLATE (RFC 1951) is a sequence of blocks. Each kept piece is compressed once on its own and ended with a
// full flush, which leaves the output at a byte boundary with no reference to anything before the piece; a part is
// sent as "stored" (uncompressed) blocks, which need no compressor at all; the last piece ends the stream. The gzip
// wrapper (RFC 1952) needs the CRC-32 and length of the whole: each piece's CRC is kept, a part's is taken (they are
// small), and they are joined by CRC-32's combination rule rather than by reading the page again.

/** A kept piece, compressed once. */
export interface DeflatedPiece {
  deflated: Buffer;
  crc: number;
  length: number;
}

/** A stored block holds at most this many bytes (its length is 16 bits). */
const STORED_MAX = 0xffff;
/** ID1 ID2, deflate, no flags, no time, no extra flags, unknown system. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

const deflateRaw = promisify(zlib.deflateRaw);

/**
 * Compresses a kept piece once (off the main thread, at gzip's best: it is paid once per kept render); every piece
 * but the last ends with a full flush, the last ends the stream.
 */
export async function deflatePiece(bytes: Buffer, last: boolean): Promise<DeflatedPiece> {
  const deflated = await deflateRaw(bytes, { level: 9, finishFlush: last ? zlib.constants.Z_FINISH : zlib.constants.Z_FULL_FLUSH });
  return { deflated, crc: zlib.crc32(bytes), length: bytes.byteLength };
}

/** Every piece of a cut page compressed once, the last ending the stream. */
export const deflatePieces = (pieces: readonly Buffer[]): Promise<DeflatedPiece[]> =>
  Promise.all(pieces.map((piece, i) => deflatePiece(piece, i === pieces.length - 1)));

/** A part as stored blocks (not final), which may follow a flushed piece: each starts at a byte boundary. */
function storedBlocks(bytes: Buffer): Buffer[] {
  const blocks: Buffer[] = [];
  for (let from = 0; from < bytes.byteLength; from += STORED_MAX) {
    const chunk = bytes.subarray(from, from + STORED_MAX);
    const head = Buffer.allocUnsafe(5);
    head[0] = 0; // BFINAL 0, BTYPE 00 (stored); the rest of the byte is padding
    head.writeUInt16LE(chunk.byteLength, 1);
    head.writeUInt16LE(~chunk.byteLength & 0xffff, 3);
    blocks.push(head, chunk);
  }
  return blocks;
}

/**
 * The gzip stream of pieces[0] + parts[0] + pieces[1] + … + pieces[n], where pieces come from deflatePiece (the last
 * with `last`) and there is one part fewer than pieces.
 */
export function splicedGzip(pieces: readonly DeflatedPiece[], parts: readonly Buffer[]): Buffer {
  const out: Buffer[] = [GZIP_HEADER];
  let crc = 0;
  let length = 0;
  pieces.forEach((piece, i) => {
    out.push(piece.deflated);
    crc = crc32Combine(crc, piece.crc, piece.length);
    length += piece.length;
    const part = parts[i];
    if (part && part.byteLength > 0) {
      out.push(...storedBlocks(part));
      crc = crc32Combine(crc, zlib.crc32(part), part.byteLength);
      length += part.byteLength;
    }
  });
  const trailer = Buffer.allocUnsafe(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(length >>> 0, 4);
  out.push(trailer);
  return Buffer.concat(out);
}

// CRC-32 combination as zlib's crc32_combine computes it: the CRC of A followed by B, from the CRC of A, the CRC of B
// and B's length, by multiplying A's CRC by x^(8·len(B)) modulo the CRC's polynomial (reflected, as CRC-32 is).
const POLY = 0xedb88320;

/** a · b modulo the polynomial, both reflected. */
function multiplyModP(a: number, b: number): number {
  let m = 0x80000000;
  let p = 0;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return p >>> 0;
}

/** x^(2^k) modulo the polynomial, for k = 0…31. */
const X_TO_2_TO_K: number[] = (() => {
  const table: number[] = [];
  let p = 0x40000000; // x^1
  for (let k = 0; k < 32; k++) {
    table.push(p);
    p = multiplyModP(p, p);
  }
  return table;
})();

/** x^(n·2^k) modulo the polynomial. */
function xToNTimes2ToK(n: number, k: number): number {
  let p = 0x80000000; // x^0
  while (n > 0) {
    if (n & 1) p = multiplyModP(X_TO_2_TO_K[k & 31]!, p);
    n = Math.floor(n / 2);
    k++;
  }
  return p;
}

/** The CRC-32 of A followed by B. */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  return (multiplyModP(xToNTimes2ToK(lengthB, 3), crcA) ^ crcB) >>> 0;
}
