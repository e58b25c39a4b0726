import { Hono } from "hono";
import { CLIENT_IP_HEADER } from "./auth/auth-rules.ts";
import { clientIp } from "../../platform/http/client-ip.ts";
import type { AppEnv } from "../../app-env.ts";

/** Better Auth's own endpoints under /api/auth, told the connection's address (a client cannot set it). */
export const authApi = new Hono<AppEnv>().all("/*", async (c) => {
  const headers = new Headers(c.req.raw.headers);
  headers.set(CLIENT_IP_HEADER, clientIp(c) ?? "unknown");
  const request = new Request(c.req.raw, { headers });
  return c.var.services.authHandler(request);
});
