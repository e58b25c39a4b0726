import type { Context, MiddlewareHandler } from "hono";
import { currentRequestScope } from "../event-log.ts";
import type { SessionCaller, SessionUser } from "../session-user.ts";
import { clientIp } from "./client-ip.ts";
import { platformContext, type PlatformEnv, type SessionLookup } from "./http-env.ts";
import type { SessionCookies } from "./session-cookie.ts";

/**
 * Sessions in HTTP terms for every request: the credential is read from the request's cookie, looked up with
 * `lookUp` when a handler asks who is asking (currentUser), and a session the lookup slid is passed on as a cookie,
 * unless the response sets the session cookie itself: a login, logout or password change has the last word.
 */
export function sessions(cookies: SessionCookies, lookUp: SessionLookup): MiddlewareHandler<PlatformEnv> {
  return async (c, next) => {
    c.set("sessions", { cookies, lookUp });
    await next();
    const refreshed = cookies.write(c.get("sessionOutcome") ?? { kind: "unchanged" });
    if (!refreshed.length || c.res.headers.getSetCookie().some(cookies.isSessionCookie)) return;
    for (const cookie of refreshed) c.res.headers.append("Set-Cookie", cookie);
  };
}

/** Who is asking, in the terms services take: address, session credential, browser. */
export function requestContext<E extends PlatformEnv>(context: Context<E>): SessionCaller {
  const c = platformContext(context);
  const cookies = c.get("sessions")?.cookies;
  return {
    clientIp: clientIp(c),
    sessionCredential: cookies?.read(c.req.raw.headers) ?? null,
    userAgent: c.req.header("user-agent") ?? null,
    forgetOnClose: cookies?.readForgetOnClose(c.req.raw.headers) ?? null,
  };
}

/** The signed-in person of this request, looked up once. */
export async function currentUser<E extends PlatformEnv>(context: Context<E>): Promise<SessionUser | null> {
  const c = platformContext(context);
  if (c.get("user") === undefined) {
    const sessions = c.get("sessions");
    if (!sessions) throw new Error("currentUser() needs the sessions() middleware in front of it");
    const caller = requestContext(c);
    const { user, session } = caller.sessionCredential ? await sessions.lookUp(caller) : { user: null, session: undefined };
    c.set("user", user);
    c.set("sessionOutcome", session);
    // Events logged from here on name the account.
    const scope = currentRequestScope();
    if (scope) scope.accountId = user?.id ?? null;
  }
  return c.get("user") ?? null;
}
