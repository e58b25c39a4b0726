import { promisify } from "node:util";
import zlib from "node:zlib";
import { createMiddleware } from "hono/factory";
import type { Context } from "hono";
import type { PlatformEnv } from "./http-env.ts";

// Compression with node:zlib rather than Hono's `compress` (docs/decisions/027-served-from-memory.md): that one
// pipes through the web CompressionStream, which on Node 20 offers gzip and deflate but not brotli, and costs a
// web-stream round trip per chunk.

export type Encoding = "br" | "gzip";

/**
 * Text worth compressing: HTML, React Router's data (`text/x-script`), CSS, JavaScript, JSON, XML, SVG. Never an
 * event stream (each event must reach the page when written), nor images, fonts or video, which are compressed already.
 */
const COMPRESSIBLE = /^\s*(?:text\/(?!event-stream)[\w.+-]+|application\/(?:json|javascript|xml|manifest\+json|[\w.-]+\+(?:json|xml))|image\/svg\+xml)\s*(?:;|$)/i;
/** Below this many bytes the encoded form saves less than its own headers and the work cost. */
export const COMPRESSION_THRESHOLD = 1024;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

export function isCompressible(contentType: string | null | undefined): boolean {
  return !!contentType && COMPRESSIBLE.test(contentType);
}

/**
 * The encoding to answer in for this Accept-Encoding: brotli when accepted, else gzip, else none. Weights are
 * honoured (`br;q=0` refuses brotli; `*` stands for any encoding not named).
 */
export function chooseEncoding(acceptEncoding: string | null | undefined): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  // Browsers send one of a handful of headers, each on every request: each is worked out once.
  const known = chosenEncodings.get(acceptEncoding);
  if (known !== undefined) return known || undefined;
  const chosen = parseAcceptEncoding(acceptEncoding);
  if (acceptEncoding.length <= 128) {
    if (chosenEncodings.size >= 256) chosenEncodings.clear();
    chosenEncodings.set(acceptEncoding, chosen ?? "");
  }
  return chosen;
}

/**
 * Whether this Accept-Encoding takes gzip at all (weight above 0), whatever it prefers: an answer that can be made
 * far cheaper in gzip than in brotli (a shared page spliced from pieces compressed once) is sent in gzip then.
 */
export function acceptsGzip(acceptEncoding: string | null | undefined): boolean {
  if (!acceptEncoding) return false;
  let known = gzipAccepted.get(acceptEncoding);
  if (known === undefined) {
    known = weightsOf(acceptEncoding).gzip > 0;
    if (acceptEncoding.length <= 128) {
      if (gzipAccepted.size >= 256) gzipAccepted.clear();
      gzipAccepted.set(acceptEncoding, known);
    }
  }
  return known;
}

/** Accept-Encoding headers seen (up to 128 characters), and whether each takes gzip; at most 256. */
const gzipAccepted = new Map<string, boolean>();

/** Accept-Encoding headers seen (up to 128 characters), and the encoding each chooses ("" for none); at most 256. */
const chosenEncodings = new Map<string, Encoding | "">();

function parseAcceptEncoding(acceptEncoding: string): Encoding | undefined {
  const { br, gzip: gz } = weightsOf(acceptEncoding);
  if (br > 0 && br >= gz) return "br";
  if (gz > 0) return "gzip";
  return undefined;
}

/** The weight given to each encoding the shop can answer in (0: refused or not named). */
function weightsOf(acceptEncoding: string): Record<Encoding, number> {
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    const weight = q === undefined ? 1 : Number(q);
    if (name) weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (encoding: Encoding) => weights.get(encoding) ?? weights.get("*") ?? 0;
  return { br: weightOf("br"), gzip: weightOf("gzip") };
}

/**
 * Encodes a body. Answers made per request use a fast setting (brotli 4 is about gzip's speed and smaller);
 * answers kept in a cache are encoded once and may afford more (`level: "stored"`).
 */
export function encode(body: Uint8Array, encoding: Encoding, level: "fast" | "stored" = "fast"): Promise<Buffer> {
  if (encoding === "br") {
    return brotli(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: level === "fast" ? 4 : 6,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
      },
    });
  }
  return gzip(body, { level: level === "fast" ? 6 : 9 });
}

/** Adds Accept-Encoding to Vary: a shared cache must keep the encoded and plain forms apart. */
export const varyOnAcceptEncoding = (headers: Headers) => addToVary(headers, "Accept-Encoding");

/** Adds a request header's name to Vary, unless Vary names it already or is `*`. */
export function addToVary(headers: Headers, name: string) {
  const vary = headers.get("vary");
  if (vary === "*" || (vary && vary.split(",").some((field) => field.trim().toLowerCase() === name.toLowerCase()))) return;
  headers.set("vary", vary ? `${vary}, ${name}` : name);
}

/** A Buffer as a Response body (node's Buffers are Uint8Arrays; their type names a wider backing store). */
export const asBody = (bytes: Buffer) => bytes as unknown as Uint8Array<ArrayBuffer>;

/** Replaces the context's response without Hono copying the old one's headers (Content-Length!) onto it. */
export function replaceResponse(c: Context, response: Response) {
  c.res = undefined;
  c.res = response;
}

/**
 * Compresses every compressible answer that is not encoded yet (brotli or gzip, as the client accepts) and marks
 * each compressible answer `Vary: Accept-Encoding`. Left alone: HEAD, 204/206/304, `no-transform`, event
 * streams, and bodies under COMPRESSION_THRESHOLD bytes. Build assets arrive encoded already (precompressed at
 * build time), and cached API answers carry their encodings, so neither is compressed here again.
 */
export function compression() {
  return createMiddleware<PlatformEnv>(async (c, next) => {
    await next();
    const res = c.res;
    if (!isCompressible(res.headers.get("content-type"))) return;
    varyOnAcceptEncoding(res.headers);
    if (
      c.req.method === "HEAD" ||
      res.status === 204 ||
      res.status === 206 ||
      res.status === 304 ||
      res.headers.has("content-encoding") ||
      /(?:^|,)\s*no-transform\s*(?:,|$)/i.test(res.headers.get("cache-control") ?? "")
    ) {
      return;
    }
    const encoding = chooseEncoding(c.req.header("accept-encoding"));
    if (!encoding) return;
    const declared = res.headers.get("content-length");
    if (declared !== null && Number(declared) < COMPRESSION_THRESHOLD) return;
    // Asked last: @hono/node-server answers c.json() and c.text() with a light response that it writes straight to
    // the socket, and reading `body` turns it into a full web Response with a stream, for every API answer.
    if (!res.body) return;
    const body = new Uint8Array(await res.arrayBuffer());
    const headers = new Headers(res.headers);
    if (body.byteLength < COMPRESSION_THRESHOLD) {
      replaceResponse(c, new Response(body, { status: res.status, statusText: res.statusText, headers }));
      return;
    }
    const encoded = await encode(body, encoding);
    headers.set("content-encoding", encoding);
    headers.set("content-length", String(encoded.byteLength));
    // A strong validator names exact bytes; the encoded bytes differ, the content does not.
    const etag = headers.get("etag");
    if (etag && !etag.startsWith("W/")) headers.set("etag", `W/${etag}`);
    replaceResponse(c, new Response(asBody(encoded), { status: res.status, statusText: res.statusText, headers }));
  });
}
