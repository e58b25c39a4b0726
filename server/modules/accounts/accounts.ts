import type { Database } from "../../platform/db/client.ts";
import type { EventLog } from "../../platform/event-log.ts";
import type { RateLimiter } from "../../platform/rate-limit/rate-limit.ts";
import type { SessionCaller, SessionOutcome, SessionUser } from "../../platform/session-user.ts";
import type { Auth } from "./auth/auth.ts";
import type { AccountPolicy } from "./account-records.ts";
import { accountsContext } from "./accounts-context.ts";
import type { AccountChangesDependencies } from "./account-changes-context.ts";
import { deleteAccount } from "./account-deletion.ts";
import { confirmEmailChange, readEmailChangeLink, requestEmailChange } from "./email-change.ts";
import { ownerProofOf, type OwnerProof } from "./owner-proof.ts";
import { ensureAdmin, setAdmin } from "./admin-accounts.ts";
import { endOtherSessions, endSession, securityOverview, type SecurityOverview } from "./account-sessions.ts";
import { changePassword, isResetLinkValid, requestPasswordReset, resetPassword } from "./passwords.ts";
import { register } from "./registration.ts";
import { getSession, liveSessionUser, signIn, signOut } from "./sessions.ts";
import { followSignInLink, requestSignInLink } from "./sign-in-links.ts";
import { beginTwoFactor, confirmTwoFactor, isTwoFactorOn, setupView, turnOffTwoFactor, verifySecondFactor, type SignInOutcome, type TwoFactorSetup } from "./two-factor.ts";
import { resendVerification, verifyEmail, type VerificationOutcome } from "./verification.ts";
import type { SignInProvider } from "./auth/sign-in-providers.ts";
import * as signInMethods from "./sign-in-methods.ts";

export type { VerificationOutcome } from "./verification.ts";
export type { SignInOutcome, TwoFactorSetup } from "./two-factor.ts";
export type { AccountSession, ActivityEntry, SecurityOverview } from "./account-sessions.ts";
export { toSessionUser, type AccountPolicy } from "./account-records.ts";

// Accounts on top of Better Auth: pages and API handlers call these, never the auth library directly, so every
// path gets the same validation, limits and messages. Each operation lives in its own file (sessions and sign-in
// in sessions.ts, sign-up in registration.ts, e-mail verification in verification.ts, resets and changes of
// password in passwords.ts, the admin role in admin-accounts.ts; the translation to and from Better Auth's HTTP
// in auth-calls.ts; changing the address in email-change.ts and deleting the account in account-deletion.ts, both
// proven as owner-proof.ts says) and is bound here, once, to the dependencies it is given.

export type AccountsService = ReturnType<typeof createAccountsService>;

