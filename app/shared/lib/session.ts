import { data, redirect, type AppLoadContext } from "react-router";
import { messages } from "#common/shared/messages.ts";
import type { SessionOutcome, SessionUser } from "../../../server/platform/session-user.ts";
import { setFlash, type FlashKey } from "./flash.ts";

const SITE = "http://plant-shop.invalid";

/**
 * Only a path on this site may be a destination after login. The value is resolved as a browser would
 * (tabs and newlines dropped, backslashes as slashes), so `/\t/evil.example` or `/\\evil.example` cannot become
 * `//evil.example`; anything that leaves the site, or a path that still starts with `//`, gives the fallback.
 */
export function safeRedirectTo(value: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof value !== "string" || !value) return fallback;
  try {
    const url = new URL(value, SITE);
    const path = url.pathname + url.search + url.hash;
    return url.origin === SITE && !path.startsWith("//") ? path : fallback;
  } catch {
    return fallback;
  }
}

export function loginPath(request: Request): string {
  const url = new URL(request.url);
  return `/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`;
}

/** A visitor is sent to log in and brought back afterwards. */
export function requireUser(context: AppLoadContext, request: Request): SessionUser {
  if (!context.user) throw redirect(loginPath(request));
  return context.user;
}

/** Admin pages: a visitor logs in first; a signed-in non-admin gets the 403 page. */
export function requireAdmin(context: AppLoadContext, request: Request): SessionUser {
  const user = requireUser(context, request);
  if (user.adminNeedsTwoFactor) throw data({ message: messages.twoFactor.adminRequired }, { status: 403 });
  if (!user.isAdmin) throw data({ message: messages.auth.forbidden }, { status: 403 });
  return user;
}

/** A redirect that tells the browser what an account action did to its session, and optionally a toast for the next page. */
export function redirectWithSession(context: AppLoadContext, to: string, session: SessionOutcome, flash?: FlashKey): Promise<Response> {
  return redirectWithCookies(context, to, context.sessionCookies.write(session), flash);
}

/** A redirect carrying the given Set-Cookie headers, and optionally a toast for the next page. */
export async function redirectWithCookies(context: AppLoadContext, to: string, setCookies: string[], flash?: FlashKey): Promise<Response> {
  const headers = new Headers();
  for (const cookie of setCookies) headers.append("Set-Cookie", cookie);
  if (flash) headers.append("Set-Cookie", await setFlash(context, flash));
  return redirect(to, { headers });
}
