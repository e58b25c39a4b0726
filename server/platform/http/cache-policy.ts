import { createMiddleware } from "hono/factory";
import { addToVary, replaceResponse } from "./compression.ts";
import type { PlatformEnv } from "./http-env.ts";

/** What no cache may keep: neither a shared one (a proxy, a CDN) nor the browser's (back/forward after logout). */
export const PRIVATE_NO_STORE = "private, no-store";
const NO_STORE = /(?:^|,)\s*no-store\s*(?:,|$)/i;
const PUBLIC = /(?:^|,)\s*public\s*(?:,|$)/i;

export interface CachePolicyOptions {
  /** Paths whose every answer is `private, no-store` whoever asks: the auth library's endpoints. */
  neverStored: (path: string) => boolean;
}

/**
 * Who may keep an answer (docs/decisions/027, "Private answers"). Every answer to a request that sends a Cookie or
 * an Authorization header (a session, or another of one person's cookies: the address /verify shows, a toast),
 * every answer that sets a cookie, and every answer under `neverStored` is `Cache-Control: private, no-store`,
 * unless it is no-store already or its route declared it `public` (the same bytes for everyone: build files,
 * stored images, illustrations). Anonymous answers keep their policy: pages and catalogue JSON stay publicly
 * cacheable with their ETag, and say `Vary: Cookie`, since the same URL answers a session differently and a
 * shared cache must not hand their copy to a signed-in request.
 *
 * Mounted just inside the front cache's capture: the headers a stored anonymous answer is replayed with include
 * its Vary, and an answer made by an error handler passes through it too.
 */
export function cachePolicy({ neverStored }: CachePolicyOptions) {
  return createMiddleware<PlatformEnv>(async (c, next) => {
    await next();
    const res = c.res;
    const own = res.headers.get("cache-control");
    // Nothing is stricter than no-store (an event stream, Better Auth's get-session).
    if (own !== null && NO_STORE.test(own)) return;
    const always = neverStored(c.req.path);
    const setsCookie = res.headers.has("set-cookie");
    // Declared public by its route: the same bytes for everyone (build files, stored images, illustrations).
    if (own !== null && PUBLIC.test(own) && !setsCookie && !always) return;
    // The same line the anonymous caches draw (isAnonymousRead): a request with no Cookie and no Authorization.
    const personal = always || setsCookie || c.req.header("cookie") !== undefined || c.req.header("authorization") !== undefined;
    // An anonymous answer whose route chose its own policy keeps it.
    if (!personal && own !== null) return;
    try {
      apply(res.headers, personal);
    } catch {
      // Headers of a Response.redirect() are immutable: the same answer, with headers that can be set.
      const copy = new Response(res.body, res);
      apply(copy.headers, personal);
      replaceResponse(c, copy);
    }
  });
}

function apply(headers: Headers, personal: boolean) {
  if (personal) headers.set("cache-control", PRIVATE_NO_STORE);
  addToVary(headers, "Cookie");
}
