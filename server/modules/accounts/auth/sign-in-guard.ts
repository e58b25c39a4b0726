import { APIError, isAPIError } from "better-auth/api";
import { messages } from "#common/shared/messages.ts";
import { ERROR_CODES } from "#common/shared/user-facing-error.ts";
import { authRateRules } from "./auth-rules.ts";
import { undoSignInFailure } from "./hook-limits.ts";
import type { AuthHookContext, AuthHooksContext } from "./hooks-context.ts";
import { emailOf } from "./request-rules.ts";

const signInCodeRequired = () =>
  new APIError("FORBIDDEN", { code: ERROR_CODES.signInCodeRequired, message: messages.auth.signInCodeSent });
const wrongSignInCode = () =>
  new APIError("UNAUTHORIZED", { code: ERROR_CODES.signInCodeInvalid, message: messages.auth.signInCodeWrong });

/**
 * The sign-in guard (decision 014), for an account past its wrong passwords from every address: the sign-in goes
 * on only with the right password *and* the code e-mailed to the account. The password is checked here first, and
 * every answer short of success is the same whether it was right or not, so the guesser learns nothing: without a
 * code, "we e-mailed you a code if the password was right" (and a code is sent only then, to the account's
 * address); with one, "the password or the code is not right". Codes are tried only with the right password, so a
 * guesser cannot use up the owner's code either. A right password is no failed guess: its counts are given back.
 */
export async function requireSignInCode(
  ctx: Pick<AuthHooksContext, "rateLimiter" | "events" | "sendSignInCode" | "checkSignInCode">,
  request: AuthHookContext,
  body: Record<string, unknown>,
  ip: string,
) {
  const email = emailOf(body);
  const code = typeof body.code === "string" ? body.code.trim() : "";
  // Not a password at all: the endpoint refuses the body itself, and the after-hook gives the counts back.
  if (typeof body.password !== "string") return;
  const found = await request.context.internalAdapter.findUserByEmail(email, { includeAccounts: true });
  const hash = found?.accounts.find((account) => account.providerId === "credential")?.password;
  // Without an account the same work is done (a hash), so the answer takes as long as for a wrong password.
  const rightPassword = hash
    ? await request.context.password.verify({ hash, password: body.password })
    : (await request.context.password.hash(body.password), false);
  if (!found || !rightPassword) {
    ctx.events.warn("sign-in.failed", { accountId: found?.user.id ?? null, email, reason: found ? "wrong password" : "no such account", codeRequired: true });
    throw code ? wrongSignInCode() : signInCodeRequired();
  }
  if (!code) {
    await undoSignInFailure(ctx, email, ip);
    // Past its own cap no new code goes out; the newest one mailed is still good (the cap's window is its life).
    if (await ctx.rateLimiter.tryHit(authRateRules.signInCodesPerAccount, found.user.id)) {
      await ctx.sendSignInCode(email);
      ctx.events.info("sign-in.code-sent", { accountId: found.user.id, email });
    }
    throw signInCodeRequired();
  }
  try {
    // Checked by the library (expiry, tries left, in constant time) and then used up, so it works once.
    await ctx.checkSignInCode(email, code);
    await request.context.internalAdapter.deleteVerificationByIdentifier(`sign-in-otp-${email}`);
  } catch (error) {
    if (!isAPIError(error)) throw error;
    await undoSignInFailure(ctx, email, ip);
    ctx.events.warn("sign-in.failed", { accountId: found.user.id, email, reason: "wrong or expired sign-in code" });
    throw wrongSignInCode();
  }
  // Password and code are right: the endpoint signs in (checking the password once more, as it always does).
}
