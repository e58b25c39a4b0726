import type { AuthContext } from "better-auth";
import type { createAuthMiddleware } from "better-auth/api";
import type { Logger } from "pino";
import type { Database } from "../../../platform/db/client.ts";
import type { EventLog } from "../../../platform/event-log.ts";
import type { MailOutbox } from "../../../platform/mail/mail-outbox.ts";
import type { RateLimiter } from "../../../platform/rate-limit/rate-limit.ts";
import type { SignInProvider } from "./sign-in-providers.ts";

export interface AuthDependencies {
  database: Pick<Database, "db" | "dialect">;
  publicUrl: URL;
  secret: string;
  shopName: string;
  outbox: MailOutbox;
  rateLimiter: RateLimiter;
  logger: Logger;
  events: EventLog;
  /** The OpenID Connect providers shoppers may sign in with (none: the buttons and the return address are absent). */
  signInProviders: readonly SignInProvider[];
}

/**
 * What the hooks and senders given to Better Auth may use, made once by createAuth: each names the part it uses (a
 * `Pick` of this). The library's instance is reached through functions, called only once it exists.
 */
export interface AuthHooksContext extends AuthDependencies {
  /** The session cookie's name, as createAuth gives it to the library. */
  sessionCookie: string;
  authContext(): Promise<AuthAdapters>;
  /** Mails a sign-in code to the account of `email` (the emailOTP plugin's, its endpoint closed). */
  sendSignInCode(email: string): Promise<unknown>;
  /** Checks a sign-in code of the account of `email`; throws when it is wrong, used up or expired. */
  checkSignInCode(email: string, otp: string): Promise<unknown>;
}

/** What the hooks use of the library's context outside an endpoint: its adapters. */
export type AuthAdapters = Pick<AuthContext, "internalAdapter"> & { adapter: Pick<AuthContext["adapter"], "deleteMany"> };

/** What a hook is given: the endpoint's context, with the library's adapter and password hasher. */
export type AuthHookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];
