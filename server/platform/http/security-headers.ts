import { createMiddleware } from "hono/factory";
import { NONCE, secureHeaders } from "hono/secure-headers";
import type { PlatformEnv } from "./http-env.ts";

/** The nonce source of a policy (production's script-src); development's policy has none. */
const NONCE_SOURCE = / 'nonce-[^']*'/;

/**
 * Security headers for every response. Scripts run only from our origin or with this response's nonce
 * (React Router's inline hydration scripts carry it); see docs/decisions/004-content-security-policy.md.
 * An answer a response cache stores or replays names its inline scripts by hash instead (`cspScriptHashes`): the
 * same bytes go to many visitors, and a nonce must never be shared between responses.
 */
export function securityHeaders({
  dev,
  https,
  hstsIncludeSubdomains = false,
  formActionOrigins = [],
  imgOrigins = [],
}: {
  dev: boolean;
  https: boolean;
  hstsIncludeSubdomains?: boolean;
  /**
   * Other origins a form of the shop's may end up at: browsers apply form-action to every redirect a form post
   * is answered with, and a post that starts a sign-in with an outside provider is answered with one to it.
   */
  formActionOrigins?: string[];
  /** Other origins pages show images from: a bucket's public address when stored pictures are read from there. */
  imgOrigins?: string[];
}) {
  const headersWith = (scriptSrc: (string | typeof NONCE)[]) =>
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc,
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:", ...imgOrigins],
        fontSrc: ["'self'"],
        connectSrc: dev ? ["'self'", "ws:", "wss:"] : ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'", ...formActionOrigins],
        frameAncestors: ["'none'"],
      },
      referrerPolicy: "strict-origin-when-cross-origin",
      xFrameOptions: "DENY",
      xContentTypeOptions: "nosniff",
      // Subdomains only when the operator says every one of them serves https (HSTS_INCLUDE_SUBDOMAINS).
      strictTransportSecurity: https ? `max-age=31536000${hstsIncludeSubdomains ? "; includeSubDomains" : ""}` : false,
      crossOriginEmbedderPolicy: false,
      crossOriginOpenerPolicy: "same-origin",
      crossOriginResourcePolicy: "same-origin",
      permissionsPolicy: { camera: [], microphone: [], geolocation: [] },
    });
  // Vite's dev client evaluates modules and opens a WebSocket; production needs neither.
  const scripts = (production: (string | typeof NONCE)[]) => (dev ? ["'self'", "'unsafe-inline'", "'unsafe-eval'"] : production);
  const pageHeaders = headersWith(scripts(["'self'", NONCE]));
  // The JSON API answers run no script, so theirs has no nonce to make (random bytes on every answer).
  const apiHeaders = headersWith(scripts(["'self'"]));
  return createMiddleware<PlatformEnv>(async (c, next) => {
    await (c.req.path.startsWith("/api/") ? apiHeaders : pageHeaders)(c, next);
    const hashes = c.get("cspScriptHashes");
    const policy = hashes && c.res.headers.get("content-security-policy");
    if (policy) c.res.headers.set("content-security-policy", policy.replace(NONCE_SOURCE, hashes.map((hash) => ` ${hash}`).join("")));
  });
}
