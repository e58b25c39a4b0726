import type { Context } from "hono";
import type { RequestContext, SessionUser } from "../services/session-user.ts";
import { clientIp } from "./client-ip.ts";
import type { AppEnv } from "./env.ts";

export function requestContext(c: Context<AppEnv>): RequestContext {
  return { headers: c.req.raw.headers, clientIp: clientIp(c) };
}

/** The signed-in person of this request, looked up once. */
export async function currentUser(c: Context<AppEnv>): Promise<SessionUser | null> {
  if (c.var.user === undefined) c.set("user", await c.var.services.accounts.getSession(requestContext(c)));
  return c.var.user ?? null;
}
