import { createHash } from "node:crypto";
import { createMiddleware } from "hono/factory";
import type { ChangeFeed } from "../change-feed/change-feed.ts";
import { asBody, chooseEncoding, COMPRESSION_THRESHOLD, encode, isCompressible, replaceResponse, varyOnAcceptEncoding, type Encoding } from "./compression.ts";
import type { PlatformEnv } from "./http-env.ts";

interface Entry {
  status: number;
  /** Stored headers, without the per-response ones (CSP, request id, length). */
  headers: [string, string][];
  /**
   * The body cut at the CSP nonce it was rendered with: each replay joins the parts with its own response's nonce.
   * One part when the body carries no nonce (JSON, page data), which can then be kept encoded as well.
   */
  parts: Buffer[];
  etag: string;
  /** Encoded forms of a nonce-free body, made on the first request that accepts each (docs/decisions/027). */
  encoded: Partial<Record<Encoding, Buffer>>;
  bytes: number;
  expiresAt: number;
  /** The product it shows, or UNSCOPED. */
  scope: string;
}

/** The scope of every answer that shows no single product: lists, searches, categories, other pages. */
const UNSCOPED = "\0unscoped";

export interface ResponseCacheOptions {
  /** The safety lifetime: changes drop entries at once, this bounds what a missed change can cost. 0 turns the cache off. */
  ttlMs: number;
  /** The bound on what the cache holds: bodies, their encoded forms, headers and keys, approximately. */
  maxBytes: number;
  /** Content types stored; any other answer passes through unread (an event stream keeps streaming). */
  types: RegExp;
  /**
   * The product an URL shows, if it shows one: a change of that product drops its entries and every entry with no
   * scope (lists, searches, categories); a change of another product leaves them.
   */
  scopeOf: (path: string) => string | undefined;
  /** Header that marks a replayed answer (tests and operators read it). */
  hitHeader: string;
  changes?: ChangeFeed;
  now?: () => number;
}

const PER_RESPONSE_HEADERS = /^(content-security-policy|x-request-id|content-length|content-encoding|etag|transfer-encoding)$/i;
/** What a 304 carries besides the validator (RFC 9110 §15.4.5): never the CSP, whose nonce belongs to another body. */
const NOT_MODIFIED_HEADERS = /^(cache-control|vary|expires|content-location)$/i;
/** Bookkeeping per entry besides its bytes (the entry object, the map slot, header strings), roughly. */
const ENTRY_OVERHEAD = 512;

/** True when If-None-Match names this entity tag (weak comparison, RFC 9110 §13.1.2), or is `*`. */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = etag.replace(/^W\//, "");
  return header.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t.replace(/^W\//, "") === bare;
  });
}

/**
 * Answers anonymous GET requests from memory (docs/decisions/007 and 027). Anything with a cookie or an
 * Authorization header, anything that sets a cookie, and any status but 200 passes straight through. Entries are
 * dropped by the change feed as soon as what they show changes, on every server process; the TTL is only a
 * safety net. Memory is bounded in bytes, least recently used first out. Each stored answer has a weak ETag
 * (a hash of its body), and a matching If-None-Match gets a 304 without a body.
 */
