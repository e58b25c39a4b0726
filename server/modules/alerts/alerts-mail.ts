// The back-in-stock alerts' e-mails, on the shared layout.
import { oneClickUnsubscribeHeaders } from "../../platform/mail/list-unsubscribe.ts";
import { escapeHtml, type MailContent, oneLine, renderHtml, renderText } from "../../platform/mail/mail-layout.ts";

/** The plant and its size as a mail names them: 'Fiddle Leaf Fig (Large · 10" pot)', or the name alone for a plant sold in one size. */
export function plantAndSize(name: string, label: string): string {
  return label ? `${name} (${label})` : name;
}

/**
 * To a visitor's address: follow the link to confirm it before anything else is sent to it. No List-Unsubscribe
 * header: the mail is the answer to an ask typed on the shop's page, not one of a series, and the address is on no
 * list to leave until its link is followed (ignored, nothing more comes, and the ask is forgotten in a week). An
 * unsubscribe offered here could only delete the waiting ask, which ignoring the mail does as well; a mail program's
 * "Unsubscribe" on it would promise more than that.
 */
export function confirmAlertEmail({ shopName, plant, confirmUrl }: { shopName: string; plant: string; confirmUrl: string }): MailContent {
  const reason = `someone asked ${shopName} to write to this address when ${oneLine(plant)} is back in stock.`;
  return {
    subject: `Confirm your back-in-stock alert for ${oneLine(plant)}`,
    text: renderText(
      [
        `You asked to hear when ${plant} is back in stock at ${shopName}.`,
        `Confirm it with this link within a week:\n${confirmUrl}`,
        "If it was not you, ignore this e-mail: nothing more is sent to this address, and it is forgotten after a week.",
      ],
      reason,
    ),
    html: renderHtml({
      shopName,
      paragraphs: [`You asked to hear when <strong>${escapeHtml(plant)}</strong> is back in stock.`, "Confirm it within a week:"],
      button: { label: "Confirm my alert", url: confirmUrl },
      after: ["If it was not you, ignore this e-mail: nothing more is sent to this address, and it is forgotten after a week."],
      reason,
    }),
  };
}

/**
 * The alert itself: the size is back; a link straight to it and one to stop every alert, which the headers offer to
 * mail programs too, as a one-click unsubscribe: the same link, so the same token.
 */
export function backInStockEmail({ shopName, plant, productUrl, unsubscribeUrl }: { shopName: string; plant: string; productUrl: string; unsubscribeUrl: string }): MailContent & { headers: Record<string, string> } {
  const reason = `you asked ${shopName} to tell you when ${oneLine(plant)} is back in stock. Stop these e-mails: ${unsubscribeUrl}`;
  return {
    subject: `${oneLine(plant)} is back in stock`,
    text: renderText([`Good news: ${plant} is back in stock at ${shopName}.`, `Have a look before it sells out again:\n${productUrl}`, `Stop every back-in-stock e-mail: ${unsubscribeUrl}`], reason),
    html: renderHtml({
      shopName,
      paragraphs: [`Good news: <strong>${escapeHtml(plant)}</strong> is back in stock.`, "Have a look before it sells out again."],
      button: { label: "See the plant", url: productUrl },
      after: [`<a href="${escapeHtml(unsubscribeUrl)}" style="color:#4b5563;">Stop every back-in-stock e-mail</a>`],
      reason,
    }),
    headers: oneClickUnsubscribeHeaders(unsubscribeUrl),
  };
}
