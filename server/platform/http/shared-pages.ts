import type { Context, MiddlewareHandler } from "hono";
import { createMiddleware } from "hono/factory";
import { replaceResponse } from "./compression.ts";
import type { PlatformEnv } from "./http-env.ts";
import type { ResponseCache } from "./response-cache.ts";

export interface SharedPagesOptions<Personal> {
  /** Keeps the shared renders (page-cache.ts's sharedPageCache): it answers only requests marked `sharedPage`. */
  cache: ResponseCache;
  /**
   * What the person's parts of this request's page show, when the page may be the one every such person sees
   * alike; undefined renders the page for the person, as before (the owner, an unusual cookie, a page of one's own).
   */
  personalFor: (c: Context<PlatformEnv>) => Promise<Personal | undefined>;
  /** The shared page with the person's parts filled in: the page as rendered for them, byte for byte where it shows. */
  fill: (html: string, personal: Personal) => string | Promise<string>;
}

const HTML = /^text\/html/;

/**
 * Signed-in pages served from one render (docs/decisions/045). A page whose only personal parts are the navigation's
 * (who is signed in, their cart's count) is rendered once, without the person, for every signed-in shopper, and kept
 * until what it shows changes, like the visitors' pages; each answer then gets the asking person's parts filled into
 * the places the render marked, and goes out private and no-store, compressed by the chain like any answer.
 */
export function sharedPages<Personal>({ cache, personalFor, fill }: SharedPagesOptions<Personal>): MiddlewareHandler<PlatformEnv> {
  return createMiddleware<PlatformEnv>(async (c, next) => {
    if (c.req.method !== "GET") return next();
    const personal = await personalFor(c);
    if (personal === undefined) return next();
    c.set("sharedPage", true);
    // A render it keeps gets the chain's headers captured (front-cache.ts) for front-shared-pages.ts, which alone
    // answers from this cache before Hono; the visitors' front looks in the anonymous caches only.
    await cache(c, next);
    const res = c.res;
    if (!HTML.test(res.headers.get("content-type") ?? "")) return;
    const html = await res.text();
    const headers = new Headers(res.headers);
    headers.delete("content-length");
    replaceResponse(c, new Response(await fill(html, personal), { status: res.status, headers }));
  });
}
