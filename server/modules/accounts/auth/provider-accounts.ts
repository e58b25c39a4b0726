import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthMiddleware } from "better-auth/api";
import type { RateRule } from "../../../platform/rate-limit/rate-limit.ts";
import { CLIENT_IP_HEADER } from "./auth-rules.ts";
import { limit } from "./hook-limits.ts";
import type { AuthHooksContext } from "./hooks-context.ts";
import { PROVIDER_CALLBACK_PATH, withoutProviderTokens } from "./sign-in-providers.ts";

/** Who asked, as a Better Auth endpoint saw it: for the account's activity log. */
export interface ProviderLinkOrigin {
  ip: string | null;
  userAgent: string | null;
}

/** A provider account newly added to an account that already had a way in (a password or another provider). */
export type OnProviderLinked = (link: { userId: string; providerId: string }, origin: ProviderLinkOrigin) => Promise<void>;

interface EndpointContext {
  headers?: Headers | undefined;
  request?: Request | undefined;
}

/**
 * The shop's rules around the provider sign-ins Better Auth runs (docs/decisions/039):
 * - a first sign-in makes an account only for an address the provider has verified;
 * - a sign-in or link is started by the redirect flow only, a limited number of times per address: an ID token posted straight to /sign-in/social or
 *   /link-social is refused, as that path skips the state and nonce that bind a provider's answer to this browser;
 * - provider tokens are never stored (the shop calls no provider API);
 * - a provider account added to an existing account is reported (`onLinked`), wherever it was linked: at a sign-in
 *   whose verified e-mail matched, or from the sign-in methods page.
 */
/**
 * Sign-ins and links started with a provider, per address: each stores a state row until it is used or expires, so
 * a script must not be able to start them without end (scaled by RATE_LIMIT_SCALE like every limit).
 */
export const providerStartsPerIp: RateRule = { name: "provider-starts-ip", limit: 30, windowMs: 60_000, message: "Too many sign-ins with a provider." };

export function providerAccounts(ctx: Pick<AuthHooksContext, "database" | "rateLimiter">, onLinked: OnProviderLinked): BetterAuthPlugin {
  const { db } = ctx.database;
  return {
    id: "plant-shop-provider-accounts",
    init: () => ({
      options: {
        databaseHooks: {
          user: {
            create: {
              // A provider that has not verified the address makes no account: the shop's accounts act only with a
              // proven address (decision 008), such an account would have no password to prove it with on /verify,
              // and it would hold the address for whoever owns that provider account against the address's owner.
              before: async (user, context) => (context?.path === PROVIDER_CALLBACK_PATH && !user.emailVerified ? false : undefined),
            },
          },
          account: {
            create: {
              before: async (account) => ({ data: withoutProviderTokens(account) }),
              after: async (account, context) => {
                if (account.providerId === "credential") return;
                // An account made by this very sign-in has no other way in: that is a new account, not a link.
                const others = await db.selectFrom("accounts").select("id").where("userId", "=", account.userId).where("id", "!=", account.id).executeTakeFirst();
                if (others) await onLinked({ userId: account.userId, providerId: account.providerId }, originOf(context));
              },
            },
            update: { before: async (account) => ({ data: withoutProviderTokens(account) }) },
          },
        },
      },
    }),
    hooks: {
      before: [
        {
          matcher: (context) => context.path === "/sign-in/social" || context.path === "/link-social",
          handler: createAuthMiddleware(async (request) => {
            const body = (request.body ?? {}) as Record<string, unknown>;
            if (body.idToken !== undefined) throw new APIError("BAD_REQUEST", { message: "Sign in through the provider's page.", code: "ID_TOKEN_NOT_ACCEPTED" });
            await limit(ctx, providerStartsPerIp, request.headers?.get(CLIENT_IP_HEADER) ?? "unknown");
          }),
        },
      ],
    },
  };
}

function originOf(context: EndpointContext | null | undefined): ProviderLinkOrigin {
  const headers = context?.headers ?? context?.request?.headers;
  return { ip: headers?.get(CLIENT_IP_HEADER) ?? null, userAgent: headers?.get("user-agent") ?? null };
}
