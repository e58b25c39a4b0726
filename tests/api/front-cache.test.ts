import { createHash } from "node:crypto";
import http from "node:http";
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import type { PageHandler } from "../../server/pages.ts";
import { decodeBody } from "../support/api-contract.ts";
import { createProduct } from "../support/factories.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

// The front cache (server/platform/http/front-cache.ts, decision 027) answers anonymous cached GETs from node:http
// before Hono. These tests drive the real listener over loopback and compare its answers with the Hono chain's.

let app: TestApp | undefined;
afterEach(async () => {
  await app?.cleanup();
  app = undefined;
});

let renders = 0;
/** Stands in for React Router: a page over 1 kB whose inline scripts carry the response's nonce, showing the URL it was handed. */
const pages: PageHandler = async (c) => {
  renders++;
  const nonce = c.get("secureHeadersNonce") ?? "";
  const rows = Array.from({ length: 100 }, (_, i) => `<li>Plant number ${i}</li>`).join("");
  return new Response(`<!doctype html><p>${c.req.raw.url} render ${renders}</p><ul>${rows}</ul><script nonce="${nonce}">hydrate()</script>`, {
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-cache" },
  });
};

interface Answer {
  status: number;
  headers: Record<string, string>;
  /** Header names as written on the wire: Hono's Headers lowercases every name, the front writes its own as given. */
  rawNames: string[];
  body: Buffer;
}

function send(url: string, method: "GET" | "HEAD", headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .request(url, { method, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const names = res.rawHeaders.filter((_, i) => i % 2 === 0);
          resolve({ status: res.statusCode!, headers: res.headers as Record<string, string>, rawNames: names, body: Buffer.concat(chunks) });
        });
      })
      .on("error", reject)
      .end();
  });
}

const get = (url: string, headers: Record<string, string> = {}) => send(url, "GET", headers);
const head = (url: string) => send(url, "HEAD");

/**
 * The headers that must be equal between two answers: all but the date, the request id's value, the replay marker,
 * and the connection's own (node writes them; the in-process chain has no connection).
 */
function comparable(answer: Answer) {
  const { date: _date, connection: _connection, "keep-alive": _keepAlive, "x-request-id": id, "x-api-cache": _api, "x-page-cache": _page, ...rest } = answer.headers;
  expect(id).toMatch(/^[\w-]+$/);
  return rest;
}

/** True when the answer was written by the front: its marker keeps its case (through Hono it would be lowercase). */
const fromFront = (answer: Answer) => answer.rawNames.includes("X-Api-Cache") || answer.rawNames.includes("X-Page-Cache");

async function shopWithCatalogue(env: NodeJS.ProcessEnv = {}, logger?: pino.Logger) {
  app = await createTestApp({ PAGE_CACHE_SECONDS: "60", ...env }, { handler: pages }, logger);
  const product = await createProduct(app.database.db, { description: "A long description of a fern ".repeat(20) });
  for (let i = 0; i < 11; i++) await createProduct(app.database.db, { description: `A long description of plant ${i} `.repeat(8) });
  return { shop: app, product, url: await app.listen() };
}

