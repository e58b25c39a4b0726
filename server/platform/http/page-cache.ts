import { createMiddleware } from "hono/factory";
import type { PlatformEnv } from "./http-env.ts";

interface Entry {
  expiresAt: number;
  status: number;
  headers: [string, string][];
  body: string;
  /** The CSP nonce rendered into the body; each replay swaps in the new response's own nonce. */
  nonce: string;
}

const CACHEABLE_TYPES = /^text\/html|^text\/x-script/;

/**
 * A short-lived cache of the pages anonymous visitors see (docs/decisions/007-anonymous-page-cache.md).
 * Server rendering is what limits page throughput; a page a visitor without cookies sees is the same for
 * every such visitor, so for a couple of seconds it is rendered once. Anything with a cookie, anything that
 * sets one, and any status but 200 passes straight through.
 */
export function anonymousPageCache({ ttlMs, maxEntries = 1000, now = Date.now }: { ttlMs: number; maxEntries?: number; now?: () => number }) {
  const entries = new Map<string, Entry>();
  return createMiddleware<PlatformEnv>(async (c, next) => {
    if (ttlMs <= 0 || c.req.method !== "GET" || c.req.header("cookie") || c.req.header("authorization")) return next();
    const key = c.req.url;
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
    entries.delete(key);
    entries.set(key, { expiresAt: now() + ttlMs, status: 200, headers, body, nonce });
    if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
    c.res = new Response(body, { status: 200, headers: c.res.headers });
  });
}
