import { data, redirect, type AppLoadContext } from "react-router";
import { messages } from "#common/messages.ts";
import type { SessionUser } from "../../server/services/session-user.ts";
import { setFlash, type FlashKey } from "./flash.ts";

/** Only a path on this site may be a destination after login (no //other.site, no https://…). */
export function safeRedirectTo(value: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  return typeof value === "string" && value.startsWith("/") && !value.startsWith("//") && !value.startsWith("/\\") ? value : fallback;
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
  if (!user.isAdmin) throw data({ message: messages.auth.forbidden }, { status: 403 });
  return user;
}

/** A redirect carrying the cookies the auth library set, and optionally a toast for the next page. */
export async function redirectWithCookies(to: string, setCookies: string[], flash?: FlashKey): Promise<Response> {
  const headers = new Headers();
  for (const cookie of setCookies) headers.append("Set-Cookie", cookie);
  if (flash) headers.append("Set-Cookie", await setFlash(flash));
  return redirect(to, { headers });
}
