import { createCookie, type AppLoadContext, type Cookie, type CookieOptions } from "react-router";

/**
 * One of the shop's own cookies, as this shop serves it: over https (PUBLIC_URL) Secure and named with the
 * `__Host-` prefix, which the browser keeps only from this exact origin — the rule Better Auth's session
 * cookie follows too (server/modules/accounts/auth/auth.ts, decision 011).
 */
export function shopCookie(name: string, options: CookieOptions): (context: AppLoadContext) => Cookie {
  const plain = createCookie(name, { ...options, path: "/" });
  const secure = createCookie(`__Host-${name}`, { ...options, path: "/", secure: true });
  return (context) => (context.shop.publicUrl.startsWith("https:") ? secure : plain);
}
