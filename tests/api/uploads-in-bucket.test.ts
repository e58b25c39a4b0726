import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { pino } from "pino";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { messages } from "../../common/shared/messages.ts";
import { loadConfig } from "../../server/config.ts";
import { composeShop } from "../../server/compose.ts";
import type { Infrastructure } from "../../server/create-services.ts";
import { openDatabase, type Database } from "../../server/platform/db/client.ts";
import { createS3Client } from "../../server/platform/object-storage/s3-bucket.ts";
import type { SessionUser } from "../../server/platform/session-user.ts";
import { createShopper } from "../support/shoppers.ts";
import { startTestS3Server, type TestS3Server } from "../support/s3-server.ts";
import { createTestDatabase, dialectUnderTest, type TestDatabase } from "../support/test-database.ts";
import { TEST_ORIGIN } from "../support/test-app.ts";

// Unfinished uploads in the bucket (MEDIA_S3_*): two copies of the shop on one database, each with a data folder of
// its own, share them. Small quotas (20 MB per admin) and a disk the first copy reports as full.

interface Copy {
  uploads: Infrastructure["uploads"];
  media: Infrastructure["media"];
  tus(url: string, method: string, headers?: Record<string, string>, body?: Uint8Array): Promise<Response>;
  close(): Promise<void>;
}
let s3: TestS3Server;
let database: TestDatabase;
const copies: Copy[] = [];
let admin: SessionUser;

beforeEach(async () => {
  s3 = await startTestS3Server();
  database = await createTestDatabase();
  admin = await createShopper(database.db, dialectUnderTest, { isAdmin: true });
});
afterEach(async () => {
  for (const copy of copies.splice(0)) await copy.close();
  await database.cleanup();
  await s3.close();
});

/** A copy of the shop as a server process composes it: its own data folder and, on PostgreSQL, its own connections. */
async function startCopy(options: { fullDisk?: boolean } = {}): Promise<Copy> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "plant-shop-copy-"));
  mkdirSync(path.join(dataDir, "media"));
  const env = { NODE_ENV: "test", DATA_DIR: dataDir, PUBLIC_URL: TEST_ORIGIN, UPLOAD_QUOTA_PER_ADMIN_MB: "20", ...s3.env };
  const postgresUrl = database.postgresUrl;
  const config = loadConfig(postgresUrl ? { ...env, DATABASE_URL: postgresUrl } : env);
  const own: Database | undefined = postgresUrl ? openDatabase({ databaseUrl: postgresUrl }) : undefined;
  const shop = await composeShop(config, own ?? database, pino({ level: "silent" }), options.fullDisk ? { freeDiskSpace: () => Promise.resolve(0) } : {});
  const copy: Copy = {
    uploads: shop.infrastructure.uploads,
    media: shop.infrastructure.media,
    tus: (url, method, headers = {}, body) =>
      shop.infrastructure.uploads.handle(
        new Request(new URL(url, TEST_ORIGIN), { method, headers: { "Tus-Resumable": "1.0.0", ...headers }, ...(body ? { body: new Uint8Array(body) } : {}) }),
        admin,
      ),
    async close() {
      await shop.closeChanges();
      await shop.mailer.close();
      await own?.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  copies.push(copy);
  return copy;
}

const create = (copy: Copy, length: number) =>
  copy.tus("/api/uploads", "POST", { "Upload-Length": String(length), "Upload-Metadata": `purpose ${Buffer.from("product").toString("base64")}` });

const send = (copy: Copy, location: string, offset: number, chunk: Uint8Array) =>
  copy.tus(location, "PATCH", { "Upload-Offset": String(offset), "Content-Type": "application/offset+octet-stream" }, chunk);

/** The uploads' objects in the bucket. */
async function uploadObjects(): Promise<string[]> {
  const client = createS3Client(s3.settings);
  try {
    const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.settings.bucket, Prefix: "uploads/" }));
    return (listed.Contents ?? []).map((object) => object.Key ?? "");
  } finally {
    client.destroy();
  }
}