export function responseCache({ ttlMs, maxBytes, types, scopeOf, hitHeader, changes, now = Date.now }: ResponseCacheOptions) {
  const entries = new Map<string, Entry>();
  /** Keys of each scope's entries, to drop them without looking through the whole cache. */
  const scopeKeys = new Map<string, Set<string>>();
  let totalBytes = 0;
  /** Counts changes; an answer made while a change of what it shows happened is not stored (it may predate it). */
  let generation = 0;
  let allDroppedAt = 0;
  const droppedAt = new Map<string, number>();

  const forget = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    totalBytes -= entry.bytes;
    const keys = scopeKeys.get(entry.scope);
    keys?.delete(key);
    if (keys && !keys.size) scopeKeys.delete(entry.scope);
  };
  const evictOverBound = () => {
    for (const key of entries.keys()) {
      if (totalBytes <= maxBytes) break;
      forget(key);
    }
  };
  const clear = () => {
    entries.clear();
    scopeKeys.clear();
    droppedAt.clear();
    totalBytes = 0;
    allDroppedAt = generation;
  };

  changes?.subscribe((change) => {
    generation++;
    if (change.type !== "product") return clear();
    // Bounded: a drop older than any answer in flight no longer matters, so the map is emptied when it grows.
    if (droppedAt.size >= 10_000) {
      droppedAt.clear();
      allDroppedAt = generation;
    }
    // Lists, searches and categories may show the product: they go too.
    for (const scope of [change.productId, UNSCOPED]) {
      for (const key of [...(scopeKeys.get(scope) ?? [])]) forget(key);
      droppedAt.set(scope, generation);
    }
  });

  const bodyOf = (entry: Entry, nonce: string) => (entry.parts.length === 1 ? entry.parts[0]! : Buffer.concat(interleave(entry.parts, Buffer.from(nonce))));

  const notModified = (stored: [string, string][], etag: string, extra: [string, string][] = []) => {
    const headers = new Headers([...stored.filter(([name]) => NOT_MODIFIED_HEADERS.test(name)), ["etag", etag], ...extra]);
    if (isCompressible(stored.find(([name]) => name === "content-type")?.[1])) varyOnAcceptEncoding(headers);
    return new Response(null, { status: 304, headers });
  };

  return createMiddleware<PlatformEnv>(async (c, next) => {
    if (ttlMs <= 0 || c.req.method !== "GET" || c.req.header("cookie") || c.req.header("authorization")) return next();
    const key = c.req.url;
    const nonce = c.var.secureHeadersNonce ?? "";
    const hit = entries.get(key);
    if (hit && hit.expiresAt > now()) {
      // Most recently used last: eviction takes the oldest first.
      entries.delete(key);
      entries.set(key, hit);
      const marker: [string, string] = [hitHeader, "hit"];
      if (ifNoneMatchHits(c.req.header("if-none-match"), hit.etag)) return replaceResponse(c, notModified(hit.headers, hit.etag, [marker]));
      const headers = new Headers([...hit.headers, ["etag", hit.etag], marker]);
      const encoding = hit.parts.length === 1 ? chooseEncoding(c.req.header("accept-encoding")) : undefined;
      const body = hit.parts[0]!;
      if (encoding && body.byteLength >= COMPRESSION_THRESHOLD && isCompressible(headers.get("content-type"))) {
        let encoded = hit.encoded[encoding];
        if (!encoded) {
          encoded = await encode(body, encoding, "stored");
          // Still the same entry (not dropped while encoding): keep the encoded form with it.
          if (entries.get(key) === hit && !hit.encoded[encoding]) {
            hit.encoded[encoding] = encoded;
            hit.bytes += encoded.byteLength;
            totalBytes += encoded.byteLength;
            evictOverBound();
          }
        }
        headers.set("content-encoding", encoding);
        varyOnAcceptEncoding(headers);
        return replaceResponse(c, new Response(asBody(encoded), { status: hit.status, headers }));
      }
      return replaceResponse(c, new Response(asBody(bodyOf(hit, nonce)), { status: hit.status, headers }));
    }
    if (hit) forget(key);

    const startedAt = generation;
    await next();
    const res = c.res;
    if (res.status !== 200 || res.headers.has("set-cookie") || res.headers.has("content-encoding") || !types.test(res.headers.get("content-type") ?? "")) return;
    const body = Buffer.from(await res.arrayBuffer());
    const parts = nonce ? splitAt(body, Buffer.from(nonce)) : [body];
    const hash = createHash("sha1");
    for (const part of parts) hash.update(part).update("\0nonce\0");
    const etag = `W/"${hash.digest("base64url").slice(0, 22)}"`;
    const headers = [...res.headers.entries()].filter(([name]) => !PER_RESPONSE_HEADERS.test(name));
    const scope = scopeOf(c.req.path) ?? UNSCOPED;
    const stale = allDroppedAt > startedAt || (droppedAt.get(scope) ?? 0) > startedAt;
    const bytes = body.byteLength + key.length + headers.reduce((sum, [name, value]) => sum + name.length + value.length, 0) + ENTRY_OVERHEAD;
    if (!stale && bytes <= maxBytes / 8) {
      forget(key);
      entries.set(key, { status: 200, headers, parts, etag, encoded: {}, bytes, expiresAt: now() + ttlMs, scope });
      totalBytes += bytes;
      let keys = scopeKeys.get(scope);
      if (!keys) scopeKeys.set(scope, (keys = new Set()));
      keys.add(key);
      evictOverBound();
    }
    if (ifNoneMatchHits(c.req.header("if-none-match"), etag)) {
      return replaceResponse(c, notModified(headers, etag));
    }
    const fresh = new Headers(headers);
    fresh.set("etag", etag);
    replaceResponse(c, new Response(asBody(body), { status: 200, headers: fresh }));
  });
}

/**
 * Drops the Content-Security-Policy from 304 answers. The browser merges a 304's headers into the copy it kept;
 * a new nonce there would not match the nonce in the kept body, and its scripts would be refused. Mounted outside
 * the security headers, which add a policy to every answer.
 */
export function keepPolicyOnNotModified() {
  return createMiddleware<PlatformEnv>(async (c, next) => {
    await next();
    if (c.res.status === 304) c.res.headers.delete("content-security-policy");
  });
}

function splitAt(body: Buffer, separator: Buffer): Buffer[] {
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = body.indexOf(separator, from); at >= 0; at = body.indexOf(separator, from)) {
    parts.push(body.subarray(from, at));
    from = at + separator.byteLength;
  }
  parts.push(body.subarray(from));
  return parts;
}

function interleave(parts: Buffer[], separator: Buffer): Buffer[] {
  const out: Buffer[] = [];
  parts.forEach((part, i) => {
    if (i > 0) out.push(separator);
    out.push(part);
  });
  return out;
}
