import { isAPIError } from "better-auth/api";
import { sql } from "kysely";
import { changeEmailSchema, emailChangeLinkSchema } from "#common/accounts/account-change-schemas.ts";
import { messages } from "#common/shared/messages.ts";
import { inWriteTransaction, isUniqueViolation } from "../../platform/db/write-transaction.ts";
import { ForbiddenError, InvalidInputError, parseInput } from "../../platform/errors.ts";
import { requireSignedIn, type SessionCaller, type SessionUser } from "../../platform/session-user.ts";
import { emailChangedEmail, emailTakenEmail } from "./account-change-mails.ts";
import type { AccountChangesContext } from "./account-changes-context.ts";
import { authRateRules, CLIENT_IP_HEADER } from "./auth/auth-rules.ts";
import { readEmailChangeToken } from "./auth/email-change-tokens.ts";
import { authHeaders, callAuth } from "./auth-calls.ts";
import { asProvenOwner } from "./owner-proof.ts";
import { recordSecurityEvent } from "./security-events.ts";

// Changing an account's e-mail address (decision 040), with Better Auth's own change of address: asked for on
// /account/email with the password (or a recent login), confirmed by the link the library signs and we mail to
// the new address. Until the link is opened the old address stays, and signs in. Its two endpoints stay closed to
// HTTP: the request must pass the owner's proof here, and the link is applied only by confirmEmailChange.

const ac = messages.accountChanges;

type EmailChangeContext = Pick<AccountChangesContext, "auth" | "db" | "dialect" | "events" | "rateLimiter" | "outbox" | "shopName">;

/**
 * Sends the link that makes `newEmail` the account's address. The answer is the same whether or not another
 * account has that address (no account enumeration): then no link goes out, and the address's holder is told
 * someone asked instead (a few times an hour at most).
 */
export async function requestEmailChange(ctx: EmailChangeContext, viewer: SessionUser | null, input: unknown, caller: SessionCaller): Promise<{ sentTo: string }> {
  const user = requireSignedIn(viewer);
  const { newEmail: typed, password } = parseInput(changeEmailSchema, input);
  const newEmail = typed.toLowerCase();
  if (newEmail === user.email.toLowerCase()) throw new InvalidInputError(ac.sameEmail, { newEmail: ac.sameEmail });
  await ctx.rateLimiter.hit(authRateRules.emailChangePerAccount, user.id);
  const headers = await authHeaders(ctx.auth, caller);
  await callAuth(() =>
    asProvenOwner(ctx, user, password, caller, async (typedPassword) => {
      if (typedPassword) await ctx.auth.api.verifyPassword({ body: { password: typedPassword }, headers });
      await tellHolder(ctx, newEmail);
      // The library sends nothing when the address is taken, and answers as if it had.
      await ctx.auth.api.changeEmail({ body: { newEmail }, headers });
    }),
  );
  return { sentTo: newEmail };
}

async function tellHolder(ctx: Pick<EmailChangeContext, "db" | "rateLimiter" | "outbox" | "shopName">, email: string) {
  const holder = await accountByEmail(ctx, email);
  if (!holder || !(await ctx.rateLimiter.tryHit(authRateRules.emailTakenNoticePerEmail, email))) return;
  await ctx.outbox.enqueue(ctx.db, { kind: "email-taken", reference: holder.id, to: holder.email, ...emailTakenEmail({ shopName: ctx.shopName, name: holder.name }) });
}

function accountByEmail({ db }: Pick<EmailChangeContext, "db">, email: string) {
  return db.selectFrom("users").select(["id", "name", "email"]).where(sql<string>`lower(email)`, "=", email.toLowerCase()).executeTakeFirst();
}

/**
 * The change a link asks for, if it can still be made: its signature holds, it has not expired, and the account
 * still has the address it had when the change was asked for (so a used link, or one overtaken by another
 * change, does nothing).
 */
async function pendingChange(ctx: Pick<EmailChangeContext, "auth" | "db">, token: string) {
  const claim = await readEmailChangeToken((await ctx.auth.$context).secret, token);
  if (!claim) return undefined;
  const account = await ctx.db.selectFrom("users").select(["id", "name", "email"]).where("id", "=", claim.userId).executeTakeFirst();
  if (!account || account.email.toLowerCase() !== claim.oldEmail) return undefined;
  return { account, newEmail: claim.newEmail };
}

/** What the confirmation page shows for a link: the new address, or null when the link cannot be used. */
export async function readEmailChangeLink(ctx: Pick<EmailChangeContext, "auth" | "db">, input: unknown): Promise<{ newEmail: string } | null> {
  const parsed = emailChangeLinkSchema.safeParse(input);
  const pending = parsed.success ? await pendingChange(ctx, parsed.data.token) : undefined;
  return pending ? { newEmail: pending.newEmail } : null;
}

/**
 * Applies the change a link asks for, through Better Auth's own link handling (called in-process), then ends every
 * other session of the account (the one confirming, if it is the account's, stays), records it in the account's
 * activity and tells the old address. Anyone holding the link may open it: it reached the new mailbox, and the
 * change was asked for with the owner's proof. A browser signed in to another account is refused.
 */
export async function confirmEmailChange(ctx: EmailChangeContext, viewer: SessionUser | null, input: unknown, caller: SessionCaller): Promise<{ email: string }> {
  const { token } = parseInput(emailChangeLinkSchema, input);
  const pending = await pendingChange(ctx, token);
  if (!pending) throw new InvalidInputError(ac.emailLinkInvalid);
  const { account, newEmail } = pending;
  if (viewer && viewer.id !== account.id) throw new ForbiddenError(ac.emailLinkOtherAccount);
  // Taken since the link was sent: the link can no longer be used (the unique index would refuse it anyway).
  if (await accountByEmail(ctx, newEmail)) throw new InvalidInputError(ac.emailLinkInvalid);
  try {
    // Without the caller's session: the library changes the address and leaves sessions to us.
    await ctx.auth.api.verifyEmail({ query: { token }, headers: new Headers({ [CLIENT_IP_HEADER]: caller.clientIp ?? "unknown" }) });
  } catch (error) {
    if (isAPIError(error) || isUniqueViolation(error)) throw new InvalidInputError(ac.emailLinkInvalid);
    throw error;
  }
  const kept = viewer ? caller.sessionCredential?.slice(0, caller.sessionCredential.lastIndexOf(".")) : undefined;
  await inWriteTransaction(ctx, async (trx) => {
    let others = trx.deleteFrom("sessions").where("userId", "=", account.id);
    if (kept) others = others.where("token", "!=", kept);
    await others.execute();
    await recordSecurityEvent(trx, { userId: account.id, kind: "email-changed", method: null, ip: caller.clientIp, userAgent: caller.userAgent });
    await ctx.outbox.enqueue(trx, {
      kind: "email-changed",
      reference: account.id,
      to: account.email,
      ...emailChangedEmail({ shopName: ctx.shopName, name: account.name, newEmail }),
    });
  });
  ctx.events.info("account.email-changed", { accountId: account.id });
  return { email: newEmail };
}
