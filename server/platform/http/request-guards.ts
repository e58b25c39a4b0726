import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import { createMiddleware } from "hono/factory";
import { matchedRoutes } from "hono/route";
import type { Handler } from "hono/types";
import { messages } from "#common/shared/messages.ts";
import { hasControlCharacters } from "#common/shared/fields.ts";
import type { PlatformEnv } from "./http-env.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export interface SameOriginOptions {
  /**
   * Links (exact paths) whose POST with a `token` in the address acts on that token alone, never on the caller's
   * cookies, and is therefore taken from anywhere: a mail provider's one-click unsubscribe (RFC 8058) posts to the
   * link from its own servers, or from its webmail's page, with an origin that is not the shop's. Another site's
   * page could post there only with a token it was mailed, which is all such a post acts on.
   */
  tokenLinks?: readonly string[];
}

/**
 * Refuses state-changing requests sent by another site's page: browsers always name the page's origin
 * on such requests, so a mismatch with PUBLIC_URL is a cross-site request forgery.
 */
export function sameOriginOnly(publicOrigin: string, { tokenLinks = [] }: SameOriginOptions = {}) {
  const links = new Set(tokenLinks);
  const toTokenLink = (c: Context<PlatformEnv>) => c.req.method === "POST" && links.has(c.req.path) && c.req.query("token") !== undefined;
  return createMiddleware<PlatformEnv>(async (c, next) => {
    if (!SAFE_METHODS.has(c.req.method) && !toTokenLink(c)) {
      const origin = c.req.header("origin");
      const crossSite = c.req.header("sec-fetch-site") === "cross-site";
      // A request that carries cookies acts for somebody: it must say where it comes from.
      const unnamed = origin === undefined && c.req.header("cookie") !== undefined;
      if ((origin !== undefined && origin !== publicOrigin) || crossSite || unnamed) {
        throw new HTTPException(403, { message: messages.crossSiteRefused });
      }
    }
    await next();
  });
}

/**
 * Whether a request carries a body, by its headers: a length above 0, a chunked transfer, or a content type.
 * (A DELETE or a bodiless POST such as a cancel button's has none of them and needs no content type.)
 */
function declaresBody(c: Context<PlatformEnv>): boolean {
  const length = c.req.header("content-length");
  if (length !== undefined) return length.trim() !== "0";
  return c.req.header("transfer-encoding") !== undefined || c.req.header("content-type") !== undefined;
}

/**
 * JSON endpoints take JSON bodies only (415 otherwise), up to a size (413 beyond it).
 *
 * The size is read from Content-Length where the request declares one (Node's parser never hands on more bytes than
 * it declares); only a body without one is counted as it streams, by Hono's bodyLimit. Hono's middleware asks for the
 * body stream first, which makes @hono/node-server build a web Request around every request, GETs included, and
 * then read a JSON body through web streams instead of straight from the socket (docs/decisions/009).
 */
export function jsonBodies(maxBytes: number, { reachesEndpoint = () => true }: { reachesEndpoint?: (c: Context<PlatformEnv>) => boolean } = {}) {
  const tooLarge = () => {
    throw new HTTPException(413, { message: `The request is too large (at most ${Math.round(maxBytes / 1024)} KB).` });
  };
  const countedAsItStreams = bodyLimit({ maxSize: maxBytes, onError: tooLarge });
  const limit = createMiddleware<PlatformEnv>(async (c, next) => {
    // A path no endpoint answers is told so (404) whatever its body: nothing will read that body.
    if (!reachesEndpoint(c)) return next();
    const length = c.req.header("content-length");
    if (c.req.header("transfer-encoding") === undefined) {
      if (length !== undefined) return Number.parseInt(length, 10) > maxBytes ? tooLarge() : next();
      // No length and not chunked: over HTTP/1.1 no body at all. A body that declares neither (a request built in
      // the process, as tests do) is counted as it streams, like a chunked one, unless the method takes none.
      if (SAFE_METHODS.has(c.req.method)) return next();
    }
    return countedAsItStreams(c, next);
  });
  const jsonOnly = createMiddleware<PlatformEnv>(async (c, next) => {
    if (!SAFE_METHODS.has(c.req.method) && declaresBody(c) && reachesEndpoint(c)) {
      const type = c.req.header("content-type") ?? "";
      if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
        throw new HTTPException(415, { message: "Send the request body as JSON (Content-Type: application/json)." });
      }
    }
    await next();
  });
  return [limit, jsonOnly] as const;
}

/**
 * Whether a request reaches an endpoint before `fallback` (the handler that answers "no such endpoint"): a route
 * for its method, or a handler for every method (one taking no `next`, as Hono tells handlers from middleware),
 * registered ahead of the fallback. What comes after the fallback is never reached.
 */
export function reachesEndpointBefore(fallback: Handler) {
  return (c: Context) => {
    for (const { method, handler } of matchedRoutes(c)) {
      if (handler === fallback) return false;
      if (method !== "ALL" || handler.length < 2) return true;
    }
    return false;
  };
}

/**
 * Refuses a request whose path or query string carries a control character (NUL among them): no route takes
 * one, PostgreSQL cannot store or even compare a NUL (it used to answer 500), and a person can be told why.
 */
export function refuseControlCharactersInUrl() {
  return createMiddleware<PlatformEnv>(async (c, next) => {
    const url = new URL(c.req.url);
    if (hasControlCharacters(decodedLeniently(url.pathname)) || [...url.searchParams].some(([k, v]) => hasControlCharacters(k) || hasControlCharacters(v))) {
      throw new HTTPException(400, { message: messages.validation.controlCharactersInRequest });
    }
    await next();
  });
}

/** The path as routes see it; a malformed escape is left as it is (the routes refuse that path themselves). */
function decodedLeniently(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}
