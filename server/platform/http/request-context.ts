import type { Context, MiddlewareHandler } from "hono";
import { currentRequestScope } from "../event-log.ts";
import { SESSION_COOKIE, type RequestContext, type SessionUser } from "../session-user.ts";
import { clientIp } from "./client-ip.ts";
import type { AppEnv } from "../../app-env.ts";

export function requestContext(c: Context<AppEnv>): RequestContext {
  return { headers: c.req.raw.headers, clientIp: clientIp(c) };
}

/** The signed-in person of this request, looked up once. */
export async function currentUser(c: Context<AppEnv>): Promise<SessionUser | null> {
  if (c.var.user === undefined) {
    const { user, setCookies } = await c.var.services.accounts.getSession(requestContext(c));
    c.set("user", user);
    c.set("sessionCookies", setCookies);
    // Events logged from here on name the account.
    const scope = currentRequestScope();
    if (scope) scope.accountId = user?.id ?? null;
  }
  return c.var.user ?? null;
}

/**
 * Passes on the session cookie the lookup above refreshed (its Max-Age slides with the session), unless the
 * response sets the session cookie itself: a login, logout or password change has the last word.
 */
export const passOnSessionCookies: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  const refreshed = c.var.sessionCookies ?? [];
  if (!refreshed.length || c.res.headers.getSetCookie().some(isSessionCookie)) return;
  for (const cookie of refreshed) c.res.headers.append("Set-Cookie", cookie);
};

const isSessionCookie = (cookie: string) => cookie.startsWith(`${SESSION_COOKIE}=`) || cookie.startsWith(`__Host-${SESSION_COOKIE}=`);
