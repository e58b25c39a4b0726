import { isAPIError } from "better-auth/api";
import { accountAtAddress, authRateRules } from "./auth-rules.ts";
import { limit, mayMail } from "./hook-limits.ts";
import { signedInUserId } from "./hook-sessions.ts";
import type { AuthHookContext, AuthHooksContext } from "./hooks-context.ts";
import { emailOf } from "./request-rules.ts";
import { endpointCaller } from "./security-activity.ts";
import { recordSecurityEvent } from "../security-events.ts";

// Our limits and records around Better Auth's two-factor and magic-link endpoints (second-factor.ts): wrong codes are
// limited as wrong passwords are, and sign-in links as reset links are.

type HookDeps = Pick<AuthHooksContext, "rateLimiter" | "database" | "sessionCookie" | "secret" | "events">;

/** Better Auth's answer to a sign-in link request, whether or not a mail went out (no account enumeration). */
const LINK_REQUESTED = { status: true };

export const SECOND_FACTOR_PATHS = new Set(["/two-factor/verify-totp", "/two-factor/verify-backup-code"]);

/** Who a code was given for, found before the endpoint ran (it may consume the challenge or rotate the session). */
interface CodeCheck {
  accountId: string;
  /** True at a sign-in's second step; false when a signed-in owner confirms their app while turning it on. */
  signIn: boolean;
}

/** Keyed by the request's headers, the one object the library hands both to the before- and the after-hooks. */
const codeChecks = new WeakMap<Headers, CodeCheck>();

/** Whether this request was a signed-in owner's first code, which renews their session but is no sign-in. */
export function confirmsSecondFactorSetup(headers: Headers | undefined | null): boolean {
  return headers ? codeChecks.get(headers)?.signIn === false : false;
}

/**
 * The account a code is given for, found as the plugin finds it: the signed-in one confirming its authenticator
 * app, else the one waiting for its second factor (the plugin's signed cookie, set after the password or link).
 */
async function codeCheckOf(ctx: HookDeps, request: AuthHookContext): Promise<CodeCheck | undefined> {
  const signedIn = await signedInUserId(ctx, request);
  if (signedIn) return { accountId: signedIn, signIn: false };
  const pending = await request.getSignedCookie(request.context.createAuthCookie("two_factor").name, request.context.secret);
  const found = pending ? await request.context.internalAdapter.findVerificationValue(pending) : null;
  return found ? { accountId: found.value, signIn: true } : undefined;
}

/** Before: a code counts as wrong until it is found right, so parallel guesses cannot all slip under the limits. */
export async function beforeSecondFactor(ctx: HookDeps, request: AuthHookContext, ip: string) {
  if (SECOND_FACTOR_PATHS.has(request.path)) {
    const check = await codeCheckOf(ctx, request);
    // Without an account waiting or signed in, the endpoint refuses by itself, checking no code.
    if (!check) return undefined;
    if (request.headers) codeChecks.set(request.headers, check);
    await limit(ctx, authRateRules.secondFactorFailuresPerIp, ip);
    await limit(ctx, authRateRules.secondFactorFailuresPerAccount, accountAtAddress(check.accountId, ip));
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

/**
 * After: a wrong code stays counted and, at a sign-in, is a failed sign-in in the account's activity; anything else
 * is given back. A recovery code used, and two-factor turned on or off, are recorded in the activity too.
 */
export async function afterSecondFactor(ctx: HookDeps, request: AuthHookContext, ip: string) {
  const returned = request.context.returned;
  const caller = endpointCaller(request.headers);
  if (request.path === "/two-factor/disable") {
    const userId = request.context.session?.user.id;
    if (userId && !isAPIError(returned)) await recordSecurityEvent(ctx.database.db, { userId, kind: "two-factor-disabled", ...caller });
    return;
  }
  if (!SECOND_FACTOR_PATHS.has(request.path)) return;
  const check = request.headers ? codeChecks.get(request.headers) : undefined;
  if (!check) return;
  const recovery = request.path === "/two-factor/verify-backup-code";
  const wrong = isAPIError(returned) && returned.statusCode === 401 && ["INVALID_CODE", "INVALID_BACKUP_CODE"].includes(codeOf(returned));
  if (wrong) {
    if (check.signIn) {
      ctx.events.warn("sign-in.failed", { accountId: check.accountId, reason: recovery ? "wrong recovery code" : "wrong authenticator code" });
      const method = recovery ? "recovery code" : "authenticator code";
      await recordSecurityEvent(ctx.database.db, { userId: check.accountId, kind: "sign-in-failed", method, ...caller });
    }
    return;
  }
  await ctx.rateLimiter.undo(authRateRules.secondFactorFailuresPerIp, ip);
  await ctx.rateLimiter.undo(authRateRules.secondFactorFailuresPerAccount, accountAtAddress(check.accountId, ip));
  if (isAPIError(returned)) return;
  if (recovery) await recordSecurityEvent(ctx.database.db, { userId: check.accountId, kind: "recovery-code-used", ...caller });
  // The plugin issues a new session on a first code only when it turned two-factor on.
  else if (!check.signIn && request.context.newSession) await recordSecurityEvent(ctx.database.db, { userId: check.accountId, kind: "two-factor-enabled", ...caller });
}

const codeOf = (error: { body?: unknown }) => String((error.body as { code?: unknown } | undefined)?.code ?? "");
