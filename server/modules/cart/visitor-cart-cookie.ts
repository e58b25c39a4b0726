import { parse, serialize } from "hono/utils/cookie";
import { authCookieName, sessionCookieAttributes } from "../../platform/http/session-cookie.ts";
import type { Sealer } from "../../platform/sealed-values.ts";
import { VISITOR_CART_IDLE_DAYS, type VisitorCartOutcome } from "./visitor-cart.ts";

/** How long the notice of a merge waits for the next page. */
const NOTICE_SECONDS = 60;
const NOTICE_PURPOSE = "cart-merge-notice";

export type VisitorCartCookies = ReturnType<typeof createVisitorCartCookies>;

/** A visitor's cart as one request sees it: its token, and how to write what became of it. */
export interface VisitorCartOfRequest {
  /** The token the browser presented, or null (no visitor cart). */
  token: string | null;
  /** The Set-Cookie headers that tell the browser an outcome (none when nothing changed). */
  write(outcome: VisitorCartOutcome): string[];
  /** The notice of a merge waiting for this page, and the header that clears it; null when none. */
  notice(): { text: string; clear: string } | null;
}

/**
 * The visitor's cart token in HTTP terms (docs/decisions/037): an httpOnly, SameSite=Lax cookie with the session
 * cookie's attributes (Secure and `__Host-` over https), set only when a visitor adds something — a visitor without a
 * cart sends no cookie and keeps getting the shared cache's pages. Beside it, the notice of what a sign-in merged,
 * sealed so that no planted cookie can put words on the page.
 */
export function createVisitorCartCookies({ https, sealer }: { https: boolean; sealer: Sealer }) {
  const name = authCookieName(https, "visitor_cart");
  const noticeName = authCookieName(https, "cart_notice");
  const attributes = sessionCookieAttributes(https);
  const options = { httpOnly: attributes.httpOnly, sameSite: "Lax" as const, path: attributes.path, secure: attributes.secure };
  const cookie = (headers: Headers, cookieName: string) => {
    const header = headers.get("cookie");
    return header ? parse(header, cookieName)[cookieName] || null : null;
  };

  const read = (headers: Headers): string | null => cookie(headers, name);

  function write(outcome: VisitorCartOutcome): string[] {
    switch (outcome.kind) {
      case "unchanged":
        return [];
      case "issued":
        return [serialize(name, outcome.token, { ...options, maxAge: VISITOR_CART_IDLE_DAYS * 24 * 60 * 60 })];
      case "ended":
        return [serialize(name, "", { ...options, maxAge: 0 })];
    }
  }

  return {
    name,
    read,
    write,
    /** The Set-Cookie header that carries a merge's notice to the next page. */
    writeNotice: (text: string) => serialize(noticeName, sealer.seal(NOTICE_PURPOSE, text), { ...options, maxAge: NOTICE_SECONDS }),
    forRequest(headers: Headers): VisitorCartOfRequest {
      return {
        token: read(headers),
        write,
        notice() {
          const sealed = cookie(headers, noticeName);
          const text = sealed ? sealer.open(NOTICE_PURPOSE, sealed) : null;
          return sealed ? { text: text ?? "", clear: serialize(noticeName, "", { ...options, maxAge: 0 }) } : null;
        },
      };
    },
  };
}
