import type { ChangeFeed } from "../change-feed/change-feed.ts";
import type { CachedAnswers, CacheRules } from "./cache-rules.ts";
import { responseCache, type ResponseCache, type ResponseCacheOptions } from "./response-cache.ts";

/** Pages, and React Router's data for client navigation and revalidation (`.data`, text/x-script). */
const PAGE_TYPES = /^text\/html|^text\/x-script/;
/** JSON answers. */
const JSON_TYPES = /^application\/json/;

interface AnonymousCacheOptions {
  ttlMs: number;
  maxBytes: number;
  /** What the modules registered: which answers show one thing, and what each change drops. */
  rules: CacheRules;
  changes?: ChangeFeed | undefined;
  now?: () => number;
  /** Told of its hits and misses (the metrics). */
  counter?: ResponseCacheOptions["counter"];
}

/** A response cache for one kind of answer (its content types, its rules, its hit header, whom it answers). */
function anonymousCache(kind: { types: RegExp; answers: CachedAnswers; hitHeader: string } & Pick<ResponseCacheOptions, "admits" | "asStored">) {
  return ({ ttlMs, maxBytes, rules, changes, now, counter }: AnonymousCacheOptions): ResponseCache =>
    responseCache({
      ttlMs,
      maxBytes,
      changes,
      types: kind.types,
      hitHeader: kind.hitHeader,
      ...(kind.admits ? { admits: kind.admits } : {}),
      ...(kind.asStored ? { asStored: true } : {}),
      scopeOf: (path) => rules.scopeOf(kind.answers, path),
      invalidation: (change) => rules.invalidation(change, kind.answers),
      ...(now ? { now } : {}),
      ...(counter ? { counter } : {}),
    });
}

/**
 * The pages anonymous visitors see, kept until what they show changes (docs/decisions/007 and 027). Server
 * rendering is what limits page throughput; a page a visitor without cookies sees is the same for every such
 * visitor, so it is rendered once. Its policy names its inline scripts by hash, never a shared nonce (decision 004).
 */
export const anonymousPageCache = anonymousCache({ types: PAGE_TYPES, answers: "pages", hitHeader: "X-Page-Cache" });

/**
 * JSON for anonymous callers, kept like the pages: until the change feed says it changed. Mounted only on the
 * paths the app layer chooses.
 */
export const anonymousApiCache = anonymousCache({ types: JSON_TYPES, answers: "json", hitHeader: "X-Api-Cache" });

/**
 * The pages every signed-in shopper sees alike, rendered once without anything of the person and kept like the
 * visitors' pages; each answer is completed with the asking person's parts (shared-pages.ts, docs/decisions/045).
 * It answers only the requests sharedPages() has marked, and hands over the stored bytes unencoded.
 */
export const sharedPageCache = anonymousCache({
  types: /^text\/html/,
  answers: "pages",
  hitHeader: "X-Shared-Page-Cache",
  admits: (c) => c.get("sharedPage") === true && (c.req.method === "GET" || c.req.method === "HEAD"),
  asStored: true,
});
