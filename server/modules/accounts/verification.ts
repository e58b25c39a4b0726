import { isAPIError } from "better-auth/api";
import { verifyJWT } from "better-auth/crypto";
import { messages } from "#common/shared/messages.ts";
import { emailOnlySchema, resetPasswordSchema, verifyEmailSchema } from "#common/accounts/account-schemas.ts";
import { InvalidInputError, parseInput } from "../../platform/errors.ts";
import type { SessionCaller, SessionOutcome } from "../../platform/session-user.ts";
import { accountAtAddress, authRateRules } from "./auth/auth-rules.ts";
import { findUser } from "./account-records.ts";
import type { AccountsContext } from "./accounts-context.ts";
import { authHeaders, callAuth, sessionOutcome } from "./auth-calls.ts";

const a = messages.auth;

/** What following a verification link came to (see `verifyEmail`). */
export type VerificationOutcome =
  | { kind: "verified"; session: SessionOutcome }
  | { kind: "alreadyVerified" }
  | { kind: "passwordNeeded" };

type VerificationContext = Pick<AccountsContext, "auth" | "db" | "events" | "rateLimiter">;

/**
 * Follows the link of a verification e-mail. Whoever registered an address first chose its password, and a
 * stranger may have: so the link verifies only for someone who shows they know that password (decision 008),
 * either as the browser the account was signed up in (`signedUpAs`: the account id its sign-up answered, kept
 * sealed in a cookie) or by typing it (`password`). Without either it answers `passwordNeeded`. Verified here,
 * the person is signed in; an address verified already is `alreadyVerified`, with no sign-in.
 */
export async function verifyEmail(
  ctx: VerificationContext,
  input: { token: unknown; password?: unknown; signedUpAs?: string | null },
  caller: SessionCaller,
): Promise<VerificationOutcome> {
  const token = resetPasswordSchema.shape.token.safeParse(input.token);
  const account = token.success ? await accountOfVerificationToken(ctx, token.data) : undefined;
  if (!token.success || !account) throw new InvalidInputError(a.verifyFailed);
  if (account.emailVerified) return { kind: "alreadyVerified" };
  if (input.password === undefined) {
    if (!input.signedUpAs || input.signedUpAs !== account.id) return { kind: "passwordNeeded" };
  } else {
    const { password } = parseInput(verifyEmailSchema, { token: token.data, password: input.password });
    if (!(await isAccountPassword(ctx, account, password, caller))) {
      throw new InvalidInputError(a.wrongPasswordToVerify, { password: a.wrongPasswordToVerify });
    }
  }
  try {
    const { headers } = await ctx.auth.api.verifyEmail({ query: { token: token.data }, headers: await authHeaders(ctx.auth, caller), returnHeaders: true });
    return { kind: "verified", session: await sessionOutcome(ctx.auth, headers) };
  } catch (error) {
    if (isAPIError(error)) throw new InvalidInputError(a.verifyFailed);
    throw error;
  }
}

export async function resendVerification({ auth }: Pick<AccountsContext, "auth">, input: unknown, caller: SessionCaller): Promise<void> {
  const { email } = parseInput(emailOnlySchema, input);
  await callAuth(async () => auth.api.sendVerificationEmail({ body: { email, callbackURL: "/" }, headers: await authHeaders(auth, caller) }));
}

/** The account a verification link was made for, if its signature holds and it has not expired. */
async function accountOfVerificationToken({ auth, db }: Pick<AccountsContext, "auth" | "db">, token: string) {
  const payload = await verifyJWT(token, (await auth.$context).secret);
  if (typeof payload?.email !== "string") return undefined;
  const email = payload.email.toLowerCase();
  const found = await findUser(db, email);
  return found && { ...found, email };
}

/**
 * Whether `password` is the account's, counted as a sign-in is (docs/decisions/014): every attempt costs a hash,
 * so it counts per address; a wrong password counts as a failed guess per account and address, a right one is
 * given back.
 */
async function isAccountPassword(
  { auth, events, rateLimiter }: Pick<AccountsContext, "auth" | "events" | "rateLimiter">,
  account: { id: string; email: string },
  password: string,
  caller: SessionCaller,
): Promise<boolean> {
  const ip = caller.clientIp ?? "unknown";
  await rateLimiter.hit(authRateRules.signInPerIp, ip);
  await rateLimiter.hit(authRateRules.passwordFailuresPerIp, ip);
  await rateLimiter.hit(authRateRules.signInFailuresPerAccount, accountAtAddress(account.email, ip));
  const context = await auth.$context;
  const hash = (await context.internalAdapter.findCredentialAccount(account.id))?.password;
  const matches = typeof hash === "string" && (await context.password.verify({ hash, password }));
  if (matches) {
    await rateLimiter.undo(authRateRules.passwordFailuresPerIp, ip);
    await rateLimiter.undo(authRateRules.signInFailuresPerAccount, accountAtAddress(account.email, ip));
  } else {
    events.warn("sign-in.failed", { accountId: account.id, email: account.email, reason: "wrong password to verify the address" });
  }
  return matches;
}
