import { parseCookies } from "better-auth/cookies";
import type { Auth } from "./auth/auth.ts";

// Besides the session's, two cookies of Better Auth's two-factor plugin travel between the browser and the library
// when a page signs someone in: the pending second factor (set after the password or the e-mailed link, read when
// the code is given) and the trusted device (set when the code is given with "trust this device", read at the next
// sign-in). Pages pass the request's Cookie header in and the library's Set-Cookie headers for these two out,
// untouched: they are signed and set by the library, with its names and attributes.

const PLUGIN_COOKIES = ["two_factor", "trust_device"] as const;

async function pluginCookieNames(auth: Auth): Promise<string[]> {
  const context = await auth.$context;
  return PLUGIN_COOKIES.map((name) => context.createAuthCookie(name).name);
}

/** The request headers for the library, with the plugin's cookies the browser sent added to the session's. */
export async function withPluginCookies(auth: Auth, headers: Headers, browserCookies: string | null | undefined): Promise<Headers> {
  if (!browserCookies) return headers;
  const sent = parseCookies(browserCookies);
  const extra = (await pluginCookieNames(auth)).flatMap((name) => (sent.has(name) ? [`${name}=${encodeURIComponent(sent.get(name)!)}`] : []));
  if (!extra.length) return headers;
  const existing = headers.get("cookie");
  headers.set("cookie", [existing, ...extra].filter(Boolean).join("; "));
  return headers;
}

/** The Set-Cookie headers the library answered for the plugin's cookies, for the page to pass on as they are. */
export async function pluginCookiesSet(auth: Auth, responseHeaders: Headers): Promise<string[]> {
  const names = await pluginCookieNames(auth);
  return responseHeaders.getSetCookie().filter((cookie) => names.includes(cookie.slice(0, cookie.indexOf("=")).trim()));
}
