import type { Kysely } from "kysely";
import type { Database, Dialect } from "../../platform/db/client.ts";
import type { DB } from "../../platform/db/schema.ts";
import type { EventLog } from "../../platform/event-log.ts";
import type { RateLimiter } from "../../platform/rate-limit/rate-limit.ts";
import type { Auth } from "./auth/auth.ts";
import type { SignInProvider } from "./auth/sign-in-providers.ts";
import type { AccountPolicy } from "./account-records.ts";

/**
 * What every operation of the accounts service may use, made once per service: each operation names the part it
 * uses (a `Pick` of this), so a reader sees what it touches.
 */
export interface AccountsContext {
  auth: Auth;
  db: Kysely<DB>;
  dialect: Dialect;
  events: EventLog;
  rateLimiter: RateLimiter;
  /** The OpenID Connect providers shoppers may sign in with (docs/decisions/039). */
  signInProviders: readonly SignInProvider[];
  policy: AccountPolicy;
}

export function accountsContext(
  auth: Auth,
  { db, dialect }: Pick<Database, "db" | "dialect">,
  events: EventLog,
  rateLimiter: RateLimiter,
  signInProviders: readonly SignInProvider[] = [],
  policy: AccountPolicy = { requireAdminTwoFactor: false },
): AccountsContext {
  return { auth, db, dialect, events, rateLimiter, signInProviders, policy };
}
