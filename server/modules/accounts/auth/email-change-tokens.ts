import { verifyJWT } from "better-auth/crypto";

/**
 * The token Better Auth's change of address mails to the new address: signed with the secret, naming the account,
 * its address when asked and the new one. Read here to send it to our own page (mail-senders.ts) and by that page's
 * service before it lets the library apply it (email-change.ts).
 */
export interface EmailChangeClaim {
  userId: string;
  oldEmail: string;
  newEmail: string;
}

/** What Better Auth writes into the token of the link that applies a change of address. */
const CHANGE_EMAIL_VERIFICATION = "change-email-verification";

/** The claim of a change-of-address token whose signature holds and that has not expired, else null. */
export async function readEmailChangeToken(secret: string, token: string): Promise<EmailChangeClaim | null> {
  const payload = await verifyJWT(token, secret);
  if (!payload || payload.requestType !== CHANGE_EMAIL_VERIFICATION) return null;
  const { userId, email, updateTo } = payload;
  if (typeof userId !== "string" || typeof email !== "string" || typeof updateTo !== "string") return null;
  return { userId, oldEmail: email.toLowerCase(), newEmail: updateTo.toLowerCase() };
}
