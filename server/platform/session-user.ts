import type { z } from "zod";
import type { sessionUserSchema } from "#common/accounts/account-schemas.ts";

/** The session cookie's name; over https it carries the `__Host-` prefix. Here because the request context
 * looks for it before asking the accounts module who the person is. */
export const SESSION_COOKIE = "plant-shop.session_token";

/** The signed-in person as every service sees them (and GET /api/me answers). */
export type SessionUser = z.infer<typeof sessionUserSchema>;

/** Who is asking: the person (if signed in) and the request that carries their cookies. */
export interface RequestContext {
  headers: Headers;
  clientIp: string | null;
}
