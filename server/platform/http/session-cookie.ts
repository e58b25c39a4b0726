import { parse, serialize } from "hono/utils/cookie";
import type { SessionOutcome } from "../session-user.ts";

/**
 * The name of one of a session's cookies (the auth library sets a few). `__Host-` binds a cookie to this exact
 * origin (Secure, Path=/, no Domain), which is only possible over https.
 */
export const authCookieName = (https: boolean, name: string) => (https ? `__Host-plant-shop.${name}` : `plant-shop.${name}`);

/** The attributes of every cookie the session uses, here and in the auth library's own endpoints (decision 011). */
export const sessionCookieAttributes = (https: boolean) => ({ httpOnly: true, sameSite: "lax" as const, path: "/", secure: https });

export type SessionCookies = ReturnType<typeof createSessionCookies>;

/**
 * The session credential in HTTP terms: read from the request's Cookie header, written as Set-Cookie. Services
 * deal in credentials and outcomes (../session-user.ts); only this file knows they travel as a cookie.
 */
export function createSessionCookies({ https }: { https: boolean }) {
  const name = authCookieName(https, "session_token");
  const forgetOnCloseName = authCookieName(https, "dont_remember");
  const attributes = sessionCookieAttributes(https);
  const options = { httpOnly: attributes.httpOnly, sameSite: "Lax" as const, path: attributes.path, secure: attributes.secure };
  return {
    name,
    /** The auth library's marker of a session made without "remember me". */
    forgetOnCloseName,
    /** The credential the request presents, or null. */
    read(headers: Headers): string | null {
      const header = headers.get("cookie");
      if (!header) return null;
      return parse(header, name)[name] || null;
    },
    /** The auth library's signed marker of a session made without "remember me", as the request presents it, or null. */
    readForgetOnClose(headers: Headers): string | null {
      const header = headers.get("cookie");
      if (!header) return null;
      return parse(header, forgetOnCloseName)[forgetOnCloseName] || null;
    },
    /** The Set-Cookie headers that tell the browser an outcome (none when nothing changed). */
    write(outcome: SessionOutcome): string[] {
      switch (outcome.kind) {
        case "unchanged":
          return [];
        case "issued":
          return [serialize(name, outcome.credential, { ...options, ...(outcome.expiresInSeconds === null ? {} : { maxAge: outcome.expiresInSeconds }) })];
        case "ended":
          return [serialize(name, "", { ...options, maxAge: 0 })];
      }
    },
    /** Whether a Set-Cookie header sets (or clears) the session cookie. */
    isSessionCookie: (setCookie: string) => setCookie.startsWith(`${name}=`),
  };
}

