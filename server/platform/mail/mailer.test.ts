import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { simpleParser } from "mailparser";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startSmtpCapture, type SmtpCapture } from "../../../tests/support/smtp-capture.ts";
import { createMailer, extractLinks, type Mailer, type MailMessage } from "./mailer.ts";

// A display name that must be encoded (non-ASCII) and quoted ("&", ".") in the header.
const FROM = "Ānanda & Co. Plants <shop@example.com>";

const message: MailMessage = {
  to: "ananda@example.com",
  subject: "Ānanda, your ferns & succulents",
  text: "Hello Ānanda,\n\nVerify here: https://shop.example/verify?token=abc&next=%2F.\n\nBye",
  html: '<p>Hello Ānanda,</p><p><a href="https://shop.example/verify?token=abc&amp;next=%2F">Verify</a> — ferns &amp; succulents</p>',
};

describe("SMTP adapter", () => {
  let capture: SmtpCapture;
  let mailer: Mailer | undefined;

  beforeEach(async () => {
    capture = await startSmtpCapture();
  });

  afterEach(async () => {
    await mailer?.close();
    mailer = undefined;
    await capture.close();
  });

  it("delivers from, to, subject, text and html intact", async () => {
    mailer = createMailer({ smtpUrl: capture.url, from: FROM, outboxDir: "/nonexistent" });
    expect(mailer.kind).toBe("smtp");

    await mailer.send(message);
    const mail = await capture.waitFor((m) => m.to.includes("ananda@example.com"));

    expect(mail.from).toBe(FROM);
    expect(mail.to).toEqual(["ananda@example.com"]);
    expect(mail.subject).toBe(message.subject);
    expect(mail.text.trimEnd()).toBe(message.text);
    expect(mail.html).toBe(message.html);
    // Encoded on the wire, not sent as raw 8-bit text.
    expect(mail.raw).not.toContain("Ānanda");
    expect(capture.messages).toHaveLength(1);
  });

  it("accepts credentials in the URL", async () => {
    const url = capture.url.replace("smtp://", "smtp://shop%40example.com:s3cret@");
    mailer = createMailer({ smtpUrl: url, from: FROM, outboxDir: "/nonexistent" });

    await mailer.send({ ...message, to: "someone@example.com", subject: "With auth" });

    const mail = await capture.waitFor((m) => m.subject === "With auth");
    expect(mail.to).toEqual(["someone@example.com"]);
  });

  it("waitFor finds a message received earlier, and names the subjects it saw when none matches", async () => {
    mailer = createMailer({ smtpUrl: capture.url, from: FROM, outboxDir: "/nonexistent" });
    await mailer.send({ ...message, subject: "First" });
    await capture.waitFor((m) => m.subject === "First");

    const later = capture.waitFor((m) => m.subject === "Second");
    await mailer.send({ ...message, subject: "Second" });
    expect((await later).subject).toBe("Second");
    expect((await capture.waitFor((m) => m.subject === "First", 10)).subject).toBe("First");

    await expect(capture.waitFor((m) => m.subject === "Third", 50)).rejects.toThrow(
      'No matching e-mail arrived within 50 ms. Received 2: "First", "Second".',
    );
  });

  it("rejects when the SMTP server cannot be reached", async () => {
    const closed = await startSmtpCapture();
    await closed.close();
    mailer = createMailer({ smtpUrl: closed.url, from: FROM, outboxDir: "/nonexistent" });

    await expect(mailer.send(message)).rejects.toThrow(/ECONNREFUSED|connect/i);
  });
});

describe("outbox adapter", () => {
  let folder: string;

  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), "plant-shop-outbox-"));
  });

  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it("writes a parseable .eml file and answers its path", async () => {
    const outboxDir = path.join(folder, "outbox"); // not there yet
    const mailer = createMailer({ from: FROM, outboxDir });
    expect(mailer.kind).toBe("outbox");

    const sent = await mailer.send(message);
    await mailer.close();

    const files = await readdir(outboxDir);
    expect(files).toHaveLength(1);
    const [name = ""] = files;
    expect(name).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z-[0-9a-f]{8}\.eml$/);

    const raw = await readFile(path.join(outboxDir, name));
    expect(raw.includes("\r\n")).toBe(false);
    const parsed = await simpleParser(raw);
    expect(parsed.from?.value).toEqual([{ name: "Ānanda & Co. Plants", address: "shop@example.com" }]);
    expect(parsed.subject).toBe(message.subject);
    expect(parsed.text?.trimEnd()).toBe(message.text);
    expect(parsed.html).toBe(message.html);
    expect(parsed.messageId).toMatch(/^<.+@.+>$/);

    expect(sent).toEqual({ file: path.join(outboxDir, name) });
  });

  it("gives every message a file of its own", async () => {
    const mailer = createMailer({ smtpUrl: undefined, from: FROM, outboxDir: folder });

    await Promise.all([1, 2, 3].map((n) => mailer.send({ ...message, subject: `Message ${n}` })));

    const files = (await readdir(folder)).filter((file) => file.endsWith(".eml"));
    expect(files).toHaveLength(3);
    expect(await readdir(folder)).toHaveLength(3); // no temporary files left behind
  });
});

describe("extractLinks", () => {
  it("finds http(s) links without the punctuation around them", () => {
    expect(
      extractLinks(
        "Open https://a.example/x?y=1&z=2. Or (http://b.example/path), see https://en.wikipedia.org/wiki/Fern_(plant)! mailto:x@example.com",
      ),
    ).toEqual(["https://a.example/x?y=1&z=2", "http://b.example/path", "https://en.wikipedia.org/wiki/Fern_(plant)"]);
    expect(extractLinks("no links here")).toEqual([]);
  });
});
