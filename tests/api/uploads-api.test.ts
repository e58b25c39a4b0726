import { readdir } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import sharp from "sharp";
import { Upload } from "tus-js-client";
import { describe, expect, it } from "vitest";
import { messages } from "../../common/shared/messages.ts";
import { MAX_UPLOAD_BYTES, UPLOAD_CHUNK_BYTES } from "../../common/shared/uploads.ts";
import { newPerson, signUpVerified } from "../support/accounts.ts";
import { useAppWithMail } from "../support/app-with-mail.ts";
import { TEST_ORIGIN } from "../support/test-app.ts";

// The tus endpoint (/api/uploads): who may upload, 5 MiB chunks, resuming from what arrived, expiry.

const shop = useAppWithMail();
const TUS = { "Tus-Resumable": "1.0.0", Origin: TEST_ORIGIN };
const metadata = (purpose: string) => `purpose ${Buffer.from(purpose).toString("base64")}`;

async function signUpAdmin() {
  const admin = await signUpVerified(shop.app, shop.capture, newPerson({ name: "Owner" }));
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

describe("who may upload", () => {
  it("refuses a visitor with 401 and a regular user's product picture with 403, but takes the user's profile picture", async () => {
    const visitor = await createUpload(null, 1000);
    expect(visitor.status).toBe(401);
    expect((await visitor.json()).message).toBe(messages.uploads.loginFirst);

    const user = await signUpVerified(shop.app, shop.capture);
    for (const purpose of ["product", "category"]) {
      const refused = await createUpload(user.cookie, 1000, purpose);
      expect(refused.status).toBe(403);
      expect((await refused.json()).message).toBe(messages.uploads.adminsOnly);
    }
    expect((await createUpload(user.cookie, 1000, "profile")).status).toBe(201);
    expect(await readdir(path.join(shop.app.dataDir, "uploads"))).toHaveLength(2); // the file and its description
  });

  it("counts a shopper's new uploads: the eleventh in ten minutes is refused with 429 and the spec's message, an admin's are not counted", async () => {
    const user = await signUpVerified(shop.app, shop.capture, newPerson({ name: "Meera Iyer" }));
    for (let i = 0; i < 10; i++) expect((await createUpload(user.cookie, 1000, "profile")).status).toBe(201);
    const refused = await createUpload(user.cookie, 1000, "profile");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await refused.json()).message).toBe(`${messages.images.tooManyUploads} Please try again in 10 minutes.`);

    const admin = await signUpAdmin();
    for (let i = 0; i < 11; i++) expect((await createUpload(admin.cookie, 1000, "product")).status).toBe(201);
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
    const theirs = (await createUpload(admin.cookie, 5)).headers.get("Location")!;
    const mine = (await createUpload(other.cookie, 5, "profile")).headers.get("Location")!;
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

    const image = await shop.app.services.media.imageFromUpload(uploadId, admin.userId);
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
    await shop.app.services.media.removeUpload(uploadId);
    expect(await readdir(path.join(shop.app.dataDir, "uploads"))).toEqual([]);
  });

  it("resumes after the connection drops mid-chunk, from the offset that arrived", { timeout: 60_000 }, async () => {
    const admin = await signUpAdmin();
    const base = await shop.app.listen();
    const photo = await noisyJpeg(1400, 1000);
    const location = (await createUpload(admin.cookie, photo.byteLength)).headers.get("Location")!;

    // Send part of the body, then cut the connection without finishing the request.
    const cut = Math.floor(photo.byteLength * 0.6);
    await new Promise<void>((resolve) => {
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
      request.write(photo.subarray(0, cut), () => setTimeout(() => request.destroy(), 200));
      request.on("close", () => resolve());
    });

    // The server kept what arrived (tus writes as it reads), and says so; the rest goes from there.
    let arrived = 0;
    for (let attempt = 0; attempt < 50 && arrived === 0; attempt++) {
      arrived = await offsetOf(location, admin.cookie);
      if (arrived === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(arrived).toBeGreaterThan(0);
    expect(arrived).toBeLessThanOrEqual(cut);
    const rest = await sendChunk(location, admin.cookie, arrived, photo.subarray(arrived));
    expect(rest.status).toBe(204);
    expect(await offsetOf(location, admin.cookie)).toBe(photo.byteLength);

    const image = await shop.app.services.media.imageFromUpload(location.split("/").pop()!, admin.userId);
    expect(image.width).toBe(1280);
  });

  it("is deleted once expired, finished or not", async () => {
    const admin = await signUpAdmin();
    await createUpload(admin.cookie, 100);
    const finished = (await createUpload(admin.cookie, 3)).headers.get("Location")!;
    await sendChunk(finished, admin.cookie, 0, new Uint8Array([1, 2, 3]));
    const uploads = shop.app.services.uploads;
    expect(await uploads.removeExpired()).toBe(0);
    expect(await uploads.removeExpired(Date.now() + 25 * 60 * 60 * 1000)).toBe(2);
    expect(await readdir(path.join(shop.app.dataDir, "uploads"))).toEqual([]);
  });
});
