import type { HttpBindings } from "@hono/node-server";
import type { Logger } from "pino";
import type { Services } from "./create-services.ts";
import type { SessionUser } from "./platform/session-user.ts";

/** What every request handler can read from its Hono context. */
export interface AppEnv {
  Bindings: Partial<HttpBindings>;
  Variables: {
    services: Services;
    log: Logger;
    requestId: string;
    secureHeadersNonce?: string;
    /** Set by resolveClientIp() for every request. */
    clientIp?: string | null;
    /** Set by currentUser() on first use; undefined until then. */
    user?: SessionUser | null;
    /** Set-Cookie headers of that lookup (a slid session), for passOnSessionCookies(). */
    sessionCookies?: string[];
  };
}
