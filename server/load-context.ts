import type { Logger } from "pino";
import type { PublicShopConfig } from "./config.ts";
import type { Services } from "./create-services.ts";
import type { SessionCookies } from "./platform/http/session-cookie.ts";
import type { Sealer } from "./platform/sealed-values.ts";
import type { VisitorCartOfRequest } from "./modules/cart/index.ts";
import type { SessionCaller, SessionUser } from "./platform/session-user.ts";

// What React Router loaders and actions receive as `context` (built in ./pages.ts).
declare module "react-router" {
  interface AppLoadContext {
    /** The domain services (decision 003). */
    services: Services;
    /** Seals what the pages keep in their own cookies (the address awaiting verification). */
    sealer: Sealer;
    shop: PublicShopConfig;
    cspNonce: string;
    clientIp: string | null;
    /** The request's logger (its lines carry the request id). */
    log: Logger;
    /** Logs what a loader or action threw, at error or warning once the answer's status says whose fault it was. */
    reportError: (error: unknown) => void;
    /** The signed-in person, looked up once per request before any loader runs; null in a shared render. */
    user: SessionUser | null;
    /**
     * The page is rendered once for every signed-in shopper (docs/decisions/045): loaders read nothing of the
     * person (`user` is null) but show what any signed-in shopper sees; the person's parts are filled in later.
     */
    sharedWithShoppers: boolean;
    /** Who is asking (address, session credential, browser), for services that act on the person's session. */
    request: SessionCaller;
    /** Turns what an account action did to the session into the response's Set-Cookie headers. */
    sessionCookies: SessionCookies;
    /** The visitor's cart token (signed out), how to write what became of it, and a sign-in's merge notice. */
    visitorCart: VisitorCartOfRequest;
  }
}

export type { AppLoadContext as ShopLoadContext } from "react-router";
