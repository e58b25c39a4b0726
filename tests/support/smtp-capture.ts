// A real SMTP server on the loopback interface that keeps every message it receives, for tests that check
// what the shop sends. Plain Node (no test-runner imports), so Vitest and Playwright tests can both use it.
import { readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { simpleParser, type AddressObject } from "mailparser";
import { SMTPServer } from "smtp-server";

export { extractLinks } from "../../server/platform/mail/mailer.ts";

export interface CapturedMail {
  /** The From header, decoded and unquoted: `Plant Shop <shop@example.com>`, or the bare address. */
  from: string;
  /** The envelope recipients (RCPT TO), the addresses the message was delivered to. */
  to: string[];
  subject: string;
  text: string;
  html: string;
  /**
   * The message's headers by lower-case name (the first of a name given twice), each value as written after the
   * colon, unfolded: what a mail program reads, with no decoding of its own.
   */
  headers: Record<string, string>;
  /** The message as received, headers and encoded body. */
  raw: string;
}

export interface SmtpCapture {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  /** Every message received so far, oldest first. */
  messages: CapturedMail[];
  /** The first message, received already or arriving within `timeoutMs` (default 10 s), that matches. */
  waitFor(predicate: (mail: CapturedMail) => boolean, timeoutMs?: number): Promise<CapturedMail>;
  close(): Promise<void>;
}

interface Waiter {
  predicate: (mail: CapturedMail) => boolean;
  resolve: (mail: CapturedMail) => void;
  reject: (error: Error) => void;
}

const DEFAULT_TIMEOUT_MS = 10_000;

export interface CaptureOptions {
  /** Fixed port (the browser tests' server is configured before the capture starts); 0 picks a free one. */
  port?: number;
  /** Also write each message as JSON into this folder, for test processes other than this one (readMailSpool). */
  spoolDir?: string;
}

export async function startSmtpCapture({ port: wantedPort = 0, spoolDir }: CaptureOptions = {}): Promise<SmtpCapture> {
  const messages: CapturedMail[] = [];
  const waiters = new Set<Waiter>();

  function settle(waiter: Waiter, mail: CapturedMail): boolean {
    let matches: boolean;
    try {
      matches = waiter.predicate(mail);
    } catch (error) {
      waiter.reject(error instanceof Error ? error : new Error(String(error)));
      return true;
    }
    if (matches) waiter.resolve(mail);
    return matches;
  }

  function receive(mail: CapturedMail): void {
    messages.push(mail);
    if (spoolDir) {
      // Written under another name, then renamed: a reader in another process polling the folder sees a mail whole
      // or not at all, never a file still being written.
      const file = path.join(spoolDir, `${String(messages.length).padStart(6, "0")}.json`);
      writeFileSync(`${file}.partial`, JSON.stringify(mail));
      renameSync(`${file}.partial`, file);
    }
    for (const waiter of [...waiters]) {
      if (settle(waiter, mail)) waiters.delete(waiter);
    }
  }

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    // A pooled client that is never closed would otherwise hold close() up for 30 seconds.
    closeTimeout: 500,
    maxAllowedUnauthenticatedCommands: false,
    onAuth(_auth, _session, callback) {
      callback(null, { user: "test" });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("error", (error: Error) => callback(error));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw).then(
          (parsed) => {
            receive({
              from: addressText(parsed.from),
              to: session.envelope.rcptTo.map((recipient) => recipient.address),
              subject: parsed.subject ?? "",
              text: parsed.text ?? "",
              html: parsed.html === false ? "" : parsed.html,
              headers: headersOf(parsed.headerLines),
              raw: raw.toString("utf8"),
            });
            callback();
          },
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
        );
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(wantedPort, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  // An error after start-up (a client dropping its connection) must not crash the test process.
  server.on("error", () => {});
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitFor(predicate, timeoutMs = DEFAULT_TIMEOUT_MS) {
      return new Promise<CapturedMail>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          const subjects = messages.map((mail) => JSON.stringify(mail.subject));
          reject(
            new Error(
              `No matching e-mail arrived within ${timeoutMs} ms. ` +
                (subjects.length === 0
                  ? "No e-mail was received at all."
                  : `Received ${subjects.length}: ${subjects.join(", ")}.`),
            ),
          );
        }, timeoutMs);
        const waiter: Waiter = {
          predicate,
          resolve: (mail) => {
            clearTimeout(timer);
            resolve(mail);
          },
          reject: (error) => {
            clearTimeout(timer);
            reject(error);
          },
        };
        for (const mail of messages) {
          if (settle(waiter, mail)) return;
        }
        waiters.add(waiter);
      });
    },
    close() {
      for (const waiter of waiters) waiter.reject(new Error("The SMTP capture server was closed"));
      waiters.clear();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function headersOf(lines: readonly { key: string; line: string }[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { key, line } of lines) {
    // A long header goes on over lines that start with white space; unfolding drops only the line breaks (RFC 5322).
    const unfolded = line.replace(/\r?\n(?=[ \t])/g, "");
    headers[key] ??= unfolded.slice(unfolded.indexOf(":") + 1).trim();
  }
  return headers;
}

function addressText(address: AddressObject | AddressObject[] | undefined): string {
  if (address === undefined) return "";
  return (Array.isArray(address) ? address : [address])
    .flatMap((entry) => entry.value)
    .map(({ name, address: email = "" }) => (name ? `${name} <${email}>` : email))
    .join(", ");
}

/** The messages a capture in another process spooled to `spoolDir`, polled until one matches. */
export async function waitForSpooledMail(
  spoolDir: string,
  predicate: (mail: CapturedMail) => boolean,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<CapturedMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = readdirSync(spoolDir)
      .filter((name) => name.endsWith(".json"))
      .sort()
      .map((name) => JSON.parse(readFileSync(path.join(spoolDir, name), "utf8")) as CapturedMail);
    const found = mails.filter(predicate).at(-1);
    if (found) return found;
    if (Date.now() > deadline) {
      throw new Error(`No matching e-mail arrived within ${timeoutMs} ms. Received: ${mails.map((m) => JSON.stringify(m.subject)).join(", ") || "none"}.`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
