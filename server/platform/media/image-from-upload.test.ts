import { mkdtempSync, rmSync } from "node:fs";
import { readdir } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { messages } from "#common/shared/messages.ts";
import { MAX_UPLOAD_BYTES } from "#common/shared/uploads.ts";
import type { SessionUser } from "../session-user.ts";
import { createResumableUploads, type ResumableUploads } from "../uploads/resumable-uploads.ts";
import { createMediaService, type MediaService } from "./media.ts";
import { pixelFloodPng } from "../../../tests/support/pixel-flood-png.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database.ts";

// media.imageFromUpload: a finished tus upload becomes stored images, or is refused with a message naming why.

const owner: SessionUser = { id: "owner-1", name: "Owner", email: "owner@example.com", username: "owner", image: null, emailVerified: true, isAdmin: true };

let dataDir: string;
let database: TestDatabase;
let uploads: ResumableUploads;
let media: MediaService;

beforeEach(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "plant-shop-media-"));
  database = await createTestDatabase();
  // One byte over the product limit may arrive here, so that the media service's own check is what refuses it.
  uploads = createResumableUploads({ database, directory: path.join(dataDir, "uploads"), basePath: "/api/uploads", maxBytes: MAX_UPLOAD_BYTES + 1 });
  media = createMediaService({ mediaDir: path.join(dataDir, "media"), uploads });
});
afterEach(async () => {
  await database.cleanup();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Uploads `bytes` through the tus handler as `user` (one PATCH) and returns the upload id. */
async function finishedUpload(bytes: Uint8Array, user: SessionUser = owner, name = "plant.png"): Promise<string> {
  const tus = { "Tus-Resumable": "1.0.0" };
  const meta = `purpose ${btoa("product")},filename ${btoa(name)}`;
  const created = await uploads.handle(
    new Request("http://127.0.0.1/api/uploads", { method: "POST", headers: { ...tus, "Upload-Length": String(bytes.byteLength), "Upload-Metadata": meta } }),
    user,
  );
  expect(created.status).toBe(201);
  const location = created.headers.get("Location")!;
  const patched = await uploads.handle(
    new Request(`http://127.0.0.1${location}`, {
      method: "PATCH",
      headers: { ...tus, "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream" },
      body: new Uint8Array(bytes),
    }),
    user,
  );
  expect(patched.status).toBe(204);
  return location.split("/").pop()!;
}

const storedFiles = () => readdir(path.join(dataDir, "media")).catch(() => [] as string[]);
const rawUploads = () => readdir(path.join(dataDir, "uploads"));

/** A PNG whose header claims width × height, with one tiny compressed row after it: a decompression bomb's shape. */
describe("refusing what is not a usable picture", () => {
  it("refuses a text file named .png with a message naming the accepted types, and deletes the upload", async () => {
    const id = await finishedUpload(new TextEncoder().encode("these are not the pixels you are looking for\n".repeat(50)), owner, "plant.png");
    const refusal = media.imageFromUpload(id, owner.id);
    await expect(refusal).rejects.toMatchObject({ status: 400, message: messages.images.unsupported });
    expect(messages.images.unsupported).toContain("PNG, JPG, JPEG, SVG, GIF, WEBP, BMP, TIFF or ICO");
    expect(await rawUploads()).toEqual([]);
    expect(await storedFiles()).toEqual([]);
  });

  it("refuses a PNG declaring 100,000 × 100,000 pixels from its header, with the message on the pixel count", async () => {
    const id = await finishedUpload(await pixelFloodPng(100_000, 100_000));
    // Decoding it would need 30 GB. Only the look at the header answers with the pixel-count message: a decode
    // stopped by the decoder's own pixel limit would be refused as a broken file. (It runs in a decoder process,
    // so this process's memory says nothing about it.)
    await expect(media.imageFromUpload(id, owner.id)).rejects.toMatchObject({ status: 400, message: messages.images.tooManyPixels });
    expect(messages.images.tooManyPixels).not.toBe(messages.images.unsupported);
    expect(await rawUploads()).toEqual([]);
  });

  it("refuses a finished upload over 20 MB with a message naming the limit", async () => {
    const id = await finishedUpload(new Uint8Array(MAX_UPLOAD_BYTES + 1));
    await expect(media.imageFromUpload(id, owner.id)).rejects.toMatchObject({ status: 413, message: messages.images.productTooLarge });
    expect(await rawUploads()).toEqual([]);
  });

  it("refuses an upload deleted while it waited for a decoder as one that does not exist, not with a server error", async () => {
    const id = await finishedUpload(await sharp({ create: { width: 10, height: 10, channels: 3, background: "#fff" } }).png().toBuffer());
    // Its owner's tus DELETE lands after the upload was found and before its bytes are read.
    const deletedMeanwhile: ResumableUploads = {
      ...uploads,
      async takeFinished(uploadId, uploaderId) {
        const upload = await uploads.takeFinished(uploadId, uploaderId);
        await uploads.remove(uploadId);
        return upload;
      },
    };
    const racing = createMediaService({ mediaDir: path.join(dataDir, "media"), uploads: deletedMeanwhile });
    await expect(racing.imageFromUpload(id, owner.id)).rejects.toMatchObject({ status: 400, message: messages.uploads.notFound });
    expect(await storedFiles()).toEqual([]);
  });

  it("refuses to use somebody else's upload, leaving it in place", async () => {
    const id = await finishedUpload(await sharp({ create: { width: 10, height: 10, channels: 3, background: "#fff" } }).png().toBuffer());
    await expect(media.imageFromUpload(id, "someone-else")).rejects.toMatchObject({ status: 400, message: messages.uploads.notFound });
    expect(await rawUploads()).toHaveLength(2);
  });
});

describe("the stored images", () => {
  it("are made at 320, 640 and the picture's own width when it is under 1280, never upscaled", { timeout: 60_000 }, async () => {
    const wide = await media.imageFromUpload(
      await finishedUpload(await sharp({ create: { width: 900, height: 600, channels: 3, background: "#52796f" } }).png().toBuffer()),
      owner.id,
    );
    expect(wide).toMatchObject({ width: 900, height: 600, sourceType: "png", url: `/media/${wide.key}-900.webp` });
    const small = await media.imageFromUpload(
      await finishedUpload(await sharp({ create: { width: 200, height: 100, channels: 4, background: "#84a98cff" } }).webp().toBuffer()),
      owner.id,
    );
    expect(small).toMatchObject({ width: 200, height: 100 });
    const files = (await storedFiles()).sort();
    const expected = [
      ...[320, 640, 900].flatMap((w) => [`${wide.key}-${w}.avif`, `${wide.key}-${w}.webp`]),
      `${small.key}-200.avif`,
      `${small.key}-200.webp`,
    ].sort();
    expect(files).toEqual(expected);
    for (const width of [320, 640, 900]) {
      expect((await sharp(path.join(dataDir, "media", `${wide.key}-${width}.avif`)).metadata()).width).toBe(width);
    }
  });

  it("keep no metadata: a JPEG's GPS position and camera are gone from every file", { timeout: 60_000 }, async () => {
    const photo = await sharp({ create: { width: 700, height: 500, channels: 3, background: "#354f52" } })
      .jpeg()
      .withExif({
        IFD0: { Make: "PlantCam", Model: "Fern 1" },
        IFD3: { GPSLatitudeRef: "N", GPSLatitude: "12/1 58/1 0/1", GPSLongitudeRef: "E", GPSLongitude: "77/1 35/1 0/1" },
      })
      .toBuffer();
    expect((await sharp(photo).metadata()).exif?.toString("latin1")).toContain("PlantCam");
    const image = await media.imageFromUpload(await finishedUpload(photo, owner, "photo.jpg"), owner.id);
    const files = await storedFiles();
    expect(files).toHaveLength(6);
    for (const file of files) {
      const stored = await sharp(path.join(dataDir, "media", file)).metadata();
      expect(stored.exif).toBeUndefined();
      expect(stored.xmp).toBeUndefined();
      expect(stored.iptc).toBeUndefined();
    }
    expect(image.sourceType).toBe("jpeg");
  });

  it("are served only by the names the media service makes, as images", async () => {
    const image = await media.imageFromUpload(
      await finishedUpload(await sharp({ create: { width: 50, height: 50, channels: 3, background: "#000" } }).png().toBuffer()),
      owner.id,
    );
    expect(await media.open(`${image.key}-50.avif`)).toMatchObject({ contentType: "image/avif" });
    expect(await media.open(`${image.key}-50.webp`)).toMatchObject({ contentType: "image/webp" });
    for (const name of ["../uploads/x.webp", `${image.key}-50.html`, "index.html", `${image.key}-50.webp/..`]) {
      expect(await media.open(name)).toBeNull();
    }
    await media.removeImageSet(image.key, image.width);
    expect(await storedFiles()).toEqual([]);
  });
});
