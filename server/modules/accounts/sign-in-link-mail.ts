// The e-mail with a sign-in link (Better Auth's magic-link plugin), on the shared layout.
import { escapeHtml, type MailContent, oneLine, renderHtml, renderText } from "../../platform/mail/mail-layout.ts";

export function signInLinkEmail({ shopName, name, url, expiresInMinutes }: { shopName: string; name: string; url: string; expiresInMinutes: number }): MailContent {
  const reason = `someone asked for a link to log in to your ${shopName} account.`;
  const after = [
    `The link works once and expires in ${expiresInMinutes} minutes. If your account asks for a code from an authenticator app, it still will.`,
    `If you did not ask for this, ignore this e-mail: nobody can log in without the link.`,
  ];
  return {
    subject: `Your ${oneLine(shopName)} sign-in link`,
    text: renderText([`Hello ${name},`, `To log in to your ${shopName} account, open this link:`, url, ...after], reason, shopName),
    html: renderHtml({
      shopName,
      paragraphs: [`Hello ${escapeHtml(name)},`, `To log in to your ${escapeHtml(shopName)} account, use the button below.`],
      button: { label: "Log in", url },
      after: after.map((line) => escapeHtml(line)),
      reason,
    }),
  };
}
