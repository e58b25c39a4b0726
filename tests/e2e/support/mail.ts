import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { extractLinks, waitForSpooledMail, type CapturedMail } from "../../support/smtp-capture.ts";

// The e-mails the e2e server sent over SMTP, as the capture of global-setup.ts spooled them.

function spoolDir(): string {
  const dir = process.env.E2E_MAIL_DIR;
  if (!dir) throw new Error("E2E_MAIL_DIR is set by playwright.config.ts");
  return dir;
}

export type MailLinkPath = "/verify" | "/reset-password" | "/account/email/confirm" | "/login/link";

function linkTo(mail: CapturedMail, linkPath: MailLinkPath): string | undefined {
  return extractLinks(mail.text).find((link) => new URL(link).pathname === linkPath && new URL(link).searchParams.has("token"));
}

function isMailWithLink(mail: CapturedMail, email: string, linkPath: MailLinkPath): boolean {
  return mail.to.includes(email) && linkTo(mail, linkPath) !== undefined;
}

/** Every mail spooled so far, oldest first. */
function spooledMails(): CapturedMail[] {
  const dir = spoolDir();
  return readdirSync(dir)
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((name) => JSON.parse(readFileSync(path.join(dir, name), "utf8")) as CapturedMail);
}

/** Every mail to `email` with a link to `linkPath` spooled so far (to tell a later one from them). */
export function mailsWithLink(email: string, linkPath: MailLinkPath): CapturedMail[] {
  return spooledMails().filter((mail) => isMailWithLink(mail, email, linkPath));
}

/**
 * The link to `linkPath` in the newest mail to `email`; with `notBefore`, only a mail that is not one of
 * those (so a mail sent after they were collected).
 */
export async function linkFromMail(email: string, linkPath: MailLinkPath, notBefore: CapturedMail[] = []): Promise<string> {
  const seen = new Set(notBefore.map((mail) => mail.raw));
  const mail = await waitForSpooledMail(spoolDir(), (m) => isMailWithLink(m, email, linkPath) && !seen.has(m.raw));
  const link = linkTo(mail, linkPath);
  if (!link) throw new Error(`no ${linkPath} link in the mail to ${email}`);
  return link;
}

/** Waits for the e-mail with exactly this subject to `email` (the server sends order mails over SMTP). */
export function mailWithSubject(email: string, subject: string): Promise<CapturedMail> {
  return waitForSpooledMail(spoolDir(), (mail) => mail.to.includes(email) && mail.subject === subject);
}

/** How many e-mails with exactly this subject went to `email` so far. */
export function countMailsWithSubject(email: string, subject: string): number {
  return spooledMails().filter((mail) => mail.to.includes(email) && mail.subject === subject).length;
}


/** The first mail to `email` whose subject matches, spooled already or arriving soon. */
export function mailWithSubjectMatching(email: string, subject: RegExp): Promise<CapturedMail> {
  return waitForSpooledMail(spoolDir(), (mail) => mail.to.includes(email) && subject.test(mail.subject));
}
