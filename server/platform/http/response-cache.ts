import { createHash } from "node:crypto";
import type { Context, MiddlewareHandler, Next } from "hono";
import { createMiddleware } from "hono/factory";
import type { Change, ChangeFeed } from "../change-feed/change-feed.ts";
import type { Invalidation } from "./cache-rules.ts";
import { asBody, chooseEncoding, COMPRESSION_THRESHOLD, encode, isCompressible, replaceResponse, varyOnAcceptEncoding, type Encoding } from "./compression.ts";
import type { PlatformEnv } from "./http-env.ts";
import { inlineScriptHashes } from "./inline-script-hashes.ts";

/** One stored answer: fixed bytes, encoded once when stored, replayed by the Hono chain or by the front (front-cache.ts). */
export interface StoredAnswer {
  /** Headers the handler gave, without the per-response ones (CSP, request id, length, encoding, ETag). */
  headers: [string, string][];
  /** The body as first made. A page keeps the nonce it was rendered with, but no policy names it again: see scriptHashes. */
  body: Buffer;
  etag: string;
  /** Whether the body is worth encoding: a compressible type, over COMPRESSION_THRESHOLD. */
  encodable: boolean;
  /**
   * Its brotli and gzip forms, each made once: the one the storing request accepted when it was stored, the other on
   * its first demand (through the Hono chain: the front passes a request on while the form it accepts is missing).
   */
  encoded: Partial<Record<Encoding, Buffer>>;
  /**
   * The CSP hash sources of the page's inline scripts, sent in place of a nonce with every replay (and with the
   * answer that stored it): no nonce is shared between responses, and the bytes can be encoded once. Empty for JSON.
   */
  scriptHashes: string[];
  /** The header that marks a replay. */
  hitHeader: string;
  /**
   * The headers the whole chain sent with the answer that stored it (security headers, Vary, ETag…), flat name/value
   * lists for node's writeHead, for a 200 and for a 304; set by front-cache.ts's capture, which alone reads them.
   */
  wire?: {
    ok: string[];
    notModified: string[];
    /** The full header list of a hit in each encoding ("" for none), request id last, made on first use (front-cache.ts). */
    hits?: Partial<Record<Encoding | "", string[]>>;
  };
  bytes: number;
  expiresAt: number;
  /** now() when the making of this answer began: a change after it may be missing from it. */
  madeAt: number;
  /**
   * Set by a change that refreshes rather than drops its scope (cache-rules.ts `refresh`): the entry is one change
   * behind. It is still served while one request makes it again, or until `refreshIntervalMs` after its making began.
   */
  stale: boolean;
  /** What it shows, as its cache rules scope it (cache-rules.ts), or UNSCOPED. */
  scope: string;
  /** The route pattern that made it, for the metrics of the front's replays (platform/metrics). */
  route?: string;
}

/** The scope of every answer no rule scopes: lists, searches, other pages. */
const UNSCOPED = "\0unscoped";

export interface ResponseCacheOptions {
  /** The safety lifetime: changes drop entries at once, this bounds what a missed change can cost. 0 turns the cache off. */
  ttlMs: number;
  /** The bound on what the cache holds: bodies, their encoded forms, headers and keys, approximately. */
  maxBytes: number;
  /** Content types stored; any other answer passes through unread (an event stream keeps streaming). */
  types: RegExp;
  /** The scope of the answer at a path, if it shows one thing (cache-rules.ts); undefined: UNSCOPED. */
  scopeOf: (path: string) => string | undefined;
  /** What a change drops (cache-rules.ts); undefined: everything. */
  invalidation: (change: Change) => Invalidation | undefined;
  /** Header that marks a replayed answer (tests and operators read it). */
  hitHeader: string;
  changes?: ChangeFeed;
  now?: () => number;
  /** Which requests it answers and keeps: anonymous reads (isAnonymousRead) unless given. */
  admits?: (c: Context<PlatformEnv>) => boolean;
  /**
   * Answers carry the stored bytes as they are, unencoded and without an ETag or a 304: for a layer that completes
   * each answer per request (shared-pages.ts), whose result is no longer the stored entity.
   */
  asStored?: boolean;
  /**
   * A stale entry (see StoredAnswer.stale) younger than this is served as it is, without making it again: while
   * changes keep coming, the answer is made at most once per interval, not once per change. Default 250 ms.
   */
  refreshIntervalMs?: number;
  /** Told of every answer this middleware replays or has made (the metrics). */
  counter?: { hit(): void; miss(): void };
}

/** A response cache's Hono middleware, and its lookup for the front (front-cache.ts). */
export type ResponseCache = MiddlewareHandler<PlatformEnv> & {
  /** The stored answer for this URL (the request's full URL, as Hono's `c.req.url`), if any and still fresh; counts as a use. */
  lookup(key: string): StoredAnswer | undefined;
  /** Counts an answer the front replayed from this cache. */
  countHit(): void;
};

