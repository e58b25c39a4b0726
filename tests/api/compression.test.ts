import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import type { PageHandler } from "../../server/pages.ts";
import { chooseEncoding } from "../../server/platform/http/compression.ts";
import { decodeBody } from "../support/api-contract.ts";
import { createProduct } from "../support/factories.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

let app: TestApp | undefined;
const folders: string[] = [];

afterEach(async () => {
  await app?.cleanup();
  app = undefined;
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A page of about 20 kB whose inline scripts carry the response's nonce, as React Router's do. */
const bigPage: PageHandler = async (c) => {
  const nonce = c.get("secureHeadersNonce") ?? "";
  const rows = Array.from({ length: 400 }, (_, i) => `<li>Plant number ${i} in a pot</li>`).join("");
  return new Response(`<!doctype html><ul>${rows}</ul><script nonce="${nonce}">hydrate()</script>`, {
    headers: { "Content-Type": "text/html; charset=utf-8" },
  });
};

async function raw(response: Response) {
  return decodeBody(response.headers.get("content-encoding"), Buffer.from(await response.arrayBuffer()));
}

async function appWithProducts(env: NodeJS.ProcessEnv = {}) {
  app = await createTestApp(env, { handler: bigPage });
  for (let i = 0; i < 12; i++) await createProduct(app.database.db, { description: `A long description of plant ${i} `.repeat(8) });
  return app;
}

describe("compression", () => {
  it("chooses brotli, then gzip, as the client's Accept-Encoding and its weights allow", () => {
    expect(chooseEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(chooseEncoding("gzip, deflate")).toBe("gzip");
    expect(chooseEncoding("br;q=0, gzip")).toBe("gzip");
    expect(chooseEncoding("br;q=0.5, gzip;q=0.8")).toBe("gzip");
    expect(chooseEncoding("*")).toBe("br");
    expect(chooseEncoding("identity")).toBeUndefined();
    expect(chooseEncoding("gzip;q=0, br;q=0")).toBeUndefined();
    expect(chooseEncoding(undefined)).toBeUndefined();
  });

  it("sends catalogue JSON brotli- or gzip-encoded with Vary: Accept-Encoding, decoding to the very bytes sent unencoded", async () => {
    const shop = await appWithProducts();
    const plain = await shop.request("/api/products?limit=12");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("vary")).toMatch(/accept-encoding/i);
    const plainBytes = Buffer.from(await plain.arrayBuffer());
    expect(plainBytes.length).toBeGreaterThan(1024);
    for (const encoding of ["br", "gzip"]) {
      // Twice: once made and stored, once replayed from the cache's stored encoding.
      for (let i = 0; i < 2; i++) {
        const response = await shop.request("/api/products?limit=12", { headers: { "Accept-Encoding": encoding } });
        expect(response.headers.get("content-encoding")).toBe(encoding);
        expect(response.headers.get("vary")).toMatch(/accept-encoding/i);
        const body = Buffer.from(await response.arrayBuffer());
        expect(body.length).toBeLessThan(plainBytes.length);
        expect(decodeBody(encoding, body).equals(plainBytes)).toBe(true);
      }
    }
  });

  it("sends cached pages encoded once when stored, the same bytes to every visitor, decoding to the page as rendered", async () => {
    const shop = await appWithProducts();
    const first = await shop.request("/shop", { headers: { "Accept-Encoding": "br" } });
    const second = await shop.request("/shop", { headers: { "Accept-Encoding": "br" } });
    const third = await shop.request("/shop", { headers: { "Accept-Encoding": "gzip" } });
    expect(first.headers.get("content-encoding")).toBe("br");
    expect(second.headers.get("content-encoding")).toBe("br");
    expect(third.headers.get("content-encoding")).toBe("gzip");
    expect(second.headers.get("x-page-cache")).toBe("hit");
    const bodies = await Promise.all([first, second, third].map(raw));
    for (const [i, response] of [first, second, third].entries()) {
      expect(response.headers.get("vary")).toMatch(/accept-encoding/i);
      // The policy names the page's script by hash (decision 004), so the stored bytes can be shared.
      expect(response.headers.get("content-security-policy")).toMatch(/script-src 'self' 'sha256-[^']+';/);
      const html = bodies[i]!.toString("utf8");
      expect(html).toContain("hydrate()</script>");
      expect(html).toContain("<li>Plant number 399 in a pot</li>");
      expect(bodies[i]!.equals(bodies[0]!)).toBe(true);
    }
  });

  it("leaves answers under 1 KB and clients that accept no encoding unencoded", async () => {
    app = await createTestApp();
    const small = await app.request("/api/categories", { headers: { "Accept-Encoding": "br, gzip" } });
    expect(small.headers.get("content-encoding")).toBeNull();
    expect(small.headers.get("vary")).toMatch(/accept-encoding/i);
    const refused = await app.request("/api/openapi.json", { headers: { "Accept-Encoding": "identity" } });
    expect(refused.headers.get("content-encoding")).toBeNull();
    expect((await refused.json()) as object).toHaveProperty("openapi");
  });

  it("never encodes a product's event stream, which keeps streaming its first event at once", async () => {
    const shop = await appWithProducts();
    const product = await createProduct(shop.database.db);
    const url = await shop.listen();
    const abort = new AbortController();
    try {
      const response = await fetch(`${url}/api/products/${product.id}/events`, { headers: { "Accept-Encoding": "br, gzip" }, signal: abort.signal });
      expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
      expect(response.headers.get("content-encoding")).toBeNull();
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      const { value } = await reader.read();
      expect(value).toMatch(/^event: ready\n/);
    } finally {
      abort.abort();
    }
  });

  it("serves the build's precompressed assets as the client accepts, with a year's immutable lifetime, and leaves images alone", async () => {
    const clientDir = mkdtempSync(path.join(os.tmpdir(), "plant-shop-client-"));
    folders.push(clientDir);
    mkdirSync(path.join(clientDir, "assets"));
    const script = Buffer.from("export const plants = [" + '"fern",'.repeat(500) + "];\n");
    writeFileSync(path.join(clientDir, "assets/entry-abc123.js"), script);
    writeFileSync(path.join(clientDir, "assets/entry-abc123.js.br"), brotliCompressSync(script));
    writeFileSync(path.join(clientDir, "assets/entry-abc123.js.gz"), gzipSync(script));
    const image = Buffer.alloc(4096, 7);
    writeFileSync(path.join(clientDir, "assets/photo-abc123.webp"), image);
    app = await createTestApp({}, { handler: bigPage, clientDir });

    for (const encoding of ["br", "gzip"]) {
      const response = await app.request("/assets/entry-abc123.js", { headers: { "Accept-Encoding": `${encoding}` } });
      expect(response.headers.get("content-encoding")).toBe(encoding);
      expect(response.headers.get("vary")).toMatch(/accept-encoding/i);
      expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect((await raw(response)).equals(script)).toBe(true);
    }
    const plain = await app.request("/assets/entry-abc123.js");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(Buffer.from(await plain.arrayBuffer()).equals(script)).toBe(true);

    const photo = await app.request("/assets/photo-abc123.webp", { headers: { "Accept-Encoding": "br, gzip" } });
    expect(photo.headers.get("content-encoding")).toBeNull();
    expect(Buffer.from(await photo.arrayBuffer()).equals(image)).toBe(true);
  });
});

describe("ETag and 304 for anonymous answers", () => {
  it("answers 304 without a body to If-None-Match naming a catalogue answer's ETag, and 200 again once the product changed", async () => {
    const shop = await appWithProducts();
    const product = await createProduct(shop.database.db);
    const first = await shop.request(`/api/products/${product.id}`);
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await shop.request(`/api/products/${product.id}`, { headers: { "If-None-Match": etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("etag")).toBe(etag);
    // An encoded answer has the same validator: the content is the same.
    const encoded = await shop.request(`/api/products/${product.id}`, { headers: { "If-None-Match": etag!, "Accept-Encoding": "br" } });
    expect(encoded.status).toBe(304);

    shop.infrastructure.changes.publish(shop.database.db, { type: "product", productId: product.id, aspects: ["details"] });
    await shop.database.db.updateTable("products").set({ name: "Renamed fern" }).where("id", "=", product.id).execute();
    const changed = await shop.request(`/api/products/${product.id}`, { headers: { "If-None-Match": etag! } });
    expect(changed.status).toBe(200);
    expect(((await changed.json()) as { name: string }).name).toBe("Renamed fern");
    expect(changed.headers.get("etag")).not.toBe(etag);
  });

  it("answers 304 for an unchanged page without a Content-Security-Policy, whose new nonce would not match the kept page", async () => {
    const shop = await appWithProducts();
    const first = await shop.request("/");
    const etag = first.headers.get("etag");
    expect(etag).toBeTruthy();
    const replayed = await shop.request("/");
    expect(replayed.headers.get("etag")).toBe(etag);
    const revalidated = await shop.request("/", { headers: { "If-None-Match": etag! } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get("content-security-policy")).toBeNull();
    expect(await revalidated.text()).toBe("");
    expect((await shop.request("/", { headers: { "If-None-Match": 'W/"other"' } })).status).toBe(200);
  });

  it("gives signed-in callers (a cookie) neither the cache nor a 304", async () => {
    const shop = await appWithProducts();
    const first = await shop.request("/api/categories");
    const etag = first.headers.get("etag")!;
    const withCookie = await shop.request("/api/categories", { headers: { Cookie: "x=y", "If-None-Match": etag } });
    expect(withCookie.status).toBe(200);
    expect(withCookie.headers.get("x-api-cache")).toBeNull();
  });
});
