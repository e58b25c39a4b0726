import { isAPIError } from "better-auth/api";
import { messages } from "#common/shared/messages.ts";
import { ForbiddenError, InvalidInputError } from "../../platform/errors.ts";
import type { SessionCaller, SessionUser } from "../../platform/session-user.ts";
import { authRateRules, FRESH_SIGN_IN_MINUTES } from "./auth/auth-rules.ts";
import type { AccountsContext } from "./accounts-context.ts";
import { errorCode } from "./auth-calls.ts";

// Changing the e-mail address and deleting the account take more than a session: someone who finds a browser
// left signed in must not be able to do either (decision 040). The account's password proves it is the owner;
// an account that has none (signed up with Google or another OpenID provider) proves it by a login made in the
// last FRESH_SIGN_IN_MINUTES, which its provider asked for.

const ac = messages.accountChanges;

type ProofContext = Pick<AccountsContext, "auth" | "db" | "events" | "rateLimiter">;

/** What the account must show: its password, or (with none) a recent login, which the caller's session is or not. */
export type OwnerProof = { kind: "password" } | { kind: "recent-login"; recent: boolean; withinMinutes: number };

export async function ownerProofOf(ctx: Pick<ProofContext, "auth" | "db">, userId: string, caller: SessionCaller): Promise<OwnerProof> {
  const credential = await (await ctx.auth.$context).internalAdapter.findCredentialAccount(userId);
  if (typeof credential?.password === "string") return { kind: "password" };
  return { kind: "recent-login", recent: await isRecentLogin(ctx, userId, caller), withinMinutes: FRESH_SIGN_IN_MINUTES };
}

/** Whether the caller's session is the account's and began (a login) within FRESH_SIGN_IN_MINUTES. */
async function isRecentLogin({ db }: Pick<ProofContext, "db">, userId: string, caller: SessionCaller): Promise<boolean> {
  const credential = caller.sessionCredential;
  if (!credential) return false;
  // The credential is the token and its signature; the session was checked already when the request was read.
  const token = credential.slice(0, credential.lastIndexOf("."));
  const session = await db.selectFrom("sessions").select(["userId", "createdAt"]).where("token", "=", token).executeTakeFirst();
  return session?.userId === userId && new Date(session.createdAt).getTime() > Date.now() - FRESH_SIGN_IN_MINUTES * 60_000;
}

/**
 * Runs `change` once the caller proved they own `user`'s account: with the typed password, which `change` hands to
 * the auth library call that checks it (it answers INVALID_PASSWORD when wrong), or with none for an account
 * without a password whose session is a recent login. Wrong passwords count as on the change-password form
 * (per address, and per account from every address), so a found session gets no more guesses here than there.
 */
export async function asProvenOwner<T>(
  ctx: ProofContext,
  user: SessionUser,
  password: string | undefined,
  caller: SessionCaller,
  change: (password: string | undefined) => Promise<T>,
): Promise<T> {
  const proof = await ownerProofOf(ctx, user.id, caller);
  if (proof.kind === "recent-login") {
    if (!proof.recent) throw new ForbiddenError(ac.freshSignInNeeded(FRESH_SIGN_IN_MINUTES));
    return change(undefined);
  }
  if (!password) throw new InvalidInputError(messages.validation.passwordRequired, { password: messages.validation.passwordRequired });
  const ip = caller.clientIp ?? "unknown";
  // Counted before the check, so parallel guesses cannot all slip under the limits; given back unless wrong.
  await ctx.rateLimiter.hit(authRateRules.passwordFailuresPerIp, ip);
  await ctx.rateLimiter.hit(authRateRules.changePasswordFailuresPerAccount, user.id);
  const giveBack = async () => {
    await ctx.rateLimiter.undo(authRateRules.passwordFailuresPerIp, ip);
    await ctx.rateLimiter.undo(authRateRules.changePasswordFailuresPerAccount, user.id);
  };
  let result: T;
  try {
    result = await change(password);
  } catch (error) {
    if (isAPIError(error) && errorCode(error) === "INVALID_PASSWORD") {
      ctx.events.warn("account-change.failed", { accountId: user.id, reason: "wrong password" });
      throw new InvalidInputError(ac.passwordWrong, { password: ac.passwordWrong });
    }
    await giveBack();
    throw error;
  }
  await giveBack();
  return result;
}
