import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from "@aws-sdk/client-s3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestS3Server, type TestS3Server } from "../../../tests/support/s3-server.ts";
import { createS3Client } from "./s3-bucket.ts";
import { moveMediaToBucket } from "./move-media-to-bucket.ts";

let s3: TestS3Server;
let client: ReturnType<typeof createS3Client>;
let dataDir: string;
beforeEach(async () => {
  s3 = await startTestS3Server();
  client = createS3Client(s3.settings);
  dataDir = await mkdtemp(path.join(os.tmpdir(), "plant-shop-move-"));
});
afterEach(async () => {
  client.destroy();
  await s3.close();
  await rm(dataDir, { recursive: true, force: true });
});

const keysInBucket = async () => ((await client.send(new ListObjectsV2Command({ Bucket: s3.settings.bucket }))).Contents ?? []).map((o) => o.Key).sort();

describe("moving the media folder into the bucket", () => {
  it("uploads each picture with the same bytes and deletes its local copy, leaves other files, and a second run moves nothing", async () => {
    const mediaDir = path.join(dataDir, "media");
    await mkdir(mediaDir);
    await writeFile(path.join(mediaDir, "0a1b-320.webp"), "small");
    await writeFile(path.join(mediaDir, "0a1b-640.avif"), "larger picture");
    // One already in the bucket and still local: what an interrupted run leaves behind.
    await client.send(new PutObjectCommand({ Bucket: s3.settings.bucket, Key: "0c2d-320.webp", Body: "interrupted" }));
    await writeFile(path.join(mediaDir, "0c2d-320.webp"), "interrupted");
    await writeFile(path.join(mediaDir, ".0e3f-320.webp.tmp"), "half written");

    const first = await moveMediaToBucket({ mediaDir, settings: s3.settings, client });
    expect(first).toEqual({ moved: 3, skipped: [".0e3f-320.webp.tmp"] });
    expect(await keysInBucket()).toEqual(["0a1b-320.webp", "0a1b-640.avif", "0c2d-320.webp"]);
    const object = await client.send(new GetObjectCommand({ Bucket: s3.settings.bucket, Key: "0a1b-640.avif" }));
    expect({ body: await object.Body!.transformToString(), type: object.ContentType }).toEqual({ body: "larger picture", type: "image/avif" });
    expect(await readdir(mediaDir)).toEqual([".0e3f-320.webp.tmp"]);

    expect(await moveMediaToBucket({ mediaDir, settings: s3.settings, client })).toEqual({ moved: 0, skipped: [".0e3f-320.webp.tmp"] });
    expect(await keysInBucket()).toEqual(["0a1b-320.webp", "0a1b-640.avif", "0c2d-320.webp"]);
  });

  it("npm run media:to-s3's script refuses to run without MEDIA_S3_BUCKET, saying that it is not set", async () => {
    const run = promisify(execFile)(path.resolve("node_modules/.bin/tsx"), ["scripts/move-media-to-s3.ts"], { env: { PATH: process.env.PATH, NODE_ENV: "production", DATA_DIR: dataDir } });
    const failed = await run.then(() => null, (error: { code: number; stderr: string }) => error);
    expect(failed?.code).toBe(2);
    expect(failed?.stderr).toContain("MEDIA_S3_BUCKET is not set");
  });
});
