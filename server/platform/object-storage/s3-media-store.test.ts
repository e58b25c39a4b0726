import { HeadObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestS3Server, type TestS3Server } from "../../../tests/support/s3-server.ts";
import { createS3Client } from "./s3-bucket.ts";
import { createS3MediaStore, MEDIA_OBJECT_CACHE_CONTROL } from "./s3-media-store.ts";

let s3: TestS3Server;
let client: ReturnType<typeof createS3Client>;
beforeAll(async () => {
  s3 = await startTestS3Server();
  client = createS3Client(s3.settings);
});
afterAll(async () => {
  client.destroy();
  await s3.close();
});

async function read(body: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(body).arrayBuffer());
}

describe("the S3 media store", () => {
  it("puts a picture as an object with its content type and an immutable cache policy, reads it back with its size, and deletes it (twice is fine)", async () => {
    const store = createS3MediaStore(s3.settings, client);
    const bytes = new Uint8Array([1, 2, 3, 4, 5]);
    await store.put("0a1b-640.avif", bytes);

    const head = await client.send(new HeadObjectCommand({ Bucket: s3.settings.bucket, Key: "0a1b-640.avif" }));
    expect({ type: head.ContentType, cache: head.CacheControl }).toEqual({ type: "image/avif", cache: MEDIA_OBJECT_CACHE_CONTROL });
    const file = await store.get("0a1b-640.avif");
    expect(file?.size).toBe(5);
    expect(await read(file!.body)).toEqual(bytes);

    await store.delete("0a1b-640.avif");
    await store.delete("0a1b-640.avif");
    expect(await store.get("0a1b-640.avif")).toBeNull();
  });

  it("answers null for a name it never stored, and refuses names the media service does not make without touching the bucket", async () => {
    const store = createS3MediaStore(s3.settings, client);
    expect(await store.get("ffff-320.webp")).toBeNull();
    for (const name of ["../secret.webp", "a/b.webp", "0a1b.html", "UPPER.webp"]) {
      await expect(store.put(name, new Uint8Array([1]))).rejects.toThrow(RangeError);
      expect(await store.get(name)).toBeNull();
      await store.delete(name);
    }
  });
});
