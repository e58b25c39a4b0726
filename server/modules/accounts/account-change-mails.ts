// The e-mails of changing an account's address and of deleting the account, on the shared layout.
import { escapeHtml, type MailContent, oneLine, renderHtml, renderText } from "../../platform/mail/mail-layout.ts";

/** To the new address: the link that makes it the account's address (the old one stays until it is opened). */
export function emailChangeLinkEmail({ shopName, name, url, expiresInHours }: { shopName: string; name: string; url: string; expiresInHours: number }): MailContent {
  const reason = `someone asked to make this the e-mail address of an account at ${shopName}.`;
  const expiry = `The link works for ${expiresInHours} hours.`;
  const ignore = `If you did not ask for this, ignore this e-mail: nothing changes.`;
  return {
    subject: `Confirm your new e-mail address for ${oneLine(shopName)}`,
    text: renderText(
      [`Hello ${name},`, `To make this the e-mail address of your ${shopName} account, open this link:`, url, expiry, ignore],
      reason,
      shopName,
    ),
    html: renderHtml({
      shopName,
      paragraphs: [`Hello ${escapeHtml(name)},`, `To make this the e-mail address of your ${escapeHtml(shopName)} account, use the button below.`],
      button: { label: "Use this address", url },
      after: [escapeHtml(expiry), escapeHtml(ignore)],
      reason,
    }),
  };
}

/** To the old address, once the change is made: so a change the owner did not make does not go unnoticed. */
export function emailChangedEmail({ shopName, name, newEmail }: { shopName: string; name: string; newEmail: string }): MailContent {
  const reason = `this was the e-mail address of your ${shopName} account.`;
  const what = `The e-mail address of your ${shopName} account was changed to ${newEmail}. Every other session of the account was logged out.`;
  const notYou = `If you did not do this, someone may know your password: write to the shop at once, quoting this e-mail.`;
  return {
    subject: `The e-mail address of your ${oneLine(shopName)} account was changed`,
    text: renderText([`Hello ${name},`, what, notYou], reason, shopName),
    html: renderHtml({ shopName, paragraphs: [`Hello ${escapeHtml(name)},`, escapeHtml(what), escapeHtml(notYou)], reason }),
  };
}

/**
 * To the holder of an address another account asked to change to: the answer to that request does not say the
 * address has an account (no account enumeration), so its holder hears of it here instead.
 */
export function emailTakenEmail({ shopName, name }: { shopName: string; name: string }): MailContent {
  const reason = `someone asked to give this address to another account at ${shopName}.`;
  const what = `Someone asked to make your e-mail address the address of another account at ${shopName}. Your address belongs to your account, so nothing changed.`;
  const after = `There is nothing you need to do.`;
  return {
    subject: `Someone asked to use your e-mail address at ${oneLine(shopName)}`,
    text: renderText([`Hello ${name},`, what, after], reason, shopName),
    html: renderHtml({ shopName, paragraphs: [`Hello ${escapeHtml(name)},`, escapeHtml(what), escapeHtml(after)], reason }),
  };
}

/** To the address of an account just deleted: what went and what stays. */
export function accountDeletedEmail({ shopName, name }: { shopName: string; name: string }): MailContent {
  const reason = `this was the e-mail address of an account at ${shopName}.`;
  const what = `Your ${shopName} account has been deleted, with your profile, picture, cart and sessions.`;
  const kept = `Your reviews stay, shown as by 'Anonymous'. Your orders stay in the shop's records, as the law on invoices requires, with the name, address and phone they were delivered to, no longer linked to an account.`;
  const again = `You can create a new account with this address at any time.`;
  return {
    subject: `Your ${oneLine(shopName)} account has been deleted`,
    text: renderText([`Hello ${name},`, what, kept, again], reason, shopName),
    html: renderHtml({ shopName, paragraphs: [`Hello ${escapeHtml(name)},`, escapeHtml(what), escapeHtml(kept), escapeHtml(again)], reason }),
  };
}
