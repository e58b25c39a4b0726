import { readdir, rm, stat } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import sharp from "sharp";
import { Upload } from "tus-js-client";
import { beforeEach, describe, expect, it } from "vitest";
import { messages } from "../../common/shared/messages.ts";
import { MAX_UPLOAD_BYTES, UPLOAD_CHUNK_BYTES, UPLOADS_PATH } from "../../common/shared/uploads.ts";
import { createResumableUploads } from "../../server/platform/uploads/resumable-uploads.ts";
import { UPLOAD_HOLD_SETTLE_MS } from "../../server/platform/uploads/upload-quota.ts";
import { newPerson, signUpVerified } from "../support/accounts.ts";
import { useAppWithMail } from "../support/app-with-mail.ts";
import { TEST_ORIGIN, type TestApp } from "../support/test-app.ts";

// The tus endpoint (/api/uploads): who may upload, 5 MiB chunks, resuming from what arrived, expiry, the quotas of
// unfinished uploads and the disk's reserve. Every app here has small quotas (20 MB per admin, 40 MB in all) and a
// disk whose free space the test sets (plenty unless a test says otherwise).

const MiB = 1024 * 1024;
const QUOTAS = { UPLOAD_QUOTA_PER_ADMIN_MB: "20", UPLOAD_QUOTA_TOTAL_MB: "40", MIN_FREE_DISK_MB: "100" };
const disk = { freeBytes: Number.MAX_SAFE_INTEGER };
beforeEach(() => {
  disk.freeBytes = Number.MAX_SAFE_INTEGER;
});
const shop = useAppWithMail(QUOTAS, { freeDiskSpace: () => Promise.resolve(disk.freeBytes) });
const TUS = { "Tus-Resumable": "1.0.0", Origin: TEST_ORIGIN };
const metadata = (purpose: string) => `purpose ${Buffer.from(purpose).toString("base64")}`;

async function signUpAdmin(name = "Owner") {
  const admin = await signUpVerified(shop.app, shop.capture, newPerson({ name }));
  await shop.app.services.accounts.setAdmin(admin.person.email, true);
  return admin;
}

function createUpload(cookie: string | null, length: number, purpose = "product") {
  return shop.app.request("/api/uploads", {
    method: "POST",
    headers: { ...TUS, "Upload-Length": String(length), "Upload-Metadata": metadata(purpose), ...(cookie ? { Cookie: cookie } : {}) },
  });
}

function sendChunk(location: string, cookie: string, offset: number, chunk: Uint8Array) {
  return shop.app.request(location, {
    method: "PATCH",
    headers: { ...TUS, Cookie: cookie, "Upload-Offset": String(offset), "Content-Type": "application/offset+octet-stream" },
    body: new Uint8Array(chunk),
  });
}

const offsetOf = async (location: string, cookie: string) => {
  const response = await shop.app.request(location, { method: "HEAD", headers: { ...TUS, Cookie: cookie } });
  expect(response.status).toBe(200);
  return Number(response.headers.get("Upload-Offset"));
};

/** A photo-like JPEG of about `bytes` (noise compresses badly, so the size is predictable). */
async function noisyJpeg(width: number, height: number) {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 2654435761) >>> 24;
  return sharp(pixels, { raw: { width, height, channels: 3 } }).jpeg({ quality: 100 }).toBuffer();
}

/** The files in the uploads folder (each upload is its bytes and a description). */
const uploadFiles = (app: TestApp) => readdir(path.join(app.dataDir, "uploads")).catch(() => []);

