import { APIError, isAPIError, sendVerificationEmailFn } from "better-auth/api";
import { accountAtAddress, authRateRules, CLIENT_IP_HEADER } from "./auth-rules.ts";
import { mayMail, undoSignInFailure } from "./hook-limits.ts";
import type { AuthHookContext, AuthHooksContext } from "./hooks-context.ts";
import { sendPasswordChangedMail } from "./mail-senders.ts";
import { emailOf, giveNewUserRole, hasErrorCode } from "./request-rules.ts";
import { afterSecondFactor } from "./second-factor-hooks.ts";

/**
 * Set to false on an EMAIL_NOT_VERIFIED refusal when no new verification link was sent (the per-address limit held it
 * back), so that the refusal does not say one was.
 */
export const NEW_LINK_SENT = "newLinkSent";

/** After an auth endpoint answered: what its answer says about the limits, the log and the mails. */
export async function afterAuthHook(ctx: AuthHooksContext, request: AuthHookContext) {
  if (request.path === "/sign-up/email") {
    giveNewUserRole(request.context.returned);
    return;
  }
  const ip = request.headers?.get(CLIENT_IP_HEADER) ?? "unknown";
  if (request.path === "/change-password") await afterPasswordChange(ctx, request, ip);
  else if (request.path === "/sign-in/email") await afterSignIn(ctx, request, ip);
  else await afterSecondFactor(ctx, request, ip);
}

async function afterPasswordChange(ctx: AuthHooksContext, request: AuthHookContext, ip: string) {
  const userId = request.context.session?.user.id;
  if (!userId) return;
  // Only a wrong current password is a failed guess; anything else (success, a too-short new one) is not.
  if (hasErrorCode(request.context.returned, "INVALID_PASSWORD")) {
    ctx.events.warn("password-change.failed", { accountId: userId, reason: "wrong current password" });
  } else {
    if (!isAPIError(request.context.returned)) await sendPasswordChangedMail(ctx, request.context.session!.user);
    await ctx.rateLimiter.undo(authRateRules.passwordFailuresPerIp, ip);
    await ctx.rateLimiter.undo(authRateRules.changePasswordFailuresPerAccount, userId);
  }
}

async function afterSignIn(ctx: AuthHooksContext, request: AuthHookContext, ip: string) {
  const returned = request.context.returned;
  const email = emailOf((request.body ?? {}) as Record<string, unknown>);
  const unverified = hasErrorCode(returned, "EMAIL_NOT_VERIFIED");
  // Only a 401 is a wrong password. Anything else was no failed guess, and the attempt counted above is
  // given back: the password was right (signed in, or refused as unverified), or none was checked (a body
  // the endpoint refused as malformed, such as a password that is not a string).
  if (isAPIError(returned) && returned.statusCode === 401) {
    const found = await request.context.internalAdapter.findUserByEmail(email);
    ctx.events.warn("sign-in.failed", { accountId: found?.user.id ?? null, email, reason: found ? "wrong password" : "no such account" });
  } else {
    await undoSignInFailure(ctx, email, ip);
  }
  // Better Auth's own resend on sign-in (sendOnSignIn), within the per-address limit on verification mails.
  if (!unverified) return;
  if (
    (await ctx.rateLimiter.tryHit(authRateRules.verificationPerEmail, accountAtAddress(email, ip))) &&
    (await mayMail(ctx, authRateRules.verificationMailsPerEmail, email))
  ) {
    const found = await request.context.internalAdapter.findUserByEmail(email);
    if (found) await sendVerificationEmailFn(request, found.user);
  } else {
    // The refusal must not say a new link went out when the limit held it back.
    throw new APIError("FORBIDDEN", { code: "EMAIL_NOT_VERIFIED", message: "Email not verified", [NEW_LINK_SENT]: false });
  }
}
