import type { Logger } from "pino";
import type { PublicShopConfig } from "./config.ts";
import type { Services } from "./create-services.ts";
import type { RequestContext, SessionUser } from "./platform/session-user.ts";

// What React Router loaders and actions receive as `context` (built in ./pages.ts).
declare module "react-router" {
  interface AppLoadContext {
    services: Services;
    shop: PublicShopConfig;
    cspNonce: string;
    clientIp: string | null;
    /** The request's logger (its lines carry the request id). */
    log: Logger;
    /** The signed-in person, looked up once per request before any loader runs. */
    user: SessionUser | null;
    /** Headers and address of the request, for services that act on the person's session. */
    request: RequestContext;
  }
}

export type { AppLoadContext as ShopLoadContext } from "react-router";
