import type { Context } from "hono";
import { createRequestHandler, type ServerBuild } from "react-router";
import type { AppEnv } from "./app-env.ts";
import type { PublicShopConfig } from "./config.ts";
import { DATABASE_RETRY_AFTER_SECONDS } from "./platform/db/connection-loss.ts";
import { clientIp } from "./platform/http/client-ip.ts";
import { currentUser, requestContext } from "./platform/http/request-context.ts";

export type PageHandler = (c: Context<AppEnv>) => Promise<Response>;

/** Hands page requests to React Router, with the services and the response's CSP nonce as load context. */
export function createPageHandler(
  build: ServerBuild | (() => Promise<ServerBuild>),
  mode: "development" | "production",
  shop: PublicShopConfig,
): PageHandler {
  const handle = createRequestHandler(build, mode);
  return async (c) => {
    const sessions = c.get("sessions");
    if (!sessions) throw new Error("pages need the sessions() middleware in front of them");
    const response = await handle(c.req.raw, {
      services: c.get("services"),
      shop,
      cspNonce: c.get("secureHeadersNonce") ?? "",
      clientIp: clientIp(c),
      log: c.get("log"),
      user: await currentUser(c),
      request: requestContext(c),
      sessionCookies: sessions.cookies,
    });
    // A page that could not reach the database (app/entry.server.tsx) tells clients when to try again.
    if (response.status === 503 && !response.headers.has("Retry-After")) response.headers.set("Retry-After", String(DATABASE_RETRY_AFTER_SECONDS));
    return response;
  };
}
