import { accountAtAddress, authRateRules, CLIENT_IP_HEADER } from "./auth-rules.ts";
import { limit, mayMail } from "./hook-limits.ts";
import { expireOldSession, signedInUserId } from "./hook-sessions.ts";
import type { AuthHookContext, AuthHooksContext } from "./hooks-context.ts";
import { emailOf, isRecord, keepRegisterFields, refuseCommonPassword, refuseControlCharacters } from "./request-rules.ts";
import { beforeSecondFactor } from "./second-factor-hooks.ts";
import { requireSignInCode } from "./sign-in-guard.ts";

/** Better Auth's answer to a reset request, whether or not a mail went out (no account enumeration). */
const RESET_REQUESTED = { status: true, message: "If this email exists in our system, check your email for the reset link" };

/** Before every auth endpoint: our input rules, and the limits of the endpoints that cost a hash or send a mail. */
export async function beforeAuthHook(ctx: AuthHooksContext, request: AuthHookContext) {
  const ip = request.headers?.get(CLIENT_IP_HEADER) ?? "unknown";
  const body = (request.body ?? {}) as Record<string, unknown>;
  refuseControlCharacters(body);
  refuseCommonPassword(request.path, body);
  const answered = await beforeSecondFactor(ctx, request, ip);
  if (answered) return answered;
  switch (request.path) {
    case "/sign-in/email": {
      await limit(ctx, authRateRules.signInPerIp, ip);
      // Counted before the password is checked, so parallel guesses cannot all slip under the limits.
      await limit(ctx, authRateRules.passwordFailuresPerIp, ip);
      await limit(ctx, authRateRules.signInFailuresPerAccount, accountAtAddress(emailOf(body), ip));
      // Past this many wrong passwords from anywhere, the password alone no longer signs the account in.
      if (!(await ctx.rateLimiter.tryHit(authRateRules.signInFailuresForAccount, emailOf(body)))) await requireSignInCode(ctx, request, body, ip);
      break;
    }
    case "/change-password": {
      const userId = await signedInUserId(ctx, request);
      // Without a session the endpoint answers 401 itself, before any password is checked.
      if (!userId) break;
      // Every other session ends, as on the profile page, whatever a JSON caller asks for. (A body that is
      // not an object is the endpoint's to refuse.)
      if (isRecord(request.body)) request.body.revokeOtherSessions = true;
      await limit(ctx, authRateRules.passwordFailuresPerIp, ip);
      // Per account, from every address: a stolen session on many networks gets no more guesses than on one.
      await limit(ctx, authRateRules.changePasswordFailuresPerAccount, userId);
      break;
    }
    case "/sign-up/email":
      await limit(ctx, authRateRules.signUpPerIp, ip);
      keepRegisterFields(body);
      break;
    case "/request-password-reset":
      await limit(ctx, authRateRules.resetPerIp, ip);
      await limit(ctx, authRateRules.resetPerEmail, accountAtAddress(emailOf(body), ip));
      // The mailbox's own cap answers as if a mail went out: the links it got in the window still work.
      if (!(await mayMail(ctx, authRateRules.resetMailsPerEmail, emailOf(body)))) return request.json(RESET_REQUESTED);
      break;
    case "/send-verification-email":
      await limit(ctx, authRateRules.verificationPerIp, ip);
      await limit(ctx, authRateRules.verificationPerEmail, accountAtAddress(emailOf(body), ip));
      if (!(await mayMail(ctx, authRateRules.verificationMailsPerEmail, emailOf(body)))) return request.json({ status: true });
      break;
  }
  // A session read (every signed-in request) checks the age on the row it reads instead (accounts.getSession).
  if (request.path !== "/get-session") await expireOldSession(ctx, request);
}
