import { randomBytes } from "node:crypto";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { crc32Combine, deflatePieces, splicedGzip } from "./spliced-gzip.ts";

const text = (s: string) => Buffer.from(s, "utf8");

/** The gzip of pieces with parts between them, as splicedGzip makes it, and what it must decode to. */
async function splice(pieces: Buffer[], parts: Buffer[]) {
  const deflated = await deflatePieces(pieces);
  const whole = Buffer.concat(pieces.flatMap((piece, i) => (i < parts.length ? [piece, parts[i]!] : [piece])));
  return { gzip: splicedGzip(deflated, parts), whole };
}

describe("a gzip stream spliced from pieces compressed once and parts per request", () => {
  it("decodes to the pieces and parts in order, with the CRC and length gunzip checks", async () => {
    const page = "<header>".repeat(200);
    const { gzip, whole } = await splice(
      [text(`<html>${page}<nav>`), text("</nav><main>" + "plant ".repeat(500)), text("</main></html>")],
      [text('<a title="Asha">Asha</a>'), text('<script type="application/json">{"cartCount":2}</script>')],
    );
    expect(zlib.gunzipSync(gzip)).toEqual(whole);
  });

  it("keeps the pieces compressed: the spliced stream is a small fraction of the page", async () => {
    const piece = text("<div class=\"product-card\">Snake Plant Rs. 499</div>".repeat(400));
    const { gzip, whole } = await splice([piece, piece], [text("<b>Ravi</b>")]);
    expect(zlib.gunzipSync(gzip)).toEqual(whole);
    expect(gzip.byteLength).toBeLessThan(whole.byteLength / 10);
  });

  it("decodes with empty pieces and empty parts, and with a single piece and no part", async () => {
    const { gzip, whole } = await splice([text(""), text("middle"), text("")], [text(""), text("part")]);
    expect(zlib.gunzipSync(gzip).toString()).toBe(whole.toString());
    expect(zlib.gunzipSync((await splice([text("alone")], [])).gzip).toString()).toBe("alone");
  });

  it("splits a part longer than one stored block (65,535 bytes) into several, and decodes it whole", async () => {
    const big = randomBytes(150_000);
    const { gzip, whole } = await splice([text("before"), text("after")], [big]);
    expect(zlib.gunzipSync(gzip)).toEqual(whole);
  });

  it("combines CRC-32s as the CRC of the joined bytes, for lengths from 0 to a megabyte", () => {
    for (const [a, b] of [[0, 0], [1, 0], [0, 1], [7, 13], [1000, 65_536], [3, 1_048_576]] as const) {
      const first = randomBytes(a);
      const second = randomBytes(b);
      expect(crc32Combine(zlib.crc32(first), zlib.crc32(second), b)).toBe(zlib.crc32(Buffer.concat([first, second])));
    }
  });
});
