import { readdir } from "node:fs/promises";
import path from "node:path";
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createS3Client } from "../../server/platform/object-storage/s3-bucket.ts";
import { startTestS3Server, type TestS3Server } from "../support/s3-server.ts";
import { insertSessions, SHOP_AUTH_SECRET } from "../support/shop-process.ts";
import { createShopper } from "../support/shoppers.ts";
import { dialectUnderTest } from "../support/test-database.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "../support/test-app.ts";

let s3: TestS3Server;
let client: ReturnType<typeof createS3Client>;
let app: TestApp | undefined;
beforeAll(async () => {
  s3 = await startTestS3Server();
  client = createS3Client(s3.settings);
});
afterEach(async () => {
  await app?.cleanup();
  app = undefined;
});
afterAll(async () => {
  client.destroy();
  await s3.close();
});

const send = (shop: TestApp, method: string, url: string, cookie: string, body?: unknown) =>
  shop.request(url, {
    method,
    headers: { Origin: TEST_ORIGIN, Cookie: cookie, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

/** A finished tus upload (POST, then one PATCH) of a small PNG, as the product form makes; returns the form's token. */
async function upload(shop: TestApp, admin: string): Promise<string> {
  const png = await sharp({ create: { width: 48, height: 32, channels: 3, background: "#52796f" } }).png().toBuffer();
  const tus = { "Tus-Resumable": "1.0.0", Origin: TEST_ORIGIN, Cookie: admin };
  const created = await shop.request("/api/uploads", { method: "POST", headers: { ...tus, "Upload-Length": String(png.byteLength), "Upload-Metadata": `purpose ${btoa("product")}` } });
  const location = created.headers.get("Location")!;
  const patched = await shop.request(location, { method: "PATCH", headers: { ...tus, "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream" }, body: new Uint8Array(png) });
  expect(patched.status).toBe(204);
  return `upload:${location.split("/").pop()}`;
}

/** An admin's session, and a product with one picture (in a new category, with its own) saved through the admin API. */
async function productWithPicture(shop: TestApp): Promise<{ admin: string; productId: string; url: string }> {
  const person = await createShopper(shop.database.db, dialectUnderTest, { isAdmin: true });
  const admin = (await insertSessions(shop.database.db, [person.id]))[0]!;
  const form = { name: "boston fern", description: "Arching fronds.", price: "499", stock: "3", category: "Ferns", images: [await upload(shop, admin)], categoryImage: await upload(shop, admin) };
  const saved = await send(shop, "POST", "/api/admin/products", admin, form);
  expect(saved.status, await saved.clone().text()).toBe(201);
  const { productId } = (await saved.json()) as { productId: string };
  const image = await shop.database.db.selectFrom("product_images").select("url").where("product_id", "=", productId).executeTakeFirstOrThrow();
  return { admin, productId, url: image.url };
}

const keysInBucket = async () => ((await client.send(new ListObjectsV2Command({ Bucket: s3.settings.bucket }))).Contents ?? []).map((o) => o.Key!);

describe("stored pictures in an S3 bucket", () => {
  it("stores an admin's product picture in the bucket, not DATA_DIR/media; /media redirects (permanent, immutable, for anyone) to the public URL, which serves it as a webp; deleting the product deletes its objects", async () => {
    const shop = (app = await createTestApp({ AUTH_SECRET: SHOP_AUTH_SECRET, ...s3.env }));
    const { admin, productId, url } = await productWithPicture(shop);
    const name = path.basename(url);
    expect(url).toBe(`/media/${name}`);
    expect(await keysInBucket()).toContain(name);
    expect(await readdir(path.join(shop.dataDir, "media"))).toEqual([]);

    const redirect = await shop.request(url);
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get("location")).toBe(`${s3.settings.publicUrl}/${name}`);
    expect(redirect.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    // A visitor's cookie does not make the redirect private: it is the same for everyone.
    expect((await shop.request(url, { headers: { Cookie: admin } })).headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    // The pages may show images from the bucket's origin.
    expect((await shop.request("/api/products")).headers.get("content-security-policy")).toMatch(new RegExp(`img-src [^;]*${new URL(s3.endpoint).origin.replaceAll(".", "\\.")}`));

    const fromBucket = await fetch(redirect.headers.get("location")!);
    expect(fromBucket.headers.get("content-type")).toBe("image/webp");
    const bytes = Buffer.from(await fromBucket.arrayBuffer());
    expect((await sharp(bytes).metadata()).format).toBe("webp");

    const pictureKey = name.split("-")[0]!;
    expect((await send(shop, "DELETE", `/api/admin/products/${productId}`, admin)).status).toBe(200);
    await expect.poll(async () => (await keysInBucket()).filter((key) => key.startsWith(pictureKey))).toEqual([]);
  }, 60_000);

  it("without a public URL streams the picture from the bucket itself, and the pages' img-src names no other origin", async () => {
    const { MEDIA_S3_PUBLIC_URL: _unused, ...withoutPublicUrl } = s3.env;
    const shop = (app = await createTestApp({ AUTH_SECRET: SHOP_AUTH_SECRET, ...withoutPublicUrl }));
    const { url } = await productWithPicture(shop);
    const answer = await shop.request(url);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("image/webp");
    const bytes = Buffer.from(await answer.arrayBuffer());
    expect(answer.headers.get("content-length")).toBe(String(bytes.byteLength));
    expect((await sharp(bytes).metadata()).format).toBe("webp");
    expect((await shop.request("/media/ffff-320.webp")).status).toBe(404);
    expect((await shop.request("/api/products")).headers.get("content-security-policy")).toContain("img-src 'self' data: blob:;");
  }, 60_000);
});
