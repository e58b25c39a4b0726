import { randomUUID } from "node:crypto";
import type http from "node:http";
import { createMiddleware } from "hono/factory";
import type { Logger } from "pino";
import { connectionClientIp } from "./client-ip.ts";
import { chooseEncoding, type Encoding } from "./compression.ts";
import { externalOrigin } from "./forwarded-origin.ts";
import type { PlatformEnv } from "./http-env.ts";
import { logRequest } from "./request-logger.ts";
import { ifNoneMatchHits, isAnonymousRead, NOT_MODIFIED_HEADERS, type ResponseCache, type StoredAnswer } from "./response-cache.ts";

/**
 * Request targets Hono's node adapter takes as they are (its own fast path, `buildUrl`): with them the cache key
 * is `http://host` + target, exactly the `c.req.url` the answer was stored under. Anything else (escapes to
 * normalise, dot segments, a fragment, a backslash) goes to Hono, which normalises it.
 */
const PLAIN_TARGET = /^\/[!$&-;=?-[\]_a-z~]*$/;
const DOT_SEGMENT = /\/\.\.?(?:[/?]|$)/;
const PLAIN_HOST = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/;
/** The request id a client may choose (as hono/request-id accepts it). */
const REQUEST_ID = /^[\w\-=]{1,255}$/;
/** Per-response headers: the front writes its own; the marker of a replay is added as a hit. */
const NOT_KEPT = /^(x-request-id|content-length|content-encoding|transfer-encoding|date|connection|keep-alive)$/i;
type Wire = NonNullable<StoredAnswer["wire"]>;

export interface FrontCacheOptions {
  /** The anonymous caches to answer from, each looked up by the request's full URL. */
  caches: ResponseCache[];
  /** TRUST_PROXY: the origin (and client address) as the outermost trusted proxy says, like the Hono chain. */
  trustedProxies: number;
  logger: Logger;
  /** Told of each answer the front replayed, with the entry it came from (the metrics). */
  onHit?: (req: http.IncomingMessage, entry: StoredAnswer) => void;
}

/**
 * Answers an anonymous GET (or HEAD) that a response cache holds straight from node:http, before Hono (docs/decisions/027):
 * no Request, Response or middleware per hit. It writes what the whole chain wrote when the answer was stored
 * (`capture`, mounted outermost), so a hit carries the same headers as the Hono path: security headers with the
 * page's script hashes, Vary, ETag, Cache-Control; plus its own request id, the precompressed body the client
 * accepts, or a 304. Everything else (a cookie, Authorization, another method, a URL Hono would normalise, a miss, an answer
 * whose headers were not captured yet) falls through to Hono unchanged, which keeps every guard for it.
 */
export function frontCache({ caches, trustedProxies, logger, onHit }: FrontCacheOptions) {
  /** Outermost middleware: records, on the answer a cache just stored, the headers the chain finally sent with it. */
  const capture = createMiddleware<PlatformEnv>(async (c, next) => {
    await next();
    const entry = c.get("storedAnswer");
    if (!entry || c.res.status !== 200 || c.res.headers.has("set-cookie")) return;
    const sent = [...c.res.headers.entries()].filter(([name]) => !NOT_KEPT.test(name) && name !== entry.hitHeader.toLowerCase());
    const own = new Set(entry.headers.map(([name]) => name.toLowerCase()));
    // A 304 as the chain sends it: the headers the chain adds, the answer's own that a 304 keeps, never the CSP.
    const notModified = sent.filter(([name]) => name !== "content-security-policy" && (!own.has(name) || NOT_MODIFIED_HEADERS.test(name)));
    entry.wire = { ok: sent.flat(), notModified: notModified.flat() };
  });

  /**
   * The whole header list of a hit in one encoding ("" for none), made on its first use and kept with the entry:
   * per hit only the last value, the request id, is written in. writeHead reads the list at once, so one list per
   * entry and encoding serves every hit.
   */
  const headersOf = (entry: StoredAnswer, wire: Wire, encoding: Encoding | "", body: Buffer): string[] => {
    const made = wire.hits?.[encoding];
    if (made) return made;
    const list = [...wire.ok, entry.hitHeader, "hit", "Content-Length", String(body.byteLength)];
    if (encoding) list.push("Content-Encoding", encoding);
    list.push("X-Request-Id", "");
    (wire.hits ??= {})[encoding] = list;
    return list;
  };

  const keyOf = (req: http.IncomingMessage) => frontCacheKey(req, trustedProxies);

  const find = (key: string): { entry: StoredAnswer; cache: ResponseCache } | undefined => {
    for (const cache of caches) {
      const entry = cache.lookup(key);
      if (entry) return { entry, cache };
    }
    return undefined;
  };

  /** Answers the request from memory and returns true, or returns false having written nothing. */
  const serve = (req: http.IncomingMessage, res: http.ServerResponse): boolean => {
    // A HEAD gets the GET's headers: node:http sends no body in answer to a HEAD.
    if (!isAnonymousRead(req.method, header(req, "cookie"), header(req, "authorization"))) return false;
    const key = keyOf(req);
    const found = key === undefined ? undefined : find(key);
    const wire = found?.entry.wire;
    if (!found || !wire) return false;
    const { entry } = found;
    const notModified = ifNoneMatchHits(header(req, "if-none-match"), entry.etag);
    const encoding = notModified || !entry.encodable ? undefined : chooseEncoding(header(req, "accept-encoding"));
    const encoded = encoding && entry.encoded[encoding];
    // The form this client accepts is not made yet: the Hono chain makes and keeps it.
    if (encoding && !encoded) return false;
    const started = performance.now();
    const requestId = frontRequestId(req);
    const status = notModified ? 304 : 200;
    if (notModified) {
      res.writeHead(304, [...wire.notModified, "X-Request-Id", requestId, entry.hitHeader, "hit"]).end();
    } else {
      const body = encoded || entry.body;
      const headers = headersOf(entry, wire, encoded ? encoding : "", body);
      headers[headers.length - 1] = requestId;
      res.writeHead(200, headers).end(body);
    }
    found.cache.countHit();
    onHit?.(req, entry);
    // The line requestLogger writes, through the same asynchronous destination (decision 027).
    const target = req.url!;
    const query = target.indexOf("?");
    const path = query < 0 ? target : target.slice(0, query);
    logRequest(logger, { requestId, method: req.method === "HEAD" ? "HEAD" : "GET", path, status, started, clientIp: connectionClientIp(req, trustedProxies), accountId: null });
    return true;
  };

  return { capture, serve };
}

export type FrontCache = ReturnType<typeof frontCache>;

/**
 * The URL Hono would store a request's answer under, for a plain request target; undefined for any other (Hono
 * normalises it, and the request goes through Hono).
 */
export function frontCacheKey(req: http.IncomingMessage, trustedProxies: number): string | undefined {
  const target = req.url;
  const host = req.headers.host;
  if (!target || !host || !PLAIN_TARGET.test(target) || DOT_SEGMENT.test(target) || !PLAIN_HOST.test(host)) return undefined;
  const url = `http://${host}${target}`;
  if (trustedProxies === 0) return url;
  const forwarded = { proto: header(req, "x-forwarded-proto"), host: header(req, "x-forwarded-host") };
  return externalOrigin(new URL(url), forwarded, trustedProxies) + target;
}

/** The request id the client chose, if hono/request-id would accept it, else a new one. */
export function frontRequestId(req: http.IncomingMessage): string {
  const chosenId = header(req, "x-request-id");
  return chosenId && REQUEST_ID.test(chosenId) ? chosenId : randomUUID();
}

export function header(req: http.IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}