describe("who may upload", () => {
  it("refuses a visitor with 401 and a shopper with 403 for every purpose, a profile picture included, storing nothing", async () => {
    const visitor = await createUpload(null, 1000);
    expect(visitor.status).toBe(401);
    expect((await visitor.json()).message).toBe(messages.uploads.loginFirst);

    const user = await signUpVerified(shop.app, shop.capture);
    for (const purpose of ["product", "category", "profile"]) {
      const refused = await createUpload(user.cookie, 1000, purpose);
      expect(refused.status).toBe(403);
      expect((await refused.json()).message).toBe(messages.uploads.adminsOnly);
    }
    expect(await uploadFiles(shop.app)).toEqual([]);
  });

  it("refuses a profile-picture upload from an admin too: it is not a purpose uploads are for", async () => {
    const admin = await signUpAdmin();
    const refused = await createUpload(admin.cookie, 1000, "profile");
    expect(refused.status).toBe(400);
    expect((await refused.json()).message).toBe(messages.uploads.unknownPurpose);
    expect((await createUpload(admin.cookie, 1000, "product")).status).toBe(201);
    expect(await uploadFiles(shop.app)).toHaveLength(2); // the product picture's file and its description
  });

  it("treats somebody else's upload as one that does not exist", async () => {
    const admin = await signUpAdmin();
    const other = await signUpVerified(shop.app, shop.capture, newPerson({ name: "Ravi Menon" }));
    const location = (await createUpload(admin.cookie, 10)).headers.get("Location")!;
    const head = await shop.app.request(location, { method: "HEAD", headers: { ...TUS, Cookie: other.cookie } });
    expect(head.status).toBe(404);
    const patch = await sendChunk(location, other.cookie, 0, new Uint8Array(10));
    expect(patch.status).toBe(404);
    expect(await offsetOf(location, admin.cookie)).toBe(0);
  });

  it("acts only on the upload its path names: a query string naming somebody else's upload changes or deletes nothing of theirs", async () => {
    const admin = await signUpAdmin();
    const other = await signUpVerified(shop.app, shop.capture, newPerson({ name: "Kiran Rao" }));
    await shop.app.services.accounts.setAdmin(other.person.email, true);
    const theirs = (await createUpload(admin.cookie, 5)).headers.get("Location")!;
    const mine = (await createUpload(other.cookie, 5, "category")).headers.get("Location")!;
    // tus reads an id from the end of the whole URL, query string included; the ownership check reads the path.
    const aimedAtTheirs = `${mine}?then=/${theirs.split("/").pop()}`;

    const patch = await sendChunk(aimedAtTheirs, other.cookie, 0, new TextEncoder().encode("EVIL!"));
    expect(patch.status).toBe(204);
    expect(await offsetOf(theirs, admin.cookie)).toBe(0);
    expect(await offsetOf(mine, other.cookie)).toBe(5);

    const removed = await shop.app.request(aimedAtTheirs, { method: "DELETE", headers: { ...TUS, Cookie: other.cookie } });
    expect(removed.status).toBe(204);
    expect(await offsetOf(theirs, admin.cookie)).toBe(0);
    expect((await shop.app.request(mine, { method: "HEAD", headers: { ...TUS, Cookie: other.cookie } })).status).toBe(404);
  });

  it("refuses an upload declared larger than 20 MB before any byte is sent, naming the limit", async () => {
    const admin = await signUpAdmin();
    const response = await createUpload(admin.cookie, MAX_UPLOAD_BYTES + 1);
    expect(response.status).toBe(413);
    expect((await response.json()).message).toBe(messages.uploads.tooLarge);
  });

  it("never hands the raw bytes back (no GET on an upload)", async () => {
    const admin = await signUpAdmin();
    const location = (await createUpload(admin.cookie, 4)).headers.get("Location")!;
    await sendChunk(location, admin.cookie, 0, new TextEncoder().encode("<b>"));
    const response = await shop.app.request(location, { headers: { Cookie: admin.cookie } });
    expect(response.status).toBe(405);
  });

  it("runs only the method it checked: a method override cannot turn a PATCH into a download", async () => {
    const admin = await signUpAdmin();
    const location = (await createUpload(admin.cookie, 4)).headers.get("Location")!;
    const response = await shop.app.request(location, {
      method: "PATCH",
      headers: { ...TUS, Cookie: admin.cookie, "X-HTTP-Method-Override": "GET", "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream" },
      body: new TextEncoder().encode("<b>!"),
    });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
  });

  it("refuses to join partial uploads (Upload-Concat) with a 400, not tus's 501", async () => {
    const admin = await signUpAdmin();
    const response = await shop.app.request("/api/uploads", {
      method: "POST",
      headers: { ...TUS, Cookie: admin.cookie, "Upload-Concat": "partial", "Upload-Length": "10", "Upload-Metadata": metadata("product") },
    });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe(messages.uploads.concatNotSupported);
  });
});

