import { createMiddleware } from "hono/factory";
import type { PlatformEnv } from "./http-env.ts";

/**
 * The value the outermost trusted proxy wrote in an X-Forwarded-* header: proxies that append leave one
 * entry each, so it is the `trustedProxies`-th from the right (as for X-Forwarded-For, decision 010); proxies
 * that overwrite leave fewer, and the leftmost is then the outermost one's.
 */
function outermostEntry(header: string | undefined, trustedProxies: number): string | undefined {
  const entries = (header ?? "").split(",").map((entry) => entry.trim()).filter(Boolean);
  return entries[Math.max(0, entries.length - trustedProxies)];
}

/** Characters of a host and port (names, IPv4, bracketed IPv6): no user, path, query or fragment can ride along. */
const HOST = /^[A-Za-z0-9.\-:[\]]+$/;

/** `scheme://host` as an origin, or undefined when the host is not one. */
function originOf(scheme: string, host: string | undefined): string | undefined {
  if (!host || !HOST.test(host)) return undefined;
  try {
    // Through URL, so a default port (https://x:443) is dropped as browsers drop it from their Origin header.
    return new URL(`${scheme}://${host}`).origin;
  } catch {
    return undefined;
  }
}

/**
 * The origin the browser used (decision 011). Without trusted proxies it is the connection's own (the
 * request URL the HTTP server built); behind them, X-Forwarded-Proto and X-Forwarded-Host, as written by
 * the outermost trusted proxy, replace its scheme and host. A value that is not an http(s) scheme or a bare
 * host is ignored.
 */
export function externalOrigin(
  requestUrl: URL,
  forwarded: { proto: string | undefined; host: string | undefined },
  trustedProxies: number,
): string {
  if (trustedProxies === 0) return requestUrl.origin;
  const proto = outermostEntry(forwarded.proto, trustedProxies)?.toLowerCase();
  const scheme = proto === "http" || proto === "https" ? proto : requestUrl.protocol.slice(0, -1);
  return originOf(scheme, outermostEntry(forwarded.host, trustedProxies)) ?? originOf(scheme, requestUrl.host) ?? requestUrl.origin;
}

/**
 * Rebuilds the request's URL once, before anything reads it, with the origin the browser used: React
 * Router's check of a form's Origin, Better Auth, redirects and page links then all see `https://…` behind
 * a TLS-terminating proxy. Only with TRUST_PROXY ≥ 1; otherwise the headers are a client's say-so.
 */
export function useExternalOrigin(trustedProxies: number) {
  return createMiddleware<PlatformEnv>(async (c, next) => {
    if (trustedProxies > 0) {
      const url = new URL(c.req.url);
      const origin = externalOrigin(url, { proto: c.req.header("x-forwarded-proto"), host: c.req.header("x-forwarded-host") }, trustedProxies);
      if (origin !== url.origin) c.req.raw = new Request(new URL(url.pathname + url.search, origin), c.req.raw);
    }
    await next();
  });
}
