import type { OutboxMail } from "../../../platform/mail/mail-outbox.ts";
import { existingAccountEmail, passwordChangedEmail, passwordResetEmail, signInCodeEmail, verificationEmail } from "../account-mails.ts";
import { emailChangeLinkEmail } from "../account-change-mails.ts";
import { signInLinkEmail } from "../sign-in-link-mail.ts";
import { authRateRules, MAGIC_LINK_MINUTES, RESET_LINK_MINUTES, SIGN_IN_CODE_MINUTES } from "./auth-rules.ts";
import { readEmailChangeToken } from "./email-change-tokens.ts";
import type { AuthHooksContext } from "./hooks-context.ts";

// The e-mails Better Auth asks for. Queued on their own (the library calls these after its writes); the outbox
// worker sends them.

type MailContext = Pick<AuthHooksContext, "database" | "outbox" | "logger" | "shopName" | "publicUrl">;

interface Recipient {
  id: string;
  email: string;
  name: string;
}

/** A mail that cannot even be queued must not undo a sign-up or a reset request: the person can ask again. */
export async function queueMail({ database, outbox, logger }: Pick<MailContext, "database" | "outbox" | "logger">, mail: OutboxMail) {
  try {
    await outbox.enqueue(database.db, mail);
  } catch (error) {
    logger.error({ err: error, kind: mail.kind, reference: mail.reference }, "e-mail could not be queued");
  }
}

/** The page a change of address's link leads to, and how long the link works (the verification links' day). */
export const EMAIL_CHANGE_PAGE = "/account/email/confirm";
export const EMAIL_LINK_HOURS = 24;

const link = ({ publicUrl }: Pick<MailContext, "publicUrl">, path: string, token: string) => `${publicUrl.origin}${path}?token=${encodeURIComponent(token)}`;

export function sendPasswordChangedMail(ctx: MailContext, user: Recipient) {
  return queueMail(ctx, { kind: "password-changed", reference: user.id, to: user.email, ...passwordChangedEmail({ shopName: ctx.shopName, name: user.name }) });
}

export function sendPasswordResetMail(ctx: MailContext, { user, token }: { user: Recipient; token: string }) {
  return queueMail(ctx, {
    kind: "password-reset",
    reference: user.id,
    to: user.email,
    ...passwordResetEmail({ shopName: ctx.shopName, name: user.name, url: link(ctx, "/reset-password", token), expiresInMinutes: RESET_LINK_MINUTES }),
  });
}

export async function sendVerificationMail(ctx: MailContext & Pick<AuthHooksContext, "secret" | "rateLimiter">, { user, token }: { user: Recipient; token: string }) {
  // Better Auth mails the link of a change of address through this sender too: that one leads to its own page.
  const change = await readEmailChangeToken(ctx.secret, token);
  if (change) return sendEmailChangeLinkMail(ctx, { ...user, email: change.newEmail }, token);
  return queueMail(ctx, {
    kind: "verification",
    reference: user.id,
    to: user.email,
    ...verificationEmail({ shopName: ctx.shopName, name: user.name, url: link(ctx, "/verify", token) }),
  });
}

/**
 * A sign-up with an address that has an account answers like any other (no account enumeration, decision 015);
 * the owner hears of it by e-mail instead, at most a few times an hour.
 */
export async function sendExistingAccountNotice(ctx: MailContext & Pick<AuthHooksContext, "rateLimiter">, user: Recipient) {
  if (!(await ctx.rateLimiter.tryHit(authRateRules.existingAccountNoticePerEmail, user.email.toLowerCase()))) return;
  const { origin } = ctx.publicUrl;
  await queueMail(ctx, {
    kind: "existing-account",
    reference: user.id,
    to: user.email,
    ...existingAccountEmail({ shopName: ctx.shopName, name: user.name, loginUrl: `${origin}/login`, resetUrl: `${origin}/forgot-password` }),
  });
}

/** The code of the sign-in guard (decision 014), to the account's own address; the plugin's other codes are unused. */
export async function sendSignInCodeMail(
  ctx: MailContext & Pick<AuthHooksContext, "authContext">,
  { email, otp, type }: { email: string; otp: string; type: string },
) {
  if (type !== "sign-in") return;
  const found = await (await ctx.authContext()).internalAdapter.findUserByEmail(email);
  if (!found) return;
  await queueMail(ctx, {
    kind: "sign-in-code",
    reference: found.user.id,
    to: found.user.email,
    ...signInCodeEmail({ shopName: ctx.shopName, name: found.user.name, code: otp, expiresInMinutes: SIGN_IN_CODE_MINUTES }),
  });
}

/**
 * A sign-in link (the magic-link plugin's), to our page, only when the address has an account: the plugin would mail
 * any address, and the request's answer is the same either way (no account enumeration).
 */
export async function sendMagicLinkMail(ctx: MailContext & Pick<AuthHooksContext, "authContext">, { email, token }: { email: string; token: string }) {
  const found = await (await ctx.authContext()).internalAdapter.findUserByEmail(email);
  if (!found) return;
  await queueMail(ctx, {
    kind: "sign-in-link",
    reference: found.user.id,
    to: found.user.email,
    ...signInLinkEmail({ shopName: ctx.shopName, name: found.user.name, url: link(ctx, "/login/link", token), expiresInMinutes: MAGIC_LINK_MINUTES }),
  });
}

/** The link that makes a new address the account's, to that address: at most a few an hour to one mailbox. */
async function sendEmailChangeLinkMail(ctx: MailContext & Pick<AuthHooksContext, "rateLimiter">, user: Recipient, token: string) {
  if (!(await ctx.rateLimiter.tryHit(authRateRules.emailChangeMailsPerEmail, user.email))) return;
  await queueMail(ctx, {
    kind: "email-change-link",
    reference: user.id,
    to: user.email,
    ...emailChangeLinkEmail({ shopName: ctx.shopName, name: user.name, url: link(ctx, EMAIL_CHANGE_PAGE, token), expiresInHours: EMAIL_LINK_HOURS }),
  });
}
