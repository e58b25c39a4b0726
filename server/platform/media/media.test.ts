import { mkdtemp, readdir, rm, writeFile, access } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { crc32 } from "node:zlib";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InvalidInputError, ServiceError } from "../errors.ts";
import { MAX_IMAGE_BYTES } from "../../../common/shared/constants.ts";
import { messages } from "../../../common/shared/messages.ts";
import { BLUR_TEXT_SVG, MORPHOLOGY_SVG } from "../../../tests/support/costly-drawings.ts";
import { createDecoderPool } from "./decoder-pool.ts";
import { createMediaService, MAX_SVG_RENDERED_ELEMENTS, svgRenderCost, type MediaService, type StoredImage } from "./media.ts";

type Rgb = readonly [number, number, number];
type Painter = (x: number, y: number) => Rgb;

// Red and blue differ, so a decoder that swaps BGR for RGB shows up.
const AMBER: Rgb = [210, 120, 30];
const RED: Rgb = [220, 30, 30];
const GREEN: Rgb = [30, 170, 60];
const BLUE: Rgb = [30, 60, 220];
const amber: Painter = () => AMBER;

// ----- making test pictures -----

function rgbPixels(width: number, height: number, paint: Painter): Buffer {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) pixels.set(paint(x, y), (y * width + x) * 3);
  return pixels;
}

function drawn(width: number, height: number, paint: Painter) {
  return sharp(rgbPixels(width, height, paint), { raw: { width, height, channels: 3 } });
}

function encoded(format: "png" | "jpeg" | "gif" | "webp" | "tiff" | "avif", paint: Painter = amber, width = 64, height = 64) {
  return drawn(width, height, paint).toFormat(format).toBuffer();
}

/** Rows of BGR(A) pixels, bottom row first unless top-down, each padded to four bytes. */
function bmpRows(width: number, height: number, paint: Painter, bytesPerPixel: 3 | 4, alpha: number, topDown = false): Buffer {
  const stride = Math.ceil((width * bytesPerPixel) / 4) * 4;
  const rows = Buffer.alloc(stride * height);
  for (let row = 0; row < height; row++) {
    const y = topDown ? row : height - 1 - row;
    for (let x = 0; x < width; x++) {
      const [r, g, b] = paint(x, y);
      rows.set(bytesPerPixel === 4 ? [b, g, r, alpha] : [b, g, r], row * stride + x * bytesPerPixel);
    }
  }
  return rows;
}

/** A BITMAPINFOHEADER (40 bytes, BI_RGB). */
function infoHeader(width: number, height: number, bitsPerPixel: number, imageSize: number): Buffer {
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0);
  header.writeInt32LE(width, 4);
  header.writeInt32LE(height, 8);
  header.writeUInt16LE(1, 12);
  header.writeUInt16LE(bitsPerPixel, 14);
  header.writeUInt32LE(imageSize, 20);
  return header;
}

interface BmpOptions {
  bitsPerPixel?: 24 | 32;
  alpha?: number;
  topDown?: boolean;
  /** BI_BITFIELDS with these red, green and blue masks after the 40-byte header (32-bit only). */
  masks?: [number, number, number];
  /** Unused bytes between the header and the pixels, which the file's pixel offset skips. */
  gap?: number;
}

function bmp(width: number, height: number, paint: Painter, options: BmpOptions = {}): Buffer {
  const { bitsPerPixel = 24, alpha = 255, topDown = false, masks, gap = 0 } = options;
  const rows = bmpRows(width, height, paint, bitsPerPixel === 24 ? 3 : 4, alpha, topDown);
  const header = infoHeader(width, topDown ? -height : height, bitsPerPixel, rows.length);
  const extra = Buffer.alloc((masks ? 12 : 0) + gap);
  if (masks) {
    header.writeUInt32LE(3, 16);
    masks.forEach((mask, index) => extra.writeUInt32LE(mask, index * 4));
  }
  const fileHeader = Buffer.alloc(14);
  fileHeader.write("BM", 0, "latin1");
  fileHeader.writeUInt32LE(14 + 40 + extra.length + rows.length, 2);
  fileHeader.writeUInt32LE(14 + 40 + extra.length, 10);
  return Buffer.concat([fileHeader, header, extra, rows]);
}

const BGRA_MASKS: [number, number, number] = [0x00ff0000, 0x0000ff00, 0x000000ff];

