// The shop's e-mails: pure functions from values to { subject, text, html }. Every value that reaches the
// HTML part goes through escapeHtml; the plain-text part is written to be read on its own.

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

const BRAND_GREEN = "#25632e";

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
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Escapes text and keeps its line breaks. */
function escapeMultiline(text: string): string {
  return escapeHtml(text.replace(/\r\n?/g, "\n")).replace(/\n/g, "<br>\n");
}

interface Layout {
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

function paragraph(html: string): string {
  return `<p style="margin:0 0 16px;font-size:16px;line-height:24px;color:#1f2937;">${html}</p>`;
}

function renderHtml({ shopName, paragraphs, button, after = [], reason }: Layout): string {
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

function renderText(blocks: string[], reason: string, signature?: string): string {
  const all = [...blocks, ...(signature === undefined ? [] : [`— ${signature}`]), `You received this e-mail because ${reason}`];
  return `${all.join("\n\n")}\n`;
}

export function verificationEmail({ shopName, name, url }: { shopName: string; name: string; url: string }): MailContent {
  const reason = `an account at ${shopName} was created with this address.`;
  return {
    subject: `Verify your e-mail for ${oneLine(shopName)}`,
    text: renderText(
      [
        `Hello ${name},`,
        `Please confirm that this is your e-mail address by opening this link:`,
        url,
        `If you did not create an account at ${shopName}, you can ignore this e-mail.`,
      ],
      reason,
      shopName,
    ),
    html: renderHtml({
      shopName,
      paragraphs: [
        `Hello ${escapeHtml(name)},`,
        `Please confirm that this is your e-mail address for ${escapeHtml(shopName)}.`,
      ],
      button: { label: "Verify my e-mail", url },
      after: [`If you did not create an account at ${escapeHtml(shopName)}, you can ignore this e-mail.`],
      reason,
    }),
  };
}

export function passwordResetEmail({
  shopName,
  name,
  url,
  expiresInMinutes,
}: {
  shopName: string;
  name: string;
  url: string;
  expiresInMinutes: number;
}): MailContent {
  const minutes = `${expiresInMinutes} minute${expiresInMinutes === 1 ? "" : "s"}`;
  const reason = `someone asked to reset the password of your ${shopName} account.`;
  return {
    subject: `Reset your ${oneLine(shopName)} password`,
    text: renderText(
      [
        `Hello ${name},`,
        `Someone asked to reset the password of your ${shopName} account. To choose a new password, open this link:`,
        url,
        `The link works once and expires in ${minutes}.`,
        `If you did not ask for this, ignore this e-mail; your password stays as it is.`,
      ],
      reason,
      shopName,
    ),
    html: renderHtml({
      shopName,
      paragraphs: [
        `Hello ${escapeHtml(name)},`,
        `Someone asked to reset the password of your ${escapeHtml(shopName)} account. To choose a new password, use the button below.`,
      ],
      button: { label: "Choose a new password", url },
      after: [
        `The link works once and expires in ${escapeHtml(minutes)}.`,
        `If you did not ask for this, ignore this e-mail; your password stays as it is.`,
      ],
      reason,
    }),
  };
}

/**
 * To the owner of an address someone tried to sign up with again: the sign-up answer does not say the address
 * has an account (decision 015), so the owner is told here, with the ways back in.
 */
export function existingAccountEmail({
  shopName,
  name,
  loginUrl,
  resetUrl,
}: {
  shopName: string;
  name: string;
  loginUrl: string;
  resetUrl: string;
}): MailContent {
  const reason = `someone tried to create an account at ${shopName} with this address.`;
  return {
    subject: `Someone tried to create a ${oneLine(shopName)} account with your e-mail`,
    text: renderText(
      [
        `Hello ${name},`,
        `Someone tried to create an account at ${shopName} with your e-mail address, which already has an account. We did not create a second one.`,
        `If it was you, log in:`,
        loginUrl,
        `If you have forgotten your password, reset it here:`,
        resetUrl,
        `If it was not you, ignore this e-mail; your account stays as it is.`,
      ],
      reason,
      shopName,
    ),
    html: renderHtml({
      shopName,
      paragraphs: [
        `Hello ${escapeHtml(name)},`,
        `Someone tried to create an account at ${escapeHtml(shopName)} with your e-mail address, which already has an account. We did not create a second one.`,
        `If it was you, log in.`,
      ],
      button: { label: "Log in", url: loginUrl },
      after: [
        `If you have forgotten your password, <a href="${escapeHtml(resetUrl)}" style="color:${BRAND_GREEN};">reset it here</a>.`,
        `If it was not you, ignore this e-mail; your account stays as it is.`,
      ],
      reason,
    }),
  };
}

export function passwordChangedEmail({ shopName, name }: { shopName: string; name: string }): MailContent {
  const reason = `the password of your ${shopName} account was changed.`;
  return {
    subject: `Your ${oneLine(shopName)} password was changed`,
    text: renderText(
      [
        `Hello ${name},`,
        `The password of your ${shopName} account was just changed.`,
        `If that was you, there is nothing more to do. If it was not you, reset your password at once with "Forgot password?" on the sign-in page, and check your account.`,
      ],
      reason,
      shopName,
    ),
    html: renderHtml({
      shopName,
      paragraphs: [
        `Hello ${escapeHtml(name)},`,
        `The password of your ${escapeHtml(shopName)} account was just changed.`,
        `If that was you, there is nothing more to do. If it was not you, reset your password at once with <strong>Forgot password?</strong> on the sign-in page, and check your account.`,
      ],
      reason,
    }),
  };
}

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

export interface OrderMailDetails {
  shopName: string;
  name: string;
  orderNumber: string;
  url: string;
  lines: { name: string; quantity: number; lineTotal: string }[];
  subtotal: string;
  shipping: string;
  total: string;
  address: string;
}

const ORDER_NEWS = {
  placed: { subject: "Order {n} is placed", headline: "Thank you for your order! We will pack your plants with care." },
  shipped: { subject: "Order {n} has shipped", headline: "Good news: your plants are on their way." },
  cancelled: { subject: "Order {n} is cancelled", headline: "Your order has been cancelled. Nothing will be delivered or charged." },
} as const;

/** An order's news for its customer — placed, shipped or cancelled — with its lines and totals. */
export function orderEmail(kind: keyof typeof ORDER_NEWS, order: OrderMailDetails): MailContent {
  const news = ORDER_NEWS[kind];
  const reason = `you placed order ${order.orderNumber} at ${order.shopName}.`;
  const lineText = order.lines.map((line) => `${line.quantity} × ${line.name}: ${line.lineTotal}`);
  const totals = [`Subtotal: ${order.subtotal}`, `Shipping: ${order.shipping}`, `Total: ${order.total}`];
  return {
    subject: news.subject.replace("{n}", oneLine(order.orderNumber)),
    text: renderText(
      [`Hello ${order.name},`, news.headline, lineText.join("\n"), totals.join("\n"), `Delivery address:\n${order.address}`, order.url],
      reason,
      order.shopName,
    ),
    html: renderHtml({
      shopName: order.shopName,
      paragraphs: [
        `Hello ${escapeHtml(order.name)},`,
        escapeHtml(news.headline),
        lineText.map(escapeHtml).join("<br>\n"),
        totals.map(escapeHtml).join("<br>\n"),
        `<strong>Delivery address</strong><br>\n${escapeMultiline(order.address)}`,
      ],
      button: { label: `See order ${order.orderNumber}`, url: order.url },
      reason,
    }),
  };
}
