// The accounts module's e-mails (verification, reset, notices), on the shared layout.
import { BRAND_GREEN, escapeHtml, type MailContent, oneLine, renderHtml, renderText } from "../../platform/mail/mail-layout.ts";

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

/**
 * The code sign-in needs once an account has seen many wrong passwords from anywhere (decision 014): sent only to
 * someone who typed the right password, so it also tells the owner their password may be known.
 */
export function signInCodeEmail({ shopName, name, code, expiresInMinutes }: { shopName: string; name: string; code: string; expiresInMinutes: number }): MailContent {
  const reason = `someone typed the password of your ${shopName} account while many wrong ones were being tried.`;
  const intro = `Many wrong passwords were tried on your ${shopName} account, so logging in now also needs this code:`;
  const after = [
    `Enter it on the login page with your password. It works once and expires in ${expiresInMinutes} minutes.`,
    `If you did not just try to log in, someone knows your password: choose a new one with "Forgot your password?" on the login page.`,
  ];
  return {
    subject: `Your ${oneLine(shopName)} sign-in code: ${code}`,
    text: renderText([`Hello ${name},`, intro, code, ...after], reason, shopName),
    html: renderHtml({
      shopName,
      paragraphs: [
        `Hello ${escapeHtml(name)},`,
        escapeHtml(intro),
        `<strong style="font-size:24px;letter-spacing:4px;">${escapeHtml(code)}</strong>`,
        ...after.map((line) => escapeHtml(line)),
      ],
      reason,
    }),
  };
}
