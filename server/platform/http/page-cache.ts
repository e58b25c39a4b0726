import { createMiddleware } from "hono/factory";
import type { PlatformEnv } from "./http-env.ts";
import type { ChangeFeed } from "../change-feed/change-feed.ts";

interface Entry {
  expiresAt: number;
  status: number;
  headers: [string, string][];
  body: string;
  /** The CSP nonce rendered into the body; each replay swaps in the new response's own nonce. */
  nonce: string;
}

const CACHEABLE_TYPES = /^text\/html|^text\/x-script/;
/** A product page, or its data for client navigation and revalidation (`/product/ID.data`). */
const PRODUCT_PAGE = /^\/product\/([^/]+?)(?:\.data)?$/;

/**
 * A short-lived cache of the pages anonymous visitors see (docs/decisions/007-anonymous-page-cache.md).
 * Server rendering is what limits page throughput; a page a visitor without cookies sees is the same for
 * every such visitor, so for a couple of seconds it is rendered once. Anything with a cookie, anything that
 * sets one, and any status but 200 passes straight through.
 */
export function anonymousPageCache({
  ttlMs,
  maxEntries = 1000,
  now = Date.now,
  changes,
}: {
  ttlMs: number;
  maxEntries?: number;
  now?: () => number;
  /**
   * When given, a product's cached pages are dropped as soon as the feed says it changed, so a live page that
   * re-reads after a change never gets the page from before it (decision 019); anything else drops them all.
   */
  changes?: ChangeFeed;
}) {
  const entries = new Map<string, Entry>();
  /** Cache keys of each product's pages, to drop them without looking through the whole cache. */
  const productKeys = new Map<string, Set<string>>();
  /** Counts drops; a render that began before the latest drop of its product is not stored (it may predate the change). */
  let generation = 0;
  const droppedAt = new Map<string, number>();
  let allDroppedAt = 0;

  const productOf = (key: string) => {
    const match = PRODUCT_PAGE.exec(new URL(key).pathname);
    return match?.[1];
  };
  const forget = (key: string) => {
    entries.delete(key);
    const productId = productOf(key);
    if (!productId) return;
    const keys = productKeys.get(productId);
    keys?.delete(key);
    if (keys && !keys.size) productKeys.delete(productId);
  };
  changes?.subscribe((change) => {
    generation++;
    if (change.type === "product") {
      for (const key of productKeys.get(change.productId) ?? []) entries.delete(key);
      productKeys.delete(change.productId);
      // Bounded: a drop older than any render in flight no longer matters, so the map is emptied when it grows.
      if (droppedAt.size >= maxEntries) {
        droppedAt.clear();
        allDroppedAt = generation;
      }
      droppedAt.set(change.productId, generation);
    } else {
      entries.clear();
      productKeys.clear();
      droppedAt.clear();
      allDroppedAt = generation;
    }
  });

  return createMiddleware<PlatformEnv>(async (c, next) => {
    if (ttlMs <= 0 || c.req.method !== "GET" || c.req.header("cookie") || c.req.header("authorization")) return next();
    const key = c.req.url;
    const startedAt = generation;
    const nonce = c.var.secureHeadersNonce ?? "";
    const hit = entries.get(key);
    if (hit && hit.expiresAt > now()) {
      const body = hit.nonce ? hit.body.replaceAll(hit.nonce, nonce) : hit.body;
      c.res = new Response(body, { status: hit.status, headers: [...hit.headers, ["X-Page-Cache", "hit"]] });
      return;
    }
    await next();
    const type = c.res.headers.get("content-type") ?? "";
    if (c.res.status !== 200 || c.res.headers.has("set-cookie") || !CACHEABLE_TYPES.test(type)) return;
    const body = await c.res.text();
    const headers = [...c.res.headers.entries()].filter(([name]) => !/^(content-security-policy|x-request-id)$/i.test(name));
    const productId = productOf(key);
    const stale = allDroppedAt > startedAt || (productId !== undefined && (droppedAt.get(productId) ?? 0) > startedAt);
    if (!stale) {
      forget(key);
      entries.set(key, { expiresAt: now() + ttlMs, status: 200, headers, body, nonce });
      if (productId) {
        let keys = productKeys.get(productId);
        if (!keys) productKeys.set(productId, (keys = new Set()));
        keys.add(key);
      }
      if (entries.size > maxEntries) forget(entries.keys().next().value as string);
    }
    c.res = new Response(body, { status: 200, headers: c.res.headers });
  });
}