export function createAccountsService(
  auth: Auth,
  database: Pick<Database, "db" | "dialect">,
  events: EventLog,
  rateLimiter: RateLimiter,
  changeDependencies: AccountChangesDependencies,
  signInProviders: readonly SignInProvider[] = [],
  policy?: AccountPolicy,
) {
  const ctx = accountsContext(auth, database, events, rateLimiter, signInProviders, policy);
  const changesCtx = { ...ctx, ...changeDependencies };
  return {
    getSession: (caller: SessionCaller): Promise<{ user: SessionUser | null; session: SessionOutcome }> => getSession(ctx, caller),
    /** The holder of a live session that needs no change, else undefined (then getSession decides). */
    liveSessionUser: (caller: SessionCaller): Promise<SessionUser | undefined> => liveSessionUser(ctx, caller),
    register: (input: unknown, caller: SessionCaller): Promise<{ email: string; accountId: string | null }> => register(ctx, input, caller),
    signIn: (input: unknown, caller: SessionCaller, browserCookies: string | null = null): Promise<SignInOutcome> => signIn(ctx, input, caller, browserCookies),
    signOut: (caller: SessionCaller): Promise<{ session: SessionOutcome }> => signOut(ctx, caller),
    verifyEmail: (input: { token: unknown; password?: unknown; signedUpAs?: string | null }, caller: SessionCaller): Promise<VerificationOutcome> =>
      verifyEmail(ctx, input, caller),
    resendVerification: (input: unknown, caller: SessionCaller): Promise<void> => resendVerification(ctx, input, caller),
    requestPasswordReset: (input: unknown, caller: SessionCaller): Promise<void> => requestPasswordReset(ctx, input, caller),
    isResetLinkValid: (token: string | null): Promise<boolean> => isResetLinkValid(ctx, token),
    resetPassword: (input: unknown, caller: SessionCaller): Promise<void> => resetPassword(ctx, input, caller),
    changePassword: (input: unknown, caller: SessionCaller): Promise<{ session: SessionOutcome }> => changePassword(ctx, input, caller),
    ensureAdmin: (admin: { email: string; password: string }): Promise<"created" | "promoted"> => ensureAdmin(ctx, admin),
    setAdmin: (email: string, isAdmin: boolean): Promise<void> => setAdmin(ctx, email, isAdmin),
    securityOverview: (viewer: SessionUser | null, caller: SessionCaller): Promise<SecurityOverview> => securityOverview(ctx, viewer, caller),
    endSession: (viewer: SessionUser | null, caller: SessionCaller, input: unknown): Promise<{ device: string }> => endSession(ctx, viewer, caller, input),
    endOtherSessions: (viewer: SessionUser | null, caller: SessionCaller): Promise<{ ended: number }> => endOtherSessions(ctx, viewer, caller),
    isTwoFactorOn: (viewer: SessionUser): Promise<boolean> => isTwoFactorOn(ctx, viewer.id),
    twoFactorSetupView: (otpauthUri: string): Promise<Omit<TwoFactorSetup, "recoveryCodes">> => setupView(otpauthUri),
    beginTwoFactor: (viewer: SessionUser | null, input: unknown, caller: SessionCaller): Promise<TwoFactorSetup> => beginTwoFactor(ctx, viewer, input, caller),
    confirmTwoFactor: (viewer: SessionUser | null, input: unknown, caller: SessionCaller): Promise<{ session: SessionOutcome }> => confirmTwoFactor(ctx, viewer, input, caller),
    turnOffTwoFactor: (viewer: SessionUser | null, input: unknown, caller: SessionCaller, browserCookies: string | null): Promise<{ session: SessionOutcome; setCookies: string[] }> =>
      turnOffTwoFactor(ctx, viewer, input, caller, browserCookies),
    verifySecondFactor: (input: unknown, caller: SessionCaller, browserCookies: string | null): Promise<SignInOutcome> => verifySecondFactor(ctx, input, caller, browserCookies),
    requestSignInLink: (input: unknown, caller: SessionCaller): Promise<void> => requestSignInLink(ctx, input, caller),
    followSignInLink: (input: unknown, caller: SessionCaller, browserCookies: string | null): Promise<SignInOutcome> => followSignInLink(ctx, input, caller, browserCookies),
    ownerProof: (viewer: SessionUser, caller: SessionCaller): Promise<OwnerProof> => ownerProofOf(ctx, viewer.id, caller),
    requestEmailChange: (viewer: SessionUser | null, input: unknown, caller: SessionCaller) => requestEmailChange(changesCtx, viewer, input, caller),
    readEmailChangeLink: (input: unknown) => readEmailChangeLink(ctx, input),
    confirmEmailChange: (viewer: SessionUser | null, input: unknown, caller: SessionCaller) => confirmEmailChange(changesCtx, viewer, input, caller),
    deleteAccount: (viewer: SessionUser | null, input: unknown, caller: SessionCaller) => deleteAccount(changesCtx, viewer, input, caller),
    // Sign-in with an OpenID Connect provider and the account's sign-in methods (sign-in-methods.ts).
    signInProviders: (): { id: string; name: string }[] => signInProviders.map(({ id, name }) => ({ id, name })),
    startProviderSignIn: (input: unknown, redirectTo: string, caller: SessionCaller) => signInMethods.startProviderSignIn(ctx, input, redirectTo, caller),
    signInErrorMessage: (providerId: string | null, error: string) => signInMethods.signInErrorMessage(signInProviders, providerId, error),
    chooseUsername: (user: SessionUser, input: unknown) => signInMethods.chooseUsername(ctx, user, input),
    listSignInMethods: (user: SessionUser) => signInMethods.listSignInMethods(ctx, user),
    startProviderLink: (input: unknown, caller: SessionCaller) => signInMethods.startProviderLink(ctx, input, caller),
    linkErrorMessage: (providerId: string | null, error: string) => signInMethods.linkErrorMessage(signInProviders, providerId, error),
    providerName: (providerId: string) => signInMethods.providerName(signInProviders, providerId),
    removeProvider: (user: SessionUser, input: unknown, caller: SessionCaller) => signInMethods.removeProvider(ctx, user, input, caller),
  };
}
