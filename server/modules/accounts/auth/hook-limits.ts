import { APIError } from "better-auth/api";
import { TooManyRequestsError } from "../../../platform/errors.ts";
import type { RateRule } from "../../../platform/rate-limit/rate-limit.ts";
import { accountAtAddress, authRateRules } from "./auth-rules.ts";
import type { AuthHooksContext } from "./hooks-context.ts";

// The rate rules (auth-rules.ts) as the hooks apply them: a refusal in the library's own form, a mailbox's cap
// that refuses nothing, and the counts given back when an attempt was no wrong password.

type LimitContext = Pick<AuthHooksContext, "rateLimiter">;

export async function limit({ rateLimiter }: LimitContext, rule: RateRule, subject: string) {
  try {
    await rateLimiter.hit(rule, subject);
  } catch (error) {
    if (error instanceof TooManyRequestsError) {
      throw new APIError("TOO_MANY_REQUESTS", { message: error.message }, { "Retry-After": String(error.retryAfterSeconds) });
    }
    throw error;
  }
}

/**
 * Whether one more mail may go to this mailbox; when not, the request is answered as usual and no mail is sent
 * (the limiter logs the first one held back in a window as `limit.hit`).
 */
export function mayMail({ rateLimiter }: LimitContext, rule: RateRule, email: string) {
  return rateLimiter.tryHit(rule, email);
}

/** A sign-in attempt counted before its password was checked turned out to be no wrong password. */
export async function undoSignInFailure({ rateLimiter }: LimitContext, email: string, ip: string) {
  await rateLimiter.undo(authRateRules.passwordFailuresPerIp, ip);
  await rateLimiter.undo(authRateRules.signInFailuresPerAccount, accountAtAddress(email, ip));
  await rateLimiter.undo(authRateRules.signInFailuresForAccount, email);
}
