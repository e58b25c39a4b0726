// The Contact Us copy, on the shared layout.
import { BRAND_GREEN, escapeHtml, escapeMultiline, type MailContent, oneLine, renderHtml, renderText } from "../../platform/mail/mail-layout.ts";

export function contactMessageEmail({
  shopName,
  fromName,
  fromEmail,
  subject,
  message,
}: {
  shopName: string;
  fromName: string;
  fromEmail: string;
  subject: string;
  message: string;
}): MailContent {
  const reason = `someone wrote to ${shopName} through its contact form.`;
  const replyUrl = `mailto:${encodeURIComponent(fromEmail).replace(/%40/g, "@")}?subject=${encodeURIComponent(`Re: ${oneLine(subject)}`)}`;
  return {
    subject: `Contact form: ${oneLine(subject)}`,
    text: renderText(
      [
        `${fromName} <${fromEmail}> wrote through the contact form of ${shopName}.`,
        `Subject: ${subject}`,
        message.replace(/\r\n?/g, "\n"),
        `Reply to ${fromEmail} to answer them.`,
      ],
      reason,
    ),
    html: renderHtml({
      shopName,
      paragraphs: [
        `<strong>${escapeHtml(fromName)}</strong> &lt;<a href="${escapeHtml(replyUrl)}" style="color:${BRAND_GREEN};">${escapeHtml(fromEmail)}</a>&gt; wrote through the contact form.`,
        `<strong>Subject:</strong> ${escapeHtml(subject)}`,
        `<span style="display:block;padding:12px 16px;background-color:#f9fafb;border-left:4px solid ${BRAND_GREEN};">${escapeMultiline(message)}</span>`,
      ],
      button: { label: `Reply to ${fromName}`, url: replyUrl, note: "Or write to:", shown: fromEmail },
      reason,
    }),
  };
}