describe("a resumable upload", () => {
  it("arrives in 5 MiB chunks from tus-js-client and becomes WebP and AVIF images at 320, 640 and 1280 px, the upload kept until removed", { timeout: 60_000 }, async () => {
    const admin = await signUpAdmin();
    const base = await shop.app.listen();
    const photo = await noisyJpeg(2600, 1700);
    expect(photo.byteLength).toBeGreaterThan(UPLOAD_CHUNK_BYTES);
    const patchSizes: number[] = [];
    const uploadId = await new Promise<string>((resolve, reject) => {
      const upload = new Upload(photo, {
        endpoint: `${base}/api/uploads`,
        chunkSize: UPLOAD_CHUNK_BYTES,
        metadata: { purpose: "product" },
        headers: { Cookie: admin.cookie, Origin: TEST_ORIGIN },
        retryDelays: null,
        onChunkComplete: (size) => patchSizes.push(size),
        onError: reject,
        onSuccess: () => resolve(upload.url!.split("/").pop()!),
      });
      upload.start();
    });
    expect(patchSizes.slice(0, -1).every((size) => size === UPLOAD_CHUNK_BYTES)).toBe(true);
    expect(patchSizes.length).toBe(Math.ceil(photo.byteLength / UPLOAD_CHUNK_BYTES));

    const image = await shop.app.infrastructure.media.imageFromUpload(uploadId, admin.userId);
    expect(image).toMatchObject({ width: 1280, height: Math.round((1700 * 1280) / 2600), sourceType: "jpeg" });
    for (const width of [320, 640, 1280]) {
      for (const [format, type] of [["webp", "image/webp"], ["avif", "image/avif"]] as const) {
        const response = await shop.app.request(`/media/${image.key}-${width}.${format}`);
        expect(response.status).toBe(200);
        expect(response.headers.get("Content-Type")).toBe(type);
        expect(response.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
        expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
        expect((await sharp(Buffer.from(await response.arrayBuffer())).metadata()).width).toBe(width);
      }
    }
    // The raw upload stays until the save that uses the images commits and removes it.
    expect(await readdir(path.join(shop.app.dataDir, "uploads"))).toHaveLength(2);
    await shop.app.infrastructure.media.removeUpload(uploadId);
    expect(await readdir(path.join(shop.app.dataDir, "uploads"))).toEqual([]);
  });

  it("resumes after the connection drops mid-chunk, from the offset that arrived", { timeout: 60_000 }, async () => {
    const admin = await signUpAdmin();
    const base = await shop.app.listen();
    const photo = await noisyJpeg(1400, 1000);
    const location = (await createUpload(admin.cookie, photo.byteLength)).headers.get("Location")!;

    // Send part of the body, then cut the connection without finishing the request.
    const cut = Math.floor(photo.byteLength * 0.6);
    await new Promise<void>((resolve, reject) => {
      const request = http.request(`${base}${location}`, {
        method: "PATCH",
        headers: {
          ...TUS,
          Cookie: admin.cookie,
          "Upload-Offset": "0",
          "Content-Type": "application/offset+octet-stream",
          "Content-Length": String(photo.byteLength),
        },
      });
      request.on("error", () => resolve());
      request.on("close", () => resolve());
      request.write(photo.subarray(0, cut));
      // Cut once the server has written some of it to the upload's file (tus writes as it reads), so that there is
      // something to resume from; polled, within a bound.
      const file = path.join(shop.app.dataDir, "uploads", location.split("/").pop()!);
      void (async () => {
        for (const deadline = Date.now() + 20_000; ((await stat(file).catch(() => undefined))?.size ?? 0) === 0; ) {
          if (Date.now() > deadline) throw new Error("no byte of the upload reached its file within 20 s");
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      })().then(() => request.destroy(), reject);
    });

    // The server kept what arrived, and says so; the rest goes from there.
    const arrived = await offsetOf(location, admin.cookie);
    expect(arrived).toBeGreaterThan(0);
    expect(arrived).toBeLessThanOrEqual(cut);
    const rest = await sendChunk(location, admin.cookie, arrived, photo.subarray(arrived));
    expect(rest.status).toBe(204);
    expect(await offsetOf(location, admin.cookie)).toBe(photo.byteLength);

    const image = await shop.app.infrastructure.media.imageFromUpload(location.split("/").pop()!, admin.userId);
    expect(image.width).toBe(1280);
  });

  it("is deleted once expired, finished or not", async () => {
    const admin = await signUpAdmin();
    await createUpload(admin.cookie, 100);
    const finished = (await createUpload(admin.cookie, 3)).headers.get("Location")!;
    await sendChunk(finished, admin.cookie, 0, new Uint8Array([1, 2, 3]));
    const uploads = shop.app.infrastructure.uploads;
    expect(await uploads.removeExpired()).toBe(0);
    expect(await uploads.removeExpired(Date.now() + 25 * 60 * 60 * 1000)).toBe(2);
    expect(await readdir(path.join(shop.app.dataDir, "uploads"))).toEqual([]);
  });
});

describe("quotas of unfinished uploads", () => {
  it("refuses an admin's upload past their 20 MB of unfinished uploads with 413 and a message, counting declared lengths before any byte; another admin still has room", async () => {
    const admin = await signUpAdmin();
    for (let i = 0; i < 3; i++) expect((await createUpload(admin.cookie, 6 * MiB)).status).toBe(201);
    const before = await uploadFiles(shop.app);
    const refused = await createUpload(admin.cookie, 3 * MiB);
    expect(refused.status).toBe(413);
    expect((await refused.json()).message).toBe(messages.uploads.accountQuotaReached(20));
    expect(await uploadFiles(shop.app)).toEqual(before);
    expect((await createUpload(admin.cookie, 2 * MiB)).status).toBe(201); // exactly 20 MB
    // An empty upload still counts (1 MB at least), or any number of them could be kept.
    expect((await createUpload(admin.cookie, 0)).status).toBe(413);

    const other = await signUpAdmin("Second Owner");
    expect((await createUpload(other.cookie, 6 * MiB)).status).toBe(201);
  });

  it("counts an upload until it is removed, finished or not: a picture made into images and then removed, an abandoned upload (DELETE) and expired ones each give their room back", { timeout: 30_000 }, async () => {
    const admin = await signUpAdmin();
    const picture = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#2e7d32" } }).png().toBuffer();
    const pictureAt = (await createUpload(admin.cookie, picture.byteLength)).headers.get("Location")!;
    const large: string[] = [];
    for (let i = 0; i < 3; i++) large.push((await createUpload(admin.cookie, 6 * MiB)).headers.get("Location")!);
    // 1 MB (the least an upload counts) + 18 MB: 2 MB more does not fit.
    expect((await createUpload(admin.cookie, 2 * MiB)).status).toBe(413);

    // Finished and made into images, but not yet removed by the save that uses them: still counted.
    expect((await sendChunk(pictureAt, admin.cookie, 0, picture)).status).toBe(204);
    const pictureId = pictureAt.split("/").pop()!;
    await shop.app.infrastructure.media.imageFromUpload(pictureId, admin.userId);
    expect((await createUpload(admin.cookie, 2 * MiB)).status).toBe(413);
    await shop.app.infrastructure.media.removeUpload(pictureId);
    expect((await createUpload(admin.cookie, 2 * MiB)).status).toBe(201);
    expect((await createUpload(admin.cookie, 6 * MiB)).status).toBe(413);

    const abandoned = await shop.app.request(large[0]!, { method: "DELETE", headers: { ...TUS, Cookie: admin.cookie } });
    expect(abandoned.status).toBe(204);
    expect((await createUpload(admin.cookie, 6 * MiB)).status).toBe(201);
    expect((await createUpload(admin.cookie, 1)).status).toBe(413);

    expect(await shop.app.infrastructure.uploads.removeExpired(Date.now() + 25 * 60 * 60 * 1000)).toBe(4);
    expect((await createUpload(admin.cookie, MAX_UPLOAD_BYTES)).status).toBe(201);
  });

  it("still counts an upload tus made and then refused (a creation carrying more bytes than it declared) while its files are on disk", async () => {
    const admin = await signUpAdmin();
    const overfull = await shop.app.request(UPLOADS_PATH, {
      method: "POST",
      headers: {
        ...TUS,
        Cookie: admin.cookie,
        "Upload-Length": String(6 * MiB),
        "Upload-Metadata": metadata("product"),
        "Content-Type": "application/offset+octet-stream",
      },
      body: new Uint8Array(6 * MiB + 1),
    });
    expect(overfull.status).toBe(413);
    expect(await uploadFiles(shop.app)).toHaveLength(2);
    for (let i = 0; i < 2; i++) expect((await createUpload(admin.cookie, 6 * MiB)).status).toBe(201);
    expect((await createUpload(admin.cookie, 6 * MiB)).status).toBe(413);
  });

  it("refuses past the shop's 40 MB of unfinished uploads, whoever asks, with its own message", async () => {
    for (const name of ["First Owner", "Second Owner"]) {
      const admin = await signUpAdmin(name);
      for (let i = 0; i < 3; i++) expect((await createUpload(admin.cookie, 6 * MiB)).status).toBe(201);
    }
    const third = await signUpAdmin("Third Owner");
    const refused = await createUpload(third.cookie, 6 * MiB);
    expect(refused.status).toBe(413);
    expect((await refused.json()).message).toBe(messages.uploads.shopQuotaReached);
    expect((await createUpload(third.cookie, 4 * MiB)).status).toBe(201); // exactly 40 MB
  });

  it("gives the last room once when uploads are created at the same time: of five 6 MB uploads at once, three are made", async () => {
    const admin = await signUpAdmin();
    const statuses = await Promise.all(Array.from({ length: 5 }, () => createUpload(admin.cookie, 6 * MiB).then((response) => response.status)));
    expect(statuses.sort()).toEqual([201, 201, 201, 413, 413]);
    expect(await uploadFiles(shop.app)).toHaveLength(6);
  });

  it("counts the uploads already in the folder when the server starts again", async () => {
    const admin = await signUpAdmin();
    for (let i = 0; i < 3; i++) expect((await createUpload(admin.cookie, 6 * MiB)).status).toBe(201);
    // A new process over the same folder: the same settings, nothing in memory.
    const restarted = createResumableUploads({
      database: shop.app.infrastructure.database,
      directory: path.join(shop.app.dataDir, "uploads"),
      basePath: UPLOADS_PATH,
      quota: { perAccountBytes: 20 * MiB, totalBytes: 40 * MiB, minFreeDiskBytes: 0 },
      freeDiskSpace: () => Promise.resolve(disk.freeBytes),
    });
    const asAdmin = { id: admin.userId, isAdmin: true } as Parameters<typeof restarted.handle>[1];
    const create = (length: number) =>
      restarted.handle(new Request(`${TEST_ORIGIN}${UPLOADS_PATH}`, { method: "POST", headers: { ...TUS, "Upload-Length": String(length), "Upload-Metadata": metadata("product") } }), asAdmin);
    await expect(create(3 * MiB)).rejects.toMatchObject({ status: 413, message: messages.uploads.accountQuotaReached(20) });
    expect((await create(2 * MiB)).status).toBe(201);
  });

  it("gives back the room of uploads removed from the folder by hand once an expiry sweep has read the folder a minute later", async () => {
    const admin = await signUpAdmin();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createUpload(admin.cookie, 6 * MiB)).headers.get("Location")!.split("/").pop()!);
    expect((await createUpload(admin.cookie, 6 * MiB)).status).toBe(413);
    const folder = path.join(shop.app.dataDir, "uploads");
    await Promise.all([rm(path.join(folder, ids[0]!)), rm(path.join(folder, `${ids[0]}.json`))]);
    // A sweep at once keeps counting it: an upload younger than a minute may be one whose files are being written.
    expect(await shop.app.infrastructure.uploads.removeExpired()).toBe(0);
    expect((await createUpload(admin.cookie, 6 * MiB)).status).toBe(413);
    expect(await shop.app.infrastructure.uploads.removeExpired(Date.now() + UPLOAD_HOLD_SETTLE_MS + 1)).toBe(0);
    expect((await createUpload(admin.cookie, 6 * MiB)).status).toBe(201);
  });

  it("refuses new uploads that would leave the disk below its 100 MB reserve, with a message, and takes them again once there is room", async () => {
    const admin = await signUpAdmin();
    disk.freeBytes = 110 * MiB;
    expect((await createUpload(admin.cookie, 6 * MiB)).status).toBe(201);
    disk.freeBytes = 104 * MiB;
    const refused = await createUpload(admin.cookie, 6 * MiB);
    expect(refused.status).toBe(413);
    expect((await refused.json()).message).toBe(messages.uploads.diskNearlyFull);
    expect((await createUpload(admin.cookie, 3 * MiB)).status).toBe(201); // leaves 101 MB
    disk.freeBytes = 50 * MiB;
    expect((await createUpload(admin.cookie, 1)).status).toBe(413);
    expect(await uploadFiles(shop.app)).toHaveLength(4);
    disk.freeBytes = 10_000 * MiB;
    expect((await createUpload(admin.cookie, 6 * MiB)).status).toBe(201);
  });
});

