import type { Context } from "hono";
import { createRequestHandler, type ServerBuild } from "react-router";
import type { AppEnv } from "./app-env.ts";
import type { PublicShopConfig } from "./config.ts";
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
    return handle(c.req.raw, {
      services: c.get("services"),
      shop,
      cspNonce: c.get("secureHeadersNonce") ?? "",
      clientIp: clientIp(c),
      log: c.get("log"),
      user: await currentUser(c),
      request: requestContext(c),
      sessionCookies: sessions.cookies,
    });
  };
}
