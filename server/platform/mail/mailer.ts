// The e-mail gateway: one interface, two adapters. With SMTP_URL messages go to that SMTP server; without
// it each message is written as an .eml file to the outbox folder, which the mail worker names in the log (never
// the links inside: they carry tokens), so a person running the shop without a mail server can open it.
// Services never call this directly: they queue mail in the outbox table (./mail-outbox.ts).
import { randomBytes } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Headers beside the usual ones, by name (a back-in-stock mail's List-Unsubscribe); each value one line. */
  headers?: Readonly<Record<string, string>> | undefined;
}

export interface SentMail {
  /** The .eml file the message was written to (outbox folder only). */
  file?: string;
}

export interface Mailer {
  /** Delivers (SMTP) or stores (outbox folder: answers the file) one message; rejects when that fails. */
  send(message: MailMessage): Promise<SentMail | void>;
  /** Closes the pooled SMTP connections; nothing to do for the outbox. */
  close(): Promise<void>;
  readonly kind: "smtp" | "outbox";
}

export interface MailerOptions {
  /** `smtp://user:pass@host:587`, `smtps://…`; unset: write to the outbox. */
  smtpUrl?: string | undefined;
  /** The From header, e.g. `Plant Shop <shop@example.com>`. */
  from: string;
  /** Folder of the outbox (created when missing). */
  outboxDir: string;
}

// Bounds for an unresponsive SMTP server; a `?connectionTimeout=…` in the URL overrides them.
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

export function createMailer(options: MailerOptions): Mailer {
  return options.smtpUrl ? createSmtpMailer(options.smtpUrl, options.from) : createOutboxMailer(options);
}

function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport({ pool: true, url: smtpUrl, ...SMTP_TIMEOUTS });
  return {
    kind: "smtp",
    async send(message) {
      await transport.sendMail({ from, ...message, headers: { ...message.headers } });
    },
    async close() {
      transport.close();
    },
  };
}

function createOutboxMailer({ from, outboxDir }: MailerOptions): Mailer {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    kind: "outbox",
    async send(message) {
      const info = await composer.sendMail({ from, ...message, headers: { ...message.headers } });
      const raw = info.message;
      if (!Buffer.isBuffer(raw)) throw new Error("nodemailer did not return the message as a buffer");
      await mkdir(outboxDir, { recursive: true, mode: 0o700 });
      const name = `${new Date().toISOString().replaceAll(":", "-")}-${randomBytes(4).toString("hex")}.eml`;
      const file = path.join(outboxDir, name);
      // Written under a temporary name first, so whoever watches the folder never reads half a message.
      const temporary = path.join(outboxDir, `.${name}.tmp`);
      try {
        await writeFile(temporary, raw, { flag: "wx", mode: 0o600 });
        await rename(temporary, file);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
      return { file };
    },
    async close() {},
  };
}

// Stops at white space and at characters that cannot be part of a link written in prose or markup.
const LINK = /\bhttps?:\/\/[^\s<>"'`]+/gi;
const SENTENCE_PUNCTUATION = ".,;:!?";
const BRACKETS: Record<string, string> = { ")": "(", "]": "[", "}": "{" };

/** The http(s) URLs in a text, in order, without the punctuation of the sentence around them (tests follow them). */
export function extractLinks(text: string): string[] {
  return Array.from(text.matchAll(LINK), ([match]) => trimLink(match));
}

function trimLink(link: string): string {
  for (;;) {
    const last = link.slice(-1);
    const opening = BRACKETS[last];
    // A closing bracket stays when the link opened it, e.g. https://en.wikipedia.org/wiki/Fern_(plant).
    const unbalanced = opening !== undefined && countOf(link, opening) < countOf(link, last);
    if (last === "" || (!SENTENCE_PUNCTUATION.includes(last) && !unbalanced)) return link;
    link = link.slice(0, -1);
  }
}

function countOf(text: string, character: string): number {
  return text.split(character).length - 1;
}