/** A 1-bit BMP, all black: tiny on disk for its pixel count. */
function monochromeBmp(width: number, height: number): Buffer {
  const rows = Buffer.alloc(Math.ceil(width / 32) * 4 * height);
  const palette = Buffer.from([0, 0, 0, 0, 255, 255, 255, 0]);
  const fileHeader = Buffer.alloc(14);
  fileHeader.write("BM", 0, "latin1");
  fileHeader.writeUInt32LE(14 + 40 + palette.length + rows.length, 2);
  fileHeader.writeUInt32LE(14 + 40 + palette.length, 10);
  return Buffer.concat([fileHeader, infoHeader(width, height, 1, rows.length), palette, rows]);
}

/** A bitmap as an ICO stores it: header with doubled height, 32-bit BGRA rows, then the 1-bit AND mask. */
function icoBitmap(width: number, height: number, paint: Painter): Buffer {
  const rows = bmpRows(width, height, paint, 4, 255);
  const mask = Buffer.alloc((Math.ceil(width / 32) * 4) * height);
  return Buffer.concat([infoHeader(width, height * 2, 32, rows.length + mask.length), rows, mask]);
}

function ico(images: { width: number; height: number; data: Buffer }[]): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const directory = images.map(({ width, height, data }) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(width % 256, 0);
    entry.writeUInt8(height % 256, 1);
    entry.writeUInt16LE(1, 4);
    entry.writeUInt16LE(32, 6);
    entry.writeUInt32LE(data.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += data.length;
    return entry;
  });
  return Buffer.concat([header, ...directory, ...images.map((image) => image.data)]);
}

function svg(body: string, attributes = 'width="40" height="40"'): Buffer {
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" ${attributes}>${body}</svg>`);
}

const amberSvg = svg('<rect width="40" height="40" fill="rgb(210,120,30)"/>');

/** A real PNG whose header claims another size (with a correct checksum, so only the size is a lie). */
async function pngClaiming(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(await encoded("png", amber, 1, 1));
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

// ----- reading results -----

function fileOf(mediaDir: string, stored: StoredImage): string {
  return path.join(mediaDir, path.basename(stored.url));
}

async function colourAt(file: string, x: number, y: number): Promise<Rgb> {
  const { data, info } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [data[at] ?? -1, data[at + 1] ?? -1, data[at + 2] ?? -1];
}

function expectColour(actual: Rgb, expected: Rgb): void {
  actual.forEach((channel, index) => expect(Math.abs(channel - (expected[index] ?? 0)), `channel ${index} of ${actual.join(",")}`).toBeLessThan(30));
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => new Error("expected a refusal, but the picture was stored"),
    (error: unknown) => error,
  );
}

async function expectUnsupported(promise: Promise<unknown>): Promise<void> {
  const error = await failureOf(promise);
  expect(error).toBeInstanceOf(InvalidInputError);
  expect(error).toMatchObject({ status: 400, message: messages.images.unsupported, fieldErrors: { image: messages.images.unsupported } });
}

async function filesIn(folder: string): Promise<string[]> {
  return readdir(folder).catch(() => []);
}

// ----- the tests -----

