import type { ChangeFeed } from "../change-feed/change-feed.ts";
import { profileScope, responseCache, type ResponseCache } from "./response-cache.ts";

/** Pages, and React Router's data for client navigation and revalidation (`.data`, text/x-script). */
const PAGE_TYPES = /^text\/html|^text\/x-script/;
/** A product page, or its data (`/product/ID.data`). */
const PRODUCT_PAGE = /^\/product\/([^/]+?)(?:\.data)?$/;
/** A person's public profile page, or its data. */
const PROFILE_PAGE = /^\/profile\/([^/]+?)(?:\.data)?$/;
/** JSON answers of the catalogue. */
const JSON_TYPES = /^application\/json/;
/** One product's answers: itself, its reviews (its change events are an event stream, never stored). */
const PRODUCT_API = /^\/api\/products\/(?!suggestions$)([^/]+)(?:\/|$)/;

interface AnonymousCacheOptions {
  ttlMs: number;
  maxBytes: number;
  changes?: ChangeFeed | undefined;
  now?: () => number;
}

/** What drops a page: a product's change its product page, a profile's change its profile page, anything else the rest. */
function pageScope(path: string): string | undefined {
  const product = PRODUCT_PAGE.exec(path)?.[1];
  if (product !== undefined) return product;
  const profile = PROFILE_PAGE.exec(path)?.[1];
  return profile === undefined ? undefined : profileScope(profile);
}

/** A response cache for one kind of answer (its content types, what change drops it, its hit header). */
function anonymousCache(kind: { types: RegExp; scopeOf: (path: string) => string | undefined; hitHeader: string }) {
  return ({ ttlMs, maxBytes, changes, now }: AnonymousCacheOptions): ResponseCache => responseCache({ ttlMs, maxBytes, changes, ...kind, ...(now ? { now } : {}) });
}

/**
 * The pages anonymous visitors see, kept until what they show changes (docs/decisions/007 and 027). Server
 * rendering is what limits page throughput; a page a visitor without cookies sees is the same for every such
 * visitor, so it is rendered once. Its policy names its inline scripts by hash, never a shared nonce (decision 004).
 */
export const anonymousPageCache = anonymousCache({ types: PAGE_TYPES, scopeOf: pageScope, hitHeader: "X-Page-Cache" });

/**
 * The catalogue's JSON for anonymous callers (products, one product, suggestions, categories), kept like the pages:
 * until the change feed says it changed. Mounted only on those paths.
 */
export const anonymousApiCache = anonymousCache({ types: JSON_TYPES, scopeOf: (path) => PRODUCT_API.exec(path)?.[1], hitHeader: "X-Api-Cache" });