describe("the front cache", () => {
  it("writes a hit with the same status, headers and bytes as the Hono chain sent when the answer was stored, in every encoding", async () => {
    const { product, url } = await shopWithCatalogue();
    for (const path of ["/api/products?limit=12", `/api/products/${product.id}`, "/shop"]) {
      for (const acceptEncoding of ["br", "gzip", "identity"]) {
        const miss = await get(url + path + `${path.includes("?") ? "&" : "?"}e=${acceptEncoding}`, { "Accept-Encoding": acceptEncoding });
        const hit = await get(url + path + `${path.includes("?") ? "&" : "?"}e=${acceptEncoding}`, { "Accept-Encoding": acceptEncoding });
        expect(miss.status).toBe(200);
        expect(fromFront(miss)).toBe(false);
        expect(hit.status).toBe(200);
        expect(fromFront(hit)).toBe(true);
        expect(comparable(hit)).toEqual(comparable(miss));
        expect(hit.body.equals(miss.body)).toBe(true);
        expect(hit.headers["x-content-type-options"]).toBe("nosniff");
        expect(hit.headers["vary"]).toMatch(/accept-encoding/i);
        expect(hit.headers["etag"]).toMatch(/^W\/".+"$/);
        expect(hit.headers["content-encoding"]).toBe(acceptEncoding === "identity" ? undefined : acceptEncoding);
      }
    }
  });

  it("passes a hit in an encoding not made yet to the Hono chain once, which keeps it; the front writes the next", async () => {
    const { url } = await shopWithCatalogue();
    const stored = await get(`${url}/shop`, { "Accept-Encoding": "br" });
    const firstGzip = await get(`${url}/shop`, { "Accept-Encoding": "gzip" });
    const secondGzip = await get(`${url}/shop`, { "Accept-Encoding": "gzip" });
    expect(fromFront(firstGzip)).toBe(false);
    expect(firstGzip.headers["x-page-cache"]).toBe("hit");
    expect(fromFront(secondGzip)).toBe(true);
    expect(comparable(secondGzip)).toEqual(comparable(firstGzip));
    expect(secondGzip.body.equals(firstGzip.body)).toBe(true);
    expect(decodeBody("gzip", secondGzip.body).equals(decodeBody("br", stored.body))).toBe(true);
  });

  it("answers If-None-Match with a 304 carrying the same headers as the Hono chain's 304, and no policy", async () => {
    const { shop, product, url } = await shopWithCatalogue();
    for (const path of [`/api/products/${product.id}`, "/shop"]) {
      const first = await get(url + path);
      const etag = first.headers["etag"]!;
      const front = await get(url + path, { "If-None-Match": etag });
      // In-process: the Hono chain alone, replaying the same stored answer.
      const chain = await shop.request(url + path, { headers: { "If-None-Match": etag } });
      expect(front.status).toBe(304);
      expect(fromFront(front)).toBe(true);
      expect(chain.status).toBe(304);
      expect(front.body.length).toBe(0);
      expect(front.headers["content-security-policy"]).toBeUndefined();
      const chainHeaders = Object.fromEntries(chain.headers);
      expect(comparable(front)).toEqual(comparable({ status: 304, headers: chainHeaders, rawNames: [], body: Buffer.alloc(0) }));
    }
  });

  it("replays a page whose policy names its inline script by hash, never a nonce, and whose bytes decode to the page as stored", async () => {
    const { url } = await shopWithCatalogue();
    const first = await get(`${url}/shop`, { "Accept-Encoding": "br" });
    const replay = await get(`${url}/shop`, { "Accept-Encoding": "br" });
    const hash = `'sha256-${createHash("sha256").update("hydrate()").digest("base64")}'`;
    for (const answer of [first, replay]) {
      expect(answer.headers["content-security-policy"]).toContain(`script-src 'self' ${hash};`);
      expect(answer.headers["content-security-policy"]).not.toContain("'nonce-");
    }
    expect(decodeBody("br", replay.body).toString("utf8")).toContain("<script nonce=");
    expect(decodeBody("br", replay.body).equals(decodeBody("br", first.body))).toBe(true);
  });

  it("answers a HEAD from the cache with the GET's status and headers and no body, and keeps a HEAD's miss for the GETs after it", async () => {
    const { url } = await shopWithCatalogue();
    const rendersBefore = renders;
    const headMiss = await head(`${url}/shop`);
    expect(headMiss.status).toBe(200);
    expect(headMiss.body.length).toBe(0);
    expect(renders).toBe(rendersBefore + 1);
    const get1 = await get(`${url}/shop`);
    const headHit = await head(`${url}/shop`);
    expect(renders).toBe(rendersBefore + 1);
    expect(fromFront(get1)).toBe(true);
    expect(fromFront(headHit)).toBe(true);
    expect(headHit.status).toBe(200);
    expect(headHit.body.length).toBe(0);
    expect(comparable(headHit)).toEqual(comparable(get1));
    expect(headHit.headers["content-length"]).toBe(String(get1.body.length));
  });

  it("passes to the Hono chain whatever it must not answer: cookies, control characters, a changed product", async () => {
    const { shop, product, url } = await shopWithCatalogue();
    await get(`${url}/api/products/${product.id}`);
    expect(fromFront(await get(`${url}/api/products/${product.id}`))).toBe(true);
    const withCookie = await get(`${url}/api/products/${product.id}`, { Cookie: "x=y" });
    expect(withCookie.headers["x-api-cache"]).toBeUndefined();
    expect((await get(`${url}/api/products?q=fern%00`)).status).toBe(400);
    expect((await get(`${url}/api/products?q=fern%00`)).status).toBe(400);

    shop.infrastructure.changes.publish(shop.database.db, { type: "product", productId: product.id, aspects: ["details"] });
    await shop.database.db.updateTable("products").set({ name: "Renamed fern" }).where("id", "=", product.id).execute();
    const changed = await get(`${url}/api/products/${product.id}`);
    expect(changed.headers["x-api-cache"]).toBeUndefined();
    expect((JSON.parse(changed.body.toString("utf8")) as { name: string }).name).toBe("Renamed fern");
  });

  it("keys answers on the external origin behind a trusted proxy: an https answer is never replayed to an http request", async () => {
    const { url } = await shopWithCatalogue({ TRUST_PROXY: "1" });
    const https = { "X-Forwarded-Proto": "https" };
    await get(`${url}/category-page`, https);
    const httpsAgain = await get(`${url}/category-page`, https);
    expect(fromFront(httpsAgain)).toBe(true);
    expect(httpsAgain.body.toString("utf8")).toContain("https://127.0.0.1");
    const plain = await get(`${url}/category-page`);
    expect(plain.headers["x-page-cache"]).toBeUndefined();
    expect(plain.body.toString("utf8")).toContain("http://127.0.0.1");
  });

  it("logs every hit as the request logger does, with its request id", async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString("utf8")) as Record<string, unknown>);
        done();
      },
    });
    const { product, url } = await shopWithCatalogue({}, pino({ level: "info" }, sink));
    await get(`${url}/api/products/${product.id}`);
    const hit = await get(`${url}/api/products/${product.id}`, { "X-Request-Id": "front-cache-test-1" });
    expect(fromFront(hit)).toBe(true);
    expect(hit.headers["x-request-id"]).toBe("front-cache-test-1");
    await new Promise((resolve) => setImmediate(resolve));
    const logged = lines.filter((line) => line.msg === "request" && line.path === `/api/products/${product.id}`);
    expect(logged).toHaveLength(2);
    expect(logged[1]).toMatchObject({ requestId: "front-cache-test-1", method: "GET", status: 200, clientIp: "127.0.0.1", accountId: null });
    expect(Object.keys(logged[1]!).sort()).toEqual(Object.keys(logged[0]!).sort());
  });
});