describe("media service", () => {
  let root: string;
  let mediaDir: string;
  let media: MediaService;

  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), "plant-shop-media-"));
    mediaDir = path.join(root, "data", "media"); // missing on purpose: the service creates it
    media = createMediaService({ mediaDir });
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  describe("stores every accepted type as a square WebP without metadata", () => {
    const samples: [string, () => Promise<Uint8Array> | Uint8Array][] = [
      ["PNG", () => encoded("png")],
      ["JPEG", () => encoded("jpeg")],
      ["GIF", () => encoded("gif")],
      ["WEBP", () => encoded("webp")],
      ["TIFF", () => encoded("tiff")],
      ["BMP (24-bit)", () => bmp(30, 20, amber)],
      ["BMP (32-bit)", () => bmp(20, 20, amber, { bitsPerPixel: 32 })],
      ["ICO (bitmap entry)", () => ico([{ width: 32, height: 32, data: icoBitmap(32, 32, amber) }])],
      ["ICO (PNG entry)", async () => ico([{ width: 48, height: 48, data: await encoded("png", amber, 48, 48) }])],
      ["SVG", () => amberSvg],
    ];

    it.each(samples)("%s", async (_type, make) => {
      const stored = await media.saveSquareImage(await make());

      expect(stored).toEqual({ url: expect.stringMatching(/^\/media\/[0-9a-f]{32}\.webp$/), width: 256, height: 256 });
      expect(await filesIn(mediaDir)).toEqual([path.basename(stored.url)]); // no temporary file left behind
      const file = fileOf(mediaDir, stored);
      const metadata = await sharp(file).metadata();
      expect(metadata).toMatchObject({ format: "webp", width: 256, height: 256 });
      expect([metadata.exif, metadata.icc, metadata.xmp]).toEqual([undefined, undefined, undefined]);
      expectColour(await colourAt(file, 128, 128), AMBER);
    });
  });

  it("makes the size asked for and a fresh name each time", async () => {
    const data = await encoded("png");
    const first = await media.saveSquareImage(data, { size: 64 });
    const second = await media.saveSquareImage(data, { size: 64 });

    expect(first).toMatchObject({ width: 64, height: 64 });
    expect(first.url).not.toBe(second.url);
    expect(await sharp(fileOf(mediaDir, first)).metadata()).toMatchObject({ width: 64, height: 64 });
  });

  it("uses the public path it is given", async () => {
    const uploads = createMediaService({ mediaDir, publicPath: "/uploads/" });
    const stored = await uploads.saveSquareImage(await encoded("png"));

    expect(stored.url).toMatch(/^\/uploads\/[0-9a-f]{32}\.webp$/);
    await uploads.remove(stored.url);
    expect(await filesIn(mediaDir)).toEqual([]);
  });

  it("crops a wide picture to its centre", async () => {
    const thirds: Painter = (x) => (x < 100 ? RED : x < 200 ? GREEN : BLUE);
    const file = fileOf(mediaDir, await media.saveSquareImage(await encoded("png", thirds, 300, 100)));

    expect(await sharp(file).metadata()).toMatchObject({ width: 256, height: 256 });
    for (const x of [8, 128, 247]) expectColour(await colourAt(file, x, 128), GREEN);
  });

  it("crops a tall picture to its centre", async () => {
    const thirds: Painter = (_x, y) => (y < 100 ? RED : y < 200 ? GREEN : BLUE);
    const file = fileOf(mediaDir, await media.saveSquareImage(await encoded("jpeg", thirds, 100, 300)));

    for (const y of [8, 128, 247]) expectColour(await colourAt(file, 128, y), GREEN);
  });

  it("turns a photo the way its EXIF orientation says, then drops EXIF, ICC profile and XMP", async () => {
    const halves: Painter = (x) => (x < 100 ? RED : BLUE);
    const photo = await drawn(200, 100, halves)
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExifMerge({ IFD0: { Copyright: "Somebody" } })
      .withIccProfile("p3")
      .withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/"></x:xmpmeta>')
      .toBuffer();
    const before = await sharp(photo).metadata();
    expect(before).toMatchObject({ orientation: 6, exif: expect.any(Buffer), icc: expect.any(Buffer), xmp: expect.any(Buffer) });

    const file = fileOf(mediaDir, await media.saveSquareImage(photo));

    const after = await sharp(file).metadata();
    expect([after.exif, after.icc, after.xmp, after.orientation]).toEqual([undefined, undefined, undefined, undefined]);
    // Orientation 6 means "turn 90° clockwise": the left half (red) ends up on top.
    expectColour(await colourAt(file, 128, 20), RED);
    expectColour(await colourAt(file, 128, 235), BLUE);
  });

  describe("BMP and ICO", () => {
    const halves: Painter = (_x, y) => (y < 20 ? RED : BLUE);

    it("reads bottom-up and top-down bitmaps the right way up", async () => {
      for (const topDown of [false, true]) {
        const file = fileOf(mediaDir, await media.saveSquareImage(bmp(40, 40, halves, { topDown })));
        expectColour(await colourAt(file, 128, 20), RED);
        expectColour(await colourAt(file, 128, 235), BLUE);
      }
    });

    it("reads a palette bitmap", async () => {
      const file = fileOf(mediaDir, await media.saveSquareImage(monochromeBmp(8, 8)));

      expectColour(await colourAt(file, 128, 128), [0, 0, 0]);
    });

    it("finds the pixels where the file says, after colour masks or a gap", async () => {
      const quarters: Painter = (x, y) => (y >= 10 ? BLUE : x < 10 ? AMBER : RED);
      for (const data of [bmp(20, 20, quarters, { bitsPerPixel: 32, masks: BGRA_MASKS }), bmp(20, 20, quarters, { gap: 10 })]) {
        const file = fileOf(mediaDir, await media.saveSquareImage(data));
        expectColour(await colourAt(file, 64, 64), AMBER);
        expectColour(await colourAt(file, 192, 64), RED);
        expectColour(await colourAt(file, 128, 192), BLUE);
      }
    });

    it("shows a 32-bit bitmap whose unused fourth byte is zero as opaque", async () => {
      const file = fileOf(mediaDir, await media.saveSquareImage(bmp(20, 20, amber, { bitsPerPixel: 32, alpha: 0 })));

      expect((await sharp(file).metadata()).hasAlpha).toBe(false);
      expectColour(await colourAt(file, 128, 128), AMBER);
    });

    it("keeps real transparency of a 32-bit bitmap", async () => {
      const file = fileOf(mediaDir, await media.saveSquareImage(bmp(20, 20, amber, { bitsPerPixel: 32, alpha: 0x80 })));

      const { data } = await sharp(file).raw().toBuffer({ resolveWithObject: true });
      expect((await sharp(file).metadata()).hasAlpha).toBe(true);
      expect(Math.abs((data[(128 * 256 + 128) * 4 + 3] ?? 0) - 0x80)).toBeLessThan(8);
    });

    it("takes the largest image of an icon, bitmap or PNG", async () => {
      const smallRedPng = await encoded("png", () => RED, 16, 16);
      const largeAmberPng = await encoded("png", amber, 48, 48);
      const icons = [
        ico([{ width: 16, height: 16, data: smallRedPng }, { width: 48, height: 48, data: icoBitmap(48, 48, amber) }]),
        ico([{ width: 16, height: 16, data: icoBitmap(16, 16, () => RED) }, { width: 48, height: 48, data: largeAmberPng }]),
      ];
      for (const icon of icons) {
        expectColour(await colourAt(fileOf(mediaDir, await media.saveSquareImage(icon)), 128, 128), AMBER);
      }
    });
  });

  describe("refuses what is not an accepted image, storing nothing", () => {
    const png = () => encoded("png");
    const refused: [string, () => Promise<Uint8Array> | Uint8Array][] = [
      ["empty data", () => new Uint8Array()],
      ["a text file", () => Buffer.from("Monstera deliciosa, 2 pots\n")],
      ["a PDF", () => Buffer.from("%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n")],
      ["an HTML page", () => Buffer.from("<!doctype html><html><body><svg></svg></body></html>")],
      ["a PNG signature followed by junk", () => Buffer.concat([Buffer.from("\x89PNG\r\n\x1a\n", "latin1"), Buffer.alloc(500, "junk")])],
      ["a PNG header followed by junk", async () => Buffer.concat([(await png()).subarray(0, 33), Buffer.alloc(500, "junk")])],
      ["a PNG with a sound header but damaged pixel data", async () => {
        const data = Buffer.from(await encoded("png", (x, y) => [x * 4, y * 4, (x * y) % 256]));
        data.fill(0x5a, 200, data.length - 20);
        return data;
      }],
      ["a PNG cut short", async () => (await png()).subarray(0, 60)],
      ["an AVIF (decodable, but not on the list)", () => encoded("avif")],
      ["a BMP claiming 100,000 × 100,000 pixels", () => {
        const data = bmp(2, 2, amber);
        data.writeInt32LE(100_000, 18);
        data.writeInt32LE(100_000, 22);
        return data;
      }],
      ["a 1-bit BMP of 4,000 × 4,000 pixels (2 MB, but 64 MB to decode in JavaScript)", () => monochromeBmp(4000, 4000)],
      ["a BMP whose colour masks decode-bmp would ignore", () => bmp(4, 4, amber, { bitsPerPixel: 32, masks: [0xff000000, 0x00ff0000, 0x0000ff00] })],
      ["a run-length compressed BMP", () => {
        const data = bmp(4, 4, amber);
        data.writeUInt32LE(1, 30); // BI_RLE8
        return data;
      }],
      ["a BMP whose pixel offset points into its header", () => {
        const data = bmp(4, 4, amber);
        data.writeUInt32LE(40, 10);
        return data;
      }],
      ["an ICO whose entries all point at one large bitmap", () => {
        const bitmap = icoBitmap(256, 256, amber);
        const data = ico(Array.from({ length: 200 }, () => ({ width: 256, height: 256, data: Buffer.alloc(0) })));
        for (let index = 0; index < 200; index++) {
          data.writeUInt32LE(bitmap.length, 6 + 16 * index + 8);
          data.writeUInt32LE(data.length, 6 + 16 * index + 12);
        }
        return Buffer.concat([data, bitmap]);
      }],
      ["an ICO with no images", () => ico([])],
    ];

    it.each(refused)("%s", async (_what, make) => {
      await expectUnsupported(media.saveSquareImage(await make()));
      expect(await filesIn(mediaDir)).toEqual([]);
    });
  });

  it("refuses a PNG claiming 10,000 × 10,000 pixels from its header, naming the limit of 40 megapixels", async () => {
    await expect(media.saveSquareImage(await pngClaiming(10_000, 10_000))).rejects.toMatchObject({
      status: 400,
      message: messages.images.tooManyPixels,
      fieldErrors: { image: messages.images.tooManyPixels },
    });
    expect(await filesIn(mediaDir)).toEqual([]);
  });

  it("refuses a file over 10 MB with 413, and one of exactly 10 MB only for what it is", async () => {
    const error = await failureOf(media.saveSquareImage(new Uint8Array(MAX_IMAGE_BYTES + 1)));
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({
      status: 413,
      message: "The picture is too large (at most 10 MB).",
      fieldErrors: { image: "The picture is too large (at most 10 MB)." },
    });

    await expectUnsupported(media.saveSquareImage(new Uint8Array(MAX_IMAGE_BYTES)));
  });

  describe("SVG", () => {
    it("accepts a BOM, an XML declaration, comments, internal references and data: images", async () => {
      const dot = (await encoded("png", amber, 4, 4)).toString("base64");
      const document = Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from('<?xml version="1.0" encoding="UTF-8"?>\n<!-- drawn by hand -->\n'),
        svg(
          `<defs><rect id="r" width="20" height="40" fill="rgb(210,120,30)"/></defs>` +
            `<use href="#r"/><image x="20" width="20" height="40" preserveAspectRatio="none" xlink:href="data:image/png;base64,${dot}"/>`,
        ),
      ]);
      const file = fileOf(mediaDir, await media.saveSquareImage(document));

      expect(await sharp(file).metadata()).toMatchObject({ format: "webp", width: 256, height: 256 });
      expectColour(await colourAt(file, 64, 128), AMBER);
      expectColour(await colourAt(file, 192, 128), AMBER);
    });

    it.each([
      ["24 px", 'width="24" height="24"'],
      ["100,000 px (more than the pixel limit)", 'width="100000" height="100000"'],
    ])("draws a drawing declared %s across at the size asked for, sharply", async (_size, attributes) => {
      const halves = '<rect width="20" height="40" fill="rgb(210,120,30)"/><rect x="20" width="20" height="40" fill="rgb(30,60,220)"/>';
      const file = fileOf(mediaDir, await media.saveSquareImage(svg(halves, `${attributes} viewBox="0 0 40 40"`)));

      // Drawn at 24 px and then enlarged, the edge in the middle would be a blur some ten pixels wide.
      expectColour(await colourAt(file, 121, 128), AMBER);
      expectColour(await colourAt(file, 135, 128), BLUE);
    });

    it("refuses a drawing declared 1,000,000 px across, too large to draw even at the lowest density, naming the pixel limit", async () => {
      const declared = svg('<rect width="40" height="40" fill="rgb(210,120,30)"/>', 'width="1000000" height="1000000" viewBox="0 0 40 40"');
      await expect(media.saveSquareImage(declared)).rejects.toMatchObject({
        status: 400,
        message: messages.images.tooManyPixels,
        fieldErrors: { image: messages.images.tooManyPixels },
      });
      expect(await filesIn(mediaDir)).toEqual([]);
    });

    const unsafe: [string, string][] = [
      ["an entity", '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>'],
      ["entity expansion (billion laughs)", '<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><svg xmlns="http://www.w3.org/2000/svg"><text>&b;</text></svg>'],
      ["a DOCTYPE", '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd"><svg xmlns="http://www.w3.org/2000/svg"/>'],
      ["a script", svg("<script>alert(1)</script>").toString()],
      ["a foreignObject", svg('<foreignObject width="10" height="10"><p xmlns="http://www.w3.org/1999/xhtml">hi</p></foreignObject>').toString()],
      ["an xlink:href to a local file", svg('<image width="40" height="40" xlink:href="file:///etc/passwd"/>').toString()],
      ["an href to the network", svg("<image width='40' height='40' href='https://example.com/x.png'/>").toString()],
      ["an href with another namespace prefix", svg('<image width="40" height="40" xmlns:l="http://www.w3.org/1999/xlink" l:href="/etc/passwd"/>').toString()],
      ["an href hidden behind a character reference", svg('<image width="40" height="40" href="&#102;ile:///etc/passwd"/>').toString()],
      ["a relative href", svg('<use href="other.svg#shape"/>').toString()],
      ["a CSS url() to a file", svg('<rect width="40" height="40" style="fill: url(\'file:///etc/passwd#x\')"/>').toString()],
      ["a CSS @import", svg("<style>@import 'https://example.com/a.css';</style>").toString()],
      ["a stylesheet processing instruction", `<?xml-stylesheet href="https://example.com/a.css"?>${svg("").toString()}`],
      ["an encoding other than UTF-8", `<?xml version="1.0" encoding="UTF-7"?>${svg("+ADw-script+AD4-").toString()}`],
      ["another root element", '<html xmlns="http://www.w3.org/1999/xhtml"><svg xmlns="http://www.w3.org/2000/svg"/></html>'],
      ["an unclosed comment before the root", "<!-- <svg xmlns='http://www.w3.org/2000/svg'/>"],
      ["SVG markup that does not parse", '<svg xmlns="http://www.w3.org/2000/svg"><rect</svg>'],
    ];

    it.each(unsafe)("refuses %s", async (_what, text) => {
      await expectUnsupported(media.saveSquareImage(Buffer.from(text)));
      expect(await filesIn(mediaDir)).toEqual([]);
    });

    const filtered: [string, Buffer][] = [
      ["five rectangles under three feMorphology filters of a large radius", Buffer.from(MORPHOLOGY_SVG)],
      ["text under a huge feGaussianBlur", Buffer.from(BLUR_TEXT_SVG)],
      ["a filter primitive alone", svg('<feTurbulence numOctaves="1000"/>')],
      ["a filter with a namespace prefix", svg('<svg:filter xmlns:svg="http://www.w3.org/2000/svg" id="f"/>')],
      ["a CSS filter function in a style attribute", svg('<rect width="40" height="40" style="filter: blur(300px)"/>')],
      ["a CSS filter function in a style sheet", svg("<style>rect { filter:drop-shadow(0 0 90px black) }</style><rect/>")],
      ["a filter attribute pointing nowhere", svg('<rect width="40" height="40" filter="url(#nowhere)"/>')],
    ];

    it.each(filtered)("refuses a drawing with %s, naming filters, before any decoder process is started", async (_what, data) => {
      // A pool of its own, so that what it started can be seen: nothing.
      const decoders = createDecoderPool({ concurrency: 1, waiting: 1, cpuLimitMs: 60_000, wallLimitMs: 60_000 });
      const own = createMediaService({ mediaDir, decoders });
      await expect(own.saveSquareImage(data)).rejects.toMatchObject({ status: 400, message: messages.images.svgFilters, fieldErrors: { image: messages.images.svgFilters } });
      expect(decoders.pids()).toEqual([]);
      expect(await filesIn(mediaDir)).toEqual([]);
      await own.close();
    });

    it("still accepts a drawing whose text or ids merely contain the word filter", async () => {
      const file = fileOf(mediaDir, await media.saveSquareImage(svg('<rect id="filterless" width="40" height="40" fill="rgb(210,120,30)"/><text y="30" font-size="5">no filter here</text>')));
      expectColour(await colourAt(file, 128, 64), AMBER);
    });
  });

  describe("remove", () => {
    it("deletes a stored picture", async () => {
      const stored = await media.saveSquareImage(await encoded("png"));

      await media.remove(stored.url);

      expect(await filesIn(mediaDir)).toEqual([]);
    });

    it("ignores a picture already gone and urls that are not its own", async () => {
      const stored = await media.saveSquareImage(await encoded("png"));
      const name = path.basename(stored.url);
      const outside = path.join(root, "data", name);
      await writeFile(outside, "not in the media folder");

      for (const url of [
        "/media/0123456789abcdef0123456789abcdef.webp",
        `/other/${name}`,
        `https://cdn.example.com/media/${name}`,
        `/media/../${name}`,
        `/media/x/../${name}`,
        `/media/${name}?v=1`,
        "/media/",
        "/avatars/initials.svg?name=Asha",
        "",
      ]) {
        await expect(media.remove(url)).resolves.toBeUndefined();
      }

      expect(await filesIn(mediaDir)).toEqual([name]);
      await expect(access(outside)).resolves.toBeUndefined();
    });

    it("deletes a picture stored for an owner only when asked for that same owner", async () => {
      const asha = await media.saveSquareImage(await encoded("png"), { owner: "user-asha" });
      const unowned = await media.saveSquareImage(await encoded("png"));
      const name = path.basename(asha.url);

      await media.remove(asha.url, { owner: "user-ravi" });
      await media.remove(asha.url);
      await media.remove(unowned.url, { owner: "user-ravi" });
      expect((await filesIn(mediaDir)).sort()).toEqual([name, path.basename(unowned.url)].sort());

      await media.remove(asha.url, { owner: "user-asha" });
      expect(await filesIn(mediaDir)).toEqual([path.basename(unowned.url)]);
    });

    it("does nothing when the media folder does not exist yet", async () => {
      await expect(media.remove("/media/0123456789abcdef0123456789abcdef.webp")).resolves.toBeUndefined();
      expect(await filesIn(mediaDir)).toEqual([]);
    });
  });
});

