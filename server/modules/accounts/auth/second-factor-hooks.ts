import { isAPIError } from "better-auth/api";
import { accountAtAddress, authRateRules } from "./auth-rules.ts";
import { limit, mayMail } from "./hook-limits.ts";
import { signedInUserId } from "./hook-sessions.ts";
import type { AuthHookContext, AuthHooksContext } from "./hooks-context.ts";
import { emailOf } from "./request-rules.ts";

// Our limits and records around Better Auth's two-factor and magic-link endpoints (second-factor.ts): wrong codes are
// limited as wrong passwords are, and sign-in links as reset links are.

type HookDeps = Pick<AuthHooksContext, "rateLimiter" | "database" | "sessionCookie" | "secret" | "events">;

/** Better Auth's answer to a sign-in link request, whether or not a mail went out (no account enumeration). */
const LINK_REQUESTED = { status: true };

export const SECOND_FACTOR_PATHS = new Set(["/two-factor/verify-totp", "/two-factor/verify-backup-code"]);

/**
 * The account a code is given for: the one waiting for its second factor (the plugin's signed cookie, set after the
 * password or link), or the signed-in one confirming its authenticator app.
 */
export async function secondFactorAccount(ctx: HookDeps, request: AuthHookContext): Promise<string | undefined> {
  const pending = await request.getSignedCookie(request.context.createAuthCookie("two_factor").name, request.context.secret);
  if (pending) {
    const found = await request.context.internalAdapter.findVerificationValue(pending);
    if (found) return found.value;
  }
  return signedInUserId(ctx, request);
}

/** Before: a code counts as wrong until it is found right, so parallel guesses cannot all slip under the limits. */
export async function beforeSecondFactor(ctx: HookDeps, request: AuthHookContext, ip: string) {
  if (SECOND_FACTOR_PATHS.has(request.path)) {
    const accountId = await secondFactorAccount(ctx, request);
    // Without an account waiting or signed in, the endpoint refuses by itself, checking no code.
    if (!accountId) return undefined;
    await limit(ctx, authRateRules.secondFactorFailuresPerIp, ip);
    await limit(ctx, authRateRules.secondFactorFailuresPerAccount, accountAtAddress(accountId, ip));
    return undefined;
  }
  if (request.path === "/sign-in/magic-link") {
    const email = emailOf((request.body ?? {}) as Record<string, unknown>);
    await limit(ctx, authRateRules.magicLinkPerIp, ip);
    await limit(ctx, authRateRules.magicLinkPerEmail, accountAtAddress(email, ip));
    // The mailbox's own cap answers as if a mail went out: the links it got in the window still work.
    if (!(await mayMail(ctx, authRateRules.magicLinkMailsPerEmail, email))) return request.json(LINK_REQUESTED);
  }
  return undefined;
}

/** What a code's check turned out to be: a wrong code stays counted; anything else is given back. */
export async function afterSecondFactor(ctx: HookDeps, request: AuthHookContext, ip: string): Promise<SecondFactorOutcome | undefined> {
  if (!SECOND_FACTOR_PATHS.has(request.path)) return undefined;
  const accountId = await secondFactorAccount(ctx, request);
  const returned = request.context.returned;
  const wrong = isAPIError(returned) && returned.statusCode === 401 && ["INVALID_CODE", "INVALID_BACKUP_CODE"].includes(codeOf(returned));
  const recovery = request.path === "/two-factor/verify-backup-code";
  if (wrong) {
    ctx.events.warn("sign-in.failed", { accountId: accountId ?? null, reason: recovery ? "wrong recovery code" : "wrong authenticator code" });
    return accountId ? { accountId, kind: "wrong-code", recovery } : undefined;
  }
  await ctx.rateLimiter.undo(authRateRules.secondFactorFailuresPerIp, ip);
  const userId = accountId ?? request.context.newSession?.user.id;
  if (userId) await ctx.rateLimiter.undo(authRateRules.secondFactorFailuresPerAccount, accountAtAddress(userId, ip));
  if (!isAPIError(returned) && userId) return { accountId: userId, kind: "accepted", recovery };
  return undefined;
}

export interface SecondFactorOutcome {
  accountId: string;
  kind: "wrong-code" | "accepted";
  recovery: boolean;
}

const codeOf = (error: { body?: unknown }) => String((error.body as { code?: unknown } | undefined)?.code ?? "");
