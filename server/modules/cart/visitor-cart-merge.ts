import type { MiddlewareHandler } from "hono";
import { replaceResponse } from "../../platform/http/compression.ts";
import type { PlatformEnv } from "../../platform/http/http-env.ts";
import type { SessionCookies } from "../../platform/http/session-cookie.ts";
import type { CartService } from "./cart.ts";
import type { VisitorCartCookies } from "./visitor-cart-cookie.ts";

export interface VisitorCartMergeOptions {
  cart: Pick<CartService, "mergeVisitorCart">;
  visitorCarts: VisitorCartCookies;
  sessionCookies: SessionCookies;
  /** The account a freshly issued session credential belongs to (null if none). */
  accountOfCredential: (credential: string) => Promise<string | null>;
}

/**
 * Signing in with a visitor's cart, however the sign-in happens (docs/decisions/037): every way ends in an answer
 * that issues a new session cookie — a page's sign-in (password, verification link) through redirectWithSession,
 * or one of the auth library's own endpoints (e-mailed link, OpenID callback, second factor) — and every answer
 * passes here. When an answer issues a session credential other than the one the request presented, and the request
 * carries a visitor's cart, the cart is merged into that account's (mergeVisitorCart, one transaction), its cookie
 * cleared, and a sealed notice of what changed set for the next page. A sign-in that stops at a second factor
 * issues no session yet, so the merge waits for the factor.
 */
export function mergeVisitorCartOnSignIn({ cart, visitorCarts, sessionCookies, accountOfCredential }: VisitorCartMergeOptions): MiddlewareHandler<PlatformEnv> {
  return async (c, next) => {
    await next();
    const token = visitorCarts.read(c.req.raw.headers);
    if (!token) return;
    const credential = issuedCredential(c.res.headers.getSetCookie(), sessionCookies);
    if (!credential || credential === sessionCookies.read(c.req.raw.headers)) return;
    const cookies: string[] = [];
    try {
      const userId = await accountOfCredential(credential);
      if (!userId) return;
      const merged = await cart.mergeVisitorCart(token, userId);
      cookies.push(...visitorCarts.write({ kind: "ended" }));
      if (merged) cookies.push(visitorCarts.writeNotice(merged.notice));
    } catch (error) {
      // The sign-in itself succeeded: it stands, and the visitor's cart stays for the next sign-in.
      c.get("log").error({ err: error }, "merging a visitor's cart failed");
      return;
    }
    try {
      for (const cookie of cookies) c.res.headers.append("Set-Cookie", cookie);
    } catch {
      // Headers of a Response.redirect() are immutable: the same answer, with headers that can be set.
      const copy = new Response(c.res.body, c.res);
      for (const cookie of cookies) copy.headers.append("Set-Cookie", cookie);
      replaceResponse(c, copy);
    }
  };
}

/** The session credential an answer issues (decoded, as the browser will send it back), or null. */
function issuedCredential(setCookies: string[], sessionCookies: SessionCookies): string | null {
  const header = setCookies.findLast(sessionCookies.isSessionCookie);
  if (!header) return null;
  const value = header.slice(sessionCookies.name.length + 1).split(";", 1)[0] ?? "";
  if (!value || /;\s*max-age=0(?:;|$)/i.test(header)) return null;
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}