describe(`uploads in the bucket across copies (${dialectUnderTest})`, () => {
  it("an upload begun on one copy is resumed and finished on the other, which makes a picture of it; its owner's DELETE then empties the bucket", async () => {
    const [copyA, copyB] = [await startCopy(), await startCopy()];
    // Noise, so that the photo is some kilobytes and its first chunk only a part of it.
    const pixels = Buffer.alloc(64 * 48 * 3);
    for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 2654435761) >>> 24;
    const photo = await sharp(pixels, { raw: { width: 64, height: 48, channels: 3 } }).jpeg({ quality: 100 }).toBuffer();
    expect(photo.length).toBeGreaterThan(1000);

    const created = await create(copyA, photo.length);
    expect(created.status).toBe(201);
    const location = created.headers.get("Location")!;
    const id = location.split("/").pop()!;
    const first = await send(copyA, location, 0, photo.subarray(0, 300));
    expect(first.status).toBe(204);
    expect(first.headers.get("Upload-Offset")).toBe("300");

    const head = await copyB.tus(location, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("Upload-Offset")).toBe("300");
    const rest = await send(copyB, location, 300, photo.subarray(300));
    expect(rest.status).toBe(204);
    expect(rest.headers.get("Upload-Offset")).toBe(String(photo.length));
    expect(await uploadObjects()).toEqual(expect.arrayContaining([`uploads/${id}`, `uploads/${id}.info`]));

    const picture = await copyB.media.imageFromUpload(id, admin.id);
    expect(picture).toMatchObject({ width: 64, height: 48, sourceType: "jpeg" });
    // Its owner's tus DELETE, on the first copy, removes the finished upload's objects.
    expect((await copyA.tus(location, "DELETE")).status).toBe(204);
    expect(await uploadObjects()).toEqual([]);
    await expect(copyA.tus(location, "HEAD")).rejects.toMatchObject({ status: 404 });
  });

  it("a PATCH while another copy's PATCH holds the upload ends that one and goes on from what it stored, the bytes intact (one copy on SQLite)", async () => {
    const copyA = await startCopy();
    // On SQLite the shop runs as one copy: the second request goes to the same one.
    const copyB = dialectUnderTest === "postgres" ? await startCopy() : copyA;
    const bytes = Buffer.from(Array.from({ length: 2000 }, (_, i) => (i * 7) % 256));
    const location = (await create(copyA, bytes.length)).headers.get("Location")!;

    // A's body: 500 bytes, then nothing until its request is ended. tus reads the body only once it holds the lock.
    let reading!: () => void;
    const aHoldsTheLock = new Promise<void>((resolve) => (reading = resolve));
    let pulls = 0;
    const stalled = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (pulls++ === 0) {
            controller.enqueue(new Uint8Array(bytes.subarray(0, 500)));
            reading();
            return;
          }
          return new Promise<void>(() => undefined);
        },
      },
      { highWaterMark: 0 },
    );
    const patchA = copyA.uploads.handle(
      new Request(new URL(location, TEST_ORIGIN), {
        method: "PATCH",
        headers: { "Tus-Resumable": "1.0.0", "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream" },
        body: stalled,
        duplex: "half",
      } as RequestInit),
      admin,
    );
    await aHoldsTheLock;

    // B's PATCH at offset 0 asks A to let go, then finds the 500 bytes A stored: a conflict, not a second write at 0.
    const conflicting = await send(copyB, location, 0, bytes).catch((error: unknown) => error);
    await patchA.catch(() => undefined);
    expect(conflicting).toMatchObject({ status: 409 });
    const head = await copyB.tus(location, "HEAD");
    expect(head.headers.get("Upload-Offset")).toBe("500");
    const rest = await send(copyB, location, 500, bytes.subarray(500));
    expect(rest.headers.get("Upload-Offset")).toBe("2000");
    const finished = await copyB.uploads.takeFinished(location.split("/").pop()!, admin.id);
    expect(Buffer.compare(await finished.read(), bytes)).toBe(0);
  });

  it("the expiry sweep of either copy removes an upload begun a day ago from the bucket", async () => {
    const [copyA, copyB] = [await startCopy(), await startCopy()];
    const created = await create(copyA, 1000);
    expect((await send(copyA, created.headers.get("Location")!, 0, new Uint8Array(10))).status).toBe(204);
    expect(await copyB.uploads.removeExpired()).toBe(0);
    expect(await copyB.uploads.removeExpired(Date.now() + 25 * 60 * 60 * 1000)).toBe(1);
    expect(await uploadObjects()).toEqual([]);
  });

  it("holds the account's quota across the copies: of six 6 MB uploads created at once, three on each copy, three are made", async () => {
    const [copyA, copyB] = [await startCopy(), await startCopy()];
    const settled = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => create(i % 2 === 0 ? copyA : copyB, 6 * 1024 * 1024)));
    const made = settled.filter((outcome) => outcome.status === "fulfilled" && outcome.value.status === 201);
    const refused = settled.flatMap((outcome) => (outcome.status === "rejected" ? [outcome.reason as unknown] : []));
    expect(made).toHaveLength(3);
    expect(refused).toEqual(Array(3).fill(expect.objectContaining({ status: 413, message: messages.uploads.accountQuotaReached(20) })));
    expect((await uploadObjects()).filter((key) => key.endsWith(".info"))).toHaveLength(3);
  });

  it("refuses a creation past the account's quota with the bucket, and never for a full disk of the server's own", async () => {
    const copy = await startCopy({ fullDisk: true });
    expect((await create(copy, 20 * 1024 * 1024)).status).toBe(201);
    const refused = await create(copy, 1000).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 413, message: messages.uploads.accountQuotaReached(20) });
  });
});