describe("svgRenderCost", () => {
  const svg = (body: string) => `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">${body}</svg>`;

  it("counts each element once and each <use> as a copy of what it points at, nested references multiplying", () => {
    expect(svgRenderCost(svg('<rect width="1" height="1"/><circle r="1"/>'))).toBe(3);
    expect(svgRenderCost(svg('<g id="a"><rect/><rect/></g><use href="#a"/><use xlink:href="#a"/>'))).toBe(1 + 3 + 2 * (1 + 3));
    const levels = [1, 2, 3, 4].map((level) => `<g id="l${level}">${`<use href="#l${level - 1}"/>`.repeat(10)}</g>`).join("");
    expect(svgRenderCost(svg(`<defs><g id="l0"><rect/></g>${levels}</defs><use href="#l4"/>`))).toBeGreaterThan(MAX_SVG_RENDERED_ELEMENTS);
  });

  it("counts url(#…) references such as patterns as copies of what they point at", () => {
    expect(svgRenderCost(svg('<pattern id="p"><rect/></pattern><rect fill="url(#p)"/>'))).toBe(1 + 2 + (1 + 2));
  });

  it("counts the characters of text, four to an element, in every copy a <use> makes", () => {
    expect(svgRenderCost(svg("<text>Monstera <tspan>deliciosa</tspan></text>"))).toBe(1 + 1 + 8 / 4 + 1 + 9 / 4);
    expect(svgRenderCost(svg('<text id="t">abcdefgh</text><use href="#t"/><use href="#t"/>'))).toBe(1 + 3 + 2 * (1 + 3));
    expect(svgRenderCost(svg(`<text>${"x".repeat(4 * MAX_SVG_RENDERED_ELEMENTS)}</text>`))).toBeGreaterThan(MAX_SVG_RENDERED_ELEMENTS);
  });

  it("counts the numbers of a path or polygon, eight to an element, so that a path of many segments counts as many elements", () => {
    expect(svgRenderCost(svg('<path d="M0 0 L10 10 L0 10 L10 0 Z"/><polygon points="0,0 1,1 2,0 3,1"/>'))).toBe(1 + (1 + 8 / 8) + (1 + 8 / 8));
    const segments = Array.from({ length: 10 * MAX_SVG_RENDERED_ELEMENTS }, (_, i) => `L${i % 1000} ${(i % 2) * 1000}`).join(" ");
    expect(svgRenderCost(svg(`<path d="M0 0 ${segments}"/>`))).toBeGreaterThan(MAX_SVG_RENDERED_ELEMENTS);
  });

  it("is endless for a reference cycle, unclosed markup and referencing style sheets", () => {
    expect(svgRenderCost(svg('<g id="a"><use href="#b"/></g><g id="b"><use href="#a"/></g>'))).toBe(Infinity);
    expect(svgRenderCost('<svg><g><rect/></svg>')).toBe(Infinity);
    expect(svgRenderCost(svg("<style>rect { fill: url(#p) }</style><rect/>"))).toBe(Infinity);
  });
});
