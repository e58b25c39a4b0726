import { describe, expect, it } from "vitest";
import { captureLogs } from "../../tests/support/log-capture.ts";
import { createBackgroundMail } from "./background-mail.ts";
import type { Mailer, MailMessage } from "./mailer.ts";

const message: MailMessage = { to: "asha@example.com", subject: "Order PS-1 is placed", text: "Thank you", html: "<p>Thank you</p>" };

/** A mailer whose sends are settled by the test: each call waits for `outcomes` to say how it ends. */
function scriptedMailer() {
  const sent: MailMessage[] = [];
  const pending: { settle: (error?: Error) => void }[] = [];
  const arrivals: (() => void)[] = [];
  const mailer: Mailer = {
    kind: "smtp",
    send: (mail) =>
      new Promise<void>((resolve, reject) => {
        pending.push({
          settle: (error) => {
            if (error) return reject(error);
            sent.push(mail);
            resolve();
          },
        });
        arrivals.shift()?.();
      }),
    close: async () => undefined,
  };
  /** The next send attempt, once it has been made. */
  const nextAttempt = async () => {
    if (!pending.length) await new Promise<void>((resolve) => arrivals.push(resolve));
    return pending.shift()!;
  };
  return { mailer, sent, nextAttempt };
}

const settled = (promise: Promise<unknown>) => {
  let done = false;
  void promise.then(() => (done = true));
  return () => done;
};

describe("background mail", () => {
  it("retries a failed mail with backoff and logs every failure with what it was about", async () => {
    const { mailer, sent, nextAttempt } = scriptedMailer();
    const logs = captureLogs();
    const mail = createBackgroundMail({ mailer, logger: logs.logger, retryDelaysMs: [1, 1, 1] });
    mail.send({ orderId: "order-1", kind: "placed" }, () => message);

    (await nextAttempt()).settle(new Error("421 try later"));
    (await nextAttempt()).settle(new Error("connection reset"));
    (await nextAttempt()).settle();
    await mail.drain(5_000);

    expect(sent).toEqual([message]);
    const failures = logs.lines.filter((line) => line.msg === "e-mail could not be sent");
    expect(failures.map((line) => [line.orderId, line.kind, line.attempt, line.willRetry])).toEqual([
      ["order-1", "placed", 1, true],
      ["order-1", "placed", 2, true],
    ]);
    expect(failures.map((line) => (line.err as { message: string }).message)).toEqual(["421 try later", "connection reset"]);
  });

  it("gives up after the last retry, saying so in the log", async () => {
    const { mailer, sent, nextAttempt } = scriptedMailer();
    const logs = captureLogs();
    const mail = createBackgroundMail({ mailer, logger: logs.logger, retryDelaysMs: [1, 1] });
    mail.send({ orderId: "order-2" }, () => message);
    for (let i = 0; i < 3; i++) (await nextAttempt()).settle(new Error("550 mailbox unavailable"));
    await mail.drain(5_000);

    expect(sent).toEqual([]);
    expect(logs.lines.map((line) => [line.orderId, line.attempt, line.willRetry])).toEqual([
      ["order-2", 1, true],
      ["order-2", 2, true],
      ["order-2", 3, false],
    ]);
  });

  it("makes shutdown wait for a mail in flight, and cuts the waits between retries short", async () => {
    const { mailer, sent, nextAttempt } = scriptedMailer();
    const logs = captureLogs();
    // An hour between attempts: only the shutdown can make the retry happen now.
    const mail = createBackgroundMail({ mailer, logger: logs.logger, retryDelaysMs: [3_600_000] });
    mail.send({ orderId: "order-3" }, () => message);
    (await nextAttempt()).settle(new Error("timeout"));
    await logs.waitFor((line) => line.orderId === "order-3" && line.attempt === 1);

    const drained = mail.drain(60_000);
    const isDrained = settled(drained);
    const retry = await nextAttempt();
    await new Promise((resolve) => setImmediate(resolve));
    expect(isDrained()).toBe(false);
    retry.settle();
    await drained;
    expect(sent).toEqual([message]);
  });

  it("stops waiting at shutdown after the time it is given, and says how many mails are left unsent", async () => {
    const { mailer, nextAttempt } = scriptedMailer();
    const logs = captureLogs();
    const mail = createBackgroundMail({ mailer, logger: logs.logger });
    mail.send({ orderId: "order-4" }, () => message);
    const stuck = await nextAttempt();

    await mail.drain(20);
    expect(await logs.waitFor((line) => line.msg === "shutting down with e-mails still unsent")).toMatchObject({ unsent: 1 });
    stuck.settle();
  });
});