describe("what a client may write", () => {
  it("never stores more than the upload declared: a longer PATCH is refused with 413, with a Content-Length or streamed without one", async () => {
    const admin = await signUpAdmin();
    const location = (await createUpload(admin.cookie, 10)).headers.get("Location")!;
    expect((await sendChunk(location, admin.cookie, 0, new Uint8Array(20))).status).toBe(413);
    const streamed = await shop.app.request(location, {
      method: "PATCH",
      headers: { ...TUS, Cookie: admin.cookie, "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream" },
      body: new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < 8; i++) controller.enqueue(new Uint8Array(1024));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
    const stored = await stat(path.join(shop.app.dataDir, "uploads", location.split("/").pop()!));
    expect(stored.size).toBeLessThanOrEqual(10);
  });
});

describe("cross-origin answers", () => {
  it("sends no Access-Control-Allow-Origin (wildcard or any) on OPTIONS, POST, HEAD or PATCH, whatever the Origin", async () => {
    const admin = await signUpAdmin();
    const allowOrigin = (response: Response) => response.headers.get("Access-Control-Allow-Origin");
    for (const origin of [TEST_ORIGIN, "https://elsewhere.example"]) {
      const options = await shop.app.request(UPLOADS_PATH, {
        method: "OPTIONS",
        headers: { Origin: origin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "tus-resumable, upload-length, upload-metadata" },
      });
      expect(options.status).toBe(204);
      expect(allowOrigin(options)).toBeNull();
    }
    const created = await createUpload(admin.cookie, 3);
    expect(created.status).toBe(201);
    expect(allowOrigin(created)).toBeNull();
    const location = created.headers.get("Location")!;
    const head = await shop.app.request(location, { method: "HEAD", headers: { ...TUS, Cookie: admin.cookie } });
    expect(head.status).toBe(200);
    expect(allowOrigin(head)).toBeNull();
    const patch = await sendChunk(location, admin.cookie, 0, new Uint8Array([1, 2, 3]));
    expect(patch.status).toBe(204);
    expect(allowOrigin(patch)).toBeNull();
  });
});
