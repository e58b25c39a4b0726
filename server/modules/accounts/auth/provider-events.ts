import type { Kysely } from "kysely";
import type { DB } from "../../../platform/db/schema.ts";
import type { SessionCaller } from "../../../platform/session-user.ts";
import { recordSecurityEvent } from "../security-events.ts";
import type { AuthHooksContext } from "./hooks-context.ts";
import type { ProviderLinkOrigin } from "./provider-accounts.ts";

// The account's activity log for its sign-in methods: a provider linked (at a sign-in or from the sign-in methods
// page) or removed, named as people see it ("Google", or OIDC_NAME).

const nameOf = (providers: AuthHooksContext["signInProviders"], id: string) => providers.find((provider) => provider.id === id)?.name ?? id;

export async function recordProviderLinked(
  ctx: Pick<AuthHooksContext, "database" | "signInProviders">,
  link: { userId: string; providerId: string },
  origin: ProviderLinkOrigin,
): Promise<void> {
  await recordSecurityEvent(ctx.database.db, { userId: link.userId, kind: "provider-linked", method: nameOf(ctx.signInProviders, link.providerId), ...origin });
}

export async function recordProviderUnlinked(db: Kysely<DB>, event: { userId: string; method: string }, caller: SessionCaller): Promise<void> {
  await recordSecurityEvent(db, { ...event, kind: "provider-unlinked", ip: caller.clientIp, userAgent: caller.userAgent ?? null });
}
