// What every e-mail of the shop shares; each module writes its own e-mails with it as pure functions from values
// to { subject, text, html }. Every value that reaches the
// HTML part goes through escapeHtml; the plain-text part is written to be read on its own.

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

export const BRAND_GREEN = "#25632e";

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Makes text safe inside HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}

/** A header value on one line: line breaks and runs of white space become one space. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Escapes text and keeps its line breaks. */
export function escapeMultiline(text: string): string {
  return escapeHtml(text.replace(/\r\n?/g, "\n")).replace(/\n/g, "<br>\n");
}

export interface Layout {
  shopName: string;
  /** Paragraphs of the body, already HTML (escape the values in them). */
  paragraphs: string[];
  /** The main link. `note` and `shown` print it as text below the button (default: the URL itself). */
  button?: { label: string; url: string; note?: string; shown?: string } | undefined;
  /** Paragraphs after the button, already HTML. */
  after?: string[] | undefined;
  /** Completes 'You received this e-mail because …', plain text. */
  reason: string;
}

const FONT = "font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";

export function paragraph(html: string): string {
  return `<p style="margin:0 0 16px;font-size:16px;line-height:24px;color:#1f2937;">${html}</p>`;
}

export function renderHtml({ shopName, paragraphs, button, after = [], reason }: Layout): string {
  const buttonHtml = button
    ? `<p style="margin:24px 0;"><a href="${escapeHtml(button.url)}" style="display:inline-block;background-color:${BRAND_GREEN};color:#ffffff;text-decoration:none;font-weight:bold;font-size:16px;line-height:24px;padding:12px 24px;border-radius:6px;">${escapeHtml(button.label)}</a></p>
<p style="margin:0 0 16px;font-size:14px;line-height:20px;color:#4b5563;">${escapeHtml(button.note ?? "If the button does not work, copy this link into your browser:")}<br>
<a href="${escapeHtml(button.url)}" style="color:${BRAND_GREEN};word-break:break-all;">${escapeHtml(button.shown ?? button.url)}</a></p>`
    : "";
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(shopName)}</title>
</head>
<body style="margin:0;padding:0;background-color:#f3f4f6;${FONT};">
<div style="max-width:560px;margin:0 auto;padding:24px 16px;">
<div style="background-color:${BRAND_GREEN};color:#ffffff;padding:16px 24px;border-radius:8px 8px 0 0;font-size:20px;line-height:28px;font-weight:bold;">${escapeHtml(shopName)}</div>
<div style="background-color:#ffffff;padding:24px;border-radius:0 0 8px 8px;">
${[...paragraphs.map(paragraph), buttonHtml, ...after.map(paragraph)].filter(Boolean).join("\n")}
</div>
<p style="margin:16px 0 0;font-size:12px;line-height:18px;color:#6b7280;text-align:center;">You received this e-mail because ${escapeHtml(reason)}</p>
</div>
</body>
</html>
`;
}

export function renderText(blocks: string[], reason: string, signature?: string): string {
  const all = [...blocks, ...(signature === undefined ? [] : [`— ${signature}`]), `You received this e-mail because ${reason}`];
  return `${all.join("\n\n")}\n`;
}
