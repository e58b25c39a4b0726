import type { BetterAuthPlugin } from "better-auth";
import { createAuthMiddleware, isAPIError } from "better-auth/api";
import { tryGetCurrentAuthEndpointContext } from "@better-auth/core/context";
import type { Kysely } from "kysely";
import type { DB } from "../../../platform/db/schema.ts";
import { recordSecurityEvent } from "../security-events.ts";
import { CLIENT_IP_HEADER } from "./auth-rules.ts";
import { emailOf } from "./request-rules.ts";
import { confirmsSecondFactorSetup } from "./second-factor-hooks.ts";

/** The method of a provider's sign-in: replaced by the provider's name (securityActivity's `providerNames`). */
const PROVIDER_SIGN_IN = "provider";

/**
 * How each way in reads in the account's activity list, by the endpoint (as Better Auth writes its path) that ends
 * with a new session. An endpoint missing here still records the sign-in, without saying how.
 */
export const SIGN_IN_METHODS: Record<string, string> = {
  "/sign-in/email": "password",
  // A provider's return address (docs/decisions/039): read as the provider's name, from the path's :id.
  "/callback/:id": PROVIDER_SIGN_IN,
  "/two-factor/verify-totp": "authenticator code",
  "/two-factor/verify-backup-code": "recovery code",
  "/magic-link/verify": "e-mailed link",
};

/** Endpoints that issue a new session to someone already signed in: no sign-in to record. */
const SESSION_RENEWALS = new Set(["/change-password", "/two-factor/disable"]);

/** Who is calling the auth endpoint running now: its address (set by our server, never the client) and browser. */
export function endpointCaller(headers?: Headers | null): { ip: string | null; userAgent: string | null } {
  const from = headers ?? tryGetCurrentAuthEndpointContext()?.headers ?? null;
  return { ip: from?.get(CLIENT_IP_HEADER) ?? null, userAgent: from?.get("user-agent") ?? null };
}

/**
 * Records the account's security events that every way in shares: a sign-in, a wrong password, a changed password.
 * A plugin, placed last among them, because plugins' after-hooks run after the shop's own and in the order
 * given: by then another plugin (two-factor) may have taken back the session of a sign-in that still needs a
 * second factor, and only sign-ins that ended with a session are recorded. Other events are recorded by the code
 * that makes them (recordSecurityEvent).
 */
export function securityActivity(db: Kysely<DB>, providerNames: Record<string, string> = {}) {
  return {
    id: "security-activity",
    hooks: {
      after: [
        {
          matcher: () => true,
          handler: createAuthMiddleware(async (ctx) => {
            const caller = endpointCaller(ctx.headers);
            const returned = ctx.context.returned;
            const newSession = ctx.context.newSession;
            // A provider's return address ends by redirecting (an APIError of status 302), also when it signed in.
            const refused = isAPIError(returned) && returned.statusCode >= 400;
            if (newSession && !refused && !SESSION_RENEWALS.has(ctx.path) && !confirmsSecondFactorSetup(ctx.headers)) {
              const listed = SIGN_IN_METHODS[ctx.path] ?? null;
              const providerId = String((ctx.params as Record<string, unknown> | undefined)?.id ?? "");
              const method = listed === PROVIDER_SIGN_IN ? (providerNames[providerId] ?? providerId) : listed;
              await recordSecurityEvent(db, { userId: newSession.user.id, kind: "signed-in", method, ...caller });
            }
            if (ctx.path === "/sign-in/email" && isAPIError(returned) && returned.statusCode === 401) {
              const found = await ctx.context.internalAdapter.findUserByEmail(emailOf((ctx.body ?? {}) as Record<string, unknown>));
              if (found) await recordSecurityEvent(db, { userId: found.user.id, kind: "sign-in-failed", method: "password", ...caller });
            }
            if (ctx.path === "/change-password" && !isAPIError(returned) && ctx.context.session) {
              await recordSecurityEvent(db, { userId: ctx.context.session.user.id, kind: "password-changed", ...caller });
            }
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