const PER_RESPONSE_HEADERS = /^(content-security-policy|x-request-id|content-length|content-encoding|etag|transfer-encoding)$/i;
/** What a 304 carries besides the validator (RFC 9110 §15.4.5): never the CSP, whose nonce belongs to another body. */
export const NOT_MODIFIED_HEADERS = /^(cache-control|vary|expires|content-location)$/i;
/** How long a stale entry may be served before one request makes it again (ResponseCacheOptions.refreshIntervalMs). */
export const REFRESH_INTERVAL_MS = 250;
/** Bookkeeping per entry besides its bytes (the entry object, the map slot, the front's copy of the headers), roughly. */
const ENTRY_OVERHEAD = 2048;
const HTML = /^\s*text\/html/i;

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
export function responseCache({
  ttlMs,
  maxBytes,
  types,
  scopeOf,
  invalidation,
  hitHeader,
  changes,
  now = Date.now,
  admits = (c) => isAnonymousRead(c.req.method, c.req.header("cookie"), c.req.header("authorization")),
  asStored = false,
  refreshIntervalMs = REFRESH_INTERVAL_MS,
  counter,
}: ResponseCacheOptions): ResponseCache {
  const entries = new Map<string, StoredAnswer>();
  /** Keys of each scope's entries, to drop them without looking through the whole cache. */
  const scopeKeys = new Map<string, Set<string>>();
  let totalBytes = 0;
  /** Counts changes; an answer made while a change of what it shows happened is not stored (it may predate it). */
  let generation = 0;
  let allDroppedAt = 0;
  const droppedAt = new Map<string, number>();
  /** The same for changes that only mark a scope stale: an answer made meanwhile is stored, stale. */
  let allRefreshedAt = 0;
  const refreshedAt = new Map<string, number>();
  /**
   * Keys of stale entries one request is making again (a single flight): every other request for them is served the
   * stale copy meanwhile. Holds at most the requests in flight; each key leaves when its request ends, however it ends.
   */
  const refreshing = new Set<string>();

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

  const drop = (scopes: string[]) => {
    // Bounded: a drop older than any answer in flight no longer matters, so the map is emptied when it grows.
    if (droppedAt.size >= 10_000) {
      droppedAt.clear();
      allDroppedAt = generation;
    }
    for (const scope of scopes) {
      for (const key of [...(scopeKeys.get(scope) ?? [])]) forget(key);
      droppedAt.set(scope, generation);
    }
  };

  const markStale = (scopes: readonly string[]) => {
    if (refreshedAt.size >= 10_000) {
      refreshedAt.clear();
      allRefreshedAt = generation;
    }
    for (const scope of scopes) {
      for (const key of scopeKeys.get(scope) ?? []) entries.get(key)!.stale = true;
      refreshedAt.set(scope, generation);
    }
  };

  changes?.subscribe((change) => {
    generation++;
    const drops = invalidation(change);
    if (!drops) return clear();
    drop(drops.unscoped ? [...drops.scopes, UNSCOPED] : [...drops.scopes]);
    if (drops.refresh?.length) markStale(drops.refresh);
  });

  /** The entry for this key if it is within its lifetime, stale or not; counts as a use. */
  const current = (key: string) => {
    const hit = entries.get(key);
    if (!hit) return undefined;
    if (hit.expiresAt <= now()) {
      forget(key);
      return undefined;
    }
    // Most recently used last: eviction takes the oldest first.
    entries.delete(key);
    entries.set(key, hit);
    return hit;
  };
  /** Whether this stale entry is due to be made again by the request asking, no other request doing it already. */
  const dueForRefresh = (key: string, entry: StoredAnswer) => entry.stale && !refreshing.has(key) && now() - entry.madeAt >= refreshIntervalMs;

  /** What may be served for this key as it is: undefined on a miss, and for a stale entry the asking request should make again. */
  const lookup = (key: string) => {
    const hit = current(key);
    return hit && !dueForRefresh(key, hit) ? hit : undefined;
  };

  const middleware = createMiddleware<PlatformEnv>(async (c, next) => {
    if (ttlMs <= 0 || !admits(c)) return next();
    const key = c.req.url;
    const encoding = asStored ? undefined : chooseEncoding(c.req.header("accept-encoding"));
    const ifNoneMatch = asStored ? undefined : c.req.header("if-none-match");
    const found = current(key);
    // A stale entry due to be made again: this request makes it (below), the others meanwhile get the stale copy.
    const refresh = found !== undefined && dueForRefresh(key, found);
    const hit = refresh ? undefined : found;
    if (hit) {
      if (encoding && hit.encodable && !hit.encoded[encoding]) {
        const encoded = await encode(hit.body, encoding, "stored");
        // Still the same entry (not dropped while encoding): keep the encoded form with it.
        if (entries.get(key) === hit && !hit.encoded[encoding]) {
          hit.encoded[encoding] = encoded;
          hit.bytes += encoded.byteLength;
          totalBytes += encoded.byteLength;
          evictOverBound();
        }
      }
      c.set("cspScriptHashes", hit.scriptHashes);
      counter?.hit();
      return replaceResponse(c, answer(hit, ifNoneMatch, encoding, [[hitHeader, "hit"]], asStored));
    }

    counter?.miss();
    if (!refresh) return make(c, next, key, encoding);
    refreshing.add(key);
    try {
      await make(c, next, key, encoding);
    } finally {
      refreshing.delete(key);
    }
  });

  /** A miss: the chain makes the answer, stored unless a change of what it shows came while it was made. */
  const make = async (c: Context<PlatformEnv>, next: Next, key: string, encoding: Encoding | undefined) => {
    const startedAt = generation;
    const madeAt = now();
    await next();
    const res = c.res;
    const type = res.headers.get("content-type") ?? "";
    if (res.status !== 200 || res.headers.has("set-cookie") || res.headers.has("content-encoding") || !types.test(type)) return;
    const body = Buffer.from(await res.arrayBuffer());
    const etag = `W/"${createHash("sha1").update(body).digest("base64url").slice(0, 22)}"`;
    const scriptHashes = HTML.test(type) ? inlineScriptHashes(body.toString("utf8")) : [];
    // Encoded once, at the stored level, in the form this request accepts: this answer and every replay in that
    // encoding send these bytes. (Only that form: an answer nobody asks for again costs one encoding, as before.)
    const encodable = body.byteLength >= COMPRESSION_THRESHOLD && isCompressible(type);
    const encoded: StoredAnswer["encoded"] = {};
    if (encodable && encoding) encoded[encoding] = await encode(body, encoding, "stored");
    const headers = [...res.headers.entries()].filter(([name]) => !PER_RESPONSE_HEADERS.test(name));
    const scope = scopeOf(c.req.path) ?? UNSCOPED;
    // A change that only marks its scope stale came meanwhile: stored all the same (it is newer than what it
    // replaces), stale, so that it is made again in turn.
    const behind = allRefreshedAt > startedAt || (refreshedAt.get(scope) ?? 0) > startedAt;
    const entry: StoredAnswer = { headers, body, etag, encodable, encoded, scriptHashes, hitHeader, bytes: 0, expiresAt: now() + ttlMs, madeAt, stale: behind, scope };
    entry.bytes =
      body.byteLength + (encoded.br?.byteLength ?? 0) + (encoded.gzip?.byteLength ?? 0) + key.length +
      headers.reduce((sum, [name, value]) => sum + name.length + value.length, 0) + scriptHashes.length * 60 + ENTRY_OVERHEAD;
    // Checked after encoding: a change that came meanwhile makes this answer possibly out of date.
    const stale = allDroppedAt > startedAt || (droppedAt.get(scope) ?? 0) > startedAt;
    if (!stale && entry.bytes <= maxBytes / 8) {
      forget(key);
      entries.set(key, entry);
      totalBytes += entry.bytes;
      let keys = scopeKeys.get(scope);
      if (!keys) scopeKeys.set(scope, (keys = new Set()));
      keys.add(key);
      evictOverBound();
      c.set("storedAnswer", entry);
    }
    c.set("cspScriptHashes", scriptHashes);
    replaceResponse(c, answer(entry, asStored ? undefined : c.req.header("if-none-match"), encoding, [], asStored));
  };
  return Object.assign(middleware, { lookup, countHit: () => counter?.hit() });
}

/** A stored answer as a Response: 304 to a matching If-None-Match, else its bytes in the encoding the client accepts, if kept. */
function answer(entry: StoredAnswer, ifNoneMatch: string | undefined, encoding: Encoding | undefined, extra: [string, string][], asStored: boolean) {
  const compressible = isCompressible(entry.headers.find(([name]) => name === "content-type")?.[1]);
  if (ifNoneMatchHits(ifNoneMatch, entry.etag)) {
    const headers = new Headers([...entry.headers.filter(([name]) => NOT_MODIFIED_HEADERS.test(name)), ["etag", entry.etag], ...extra]);
    if (compressible) varyOnAcceptEncoding(headers);
    return new Response(null, { status: 304, headers });
  }
  const headers = new Headers([...entry.headers, ...(asStored ? [] : [["etag", entry.etag] as [string, string]]), ...extra]);
  const encoded = encoding && entry.encoded[encoding];
  if (encoded) headers.set("content-encoding", encoding);
  if (compressible) varyOnAcceptEncoding(headers);
  return new Response(asBody(encoded || entry.body), { status: 200, headers });
}

/**
 * Whether the anonymous caches may answer (and keep) a request: a GET, or a HEAD (Hono runs the GET chain for it
 * and sends the headers alone, so a HEAD never renders a cached page), sent with no Cookie and no Authorization
 * header at all. The front cache and the cache in the chain ask the same question.
 */
export function isAnonymousRead(method: string | undefined, cookie: string | undefined, authorization: string | undefined): boolean {
  return (method === "GET" || method === "HEAD") && cookie === undefined && authorization === undefined;
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
