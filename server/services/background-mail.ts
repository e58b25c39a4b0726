import type { Logger } from "pino";
import type { Mailer, MailMessage } from "./mailer.ts";

/** Waits before the second, third and fourth attempt; after the fourth failure the mail is given up. */
export const MAIL_RETRY_DELAYS_MS = [2_000, 15_000, 60_000];

/**
 * E-mails that go out after the answer (order news, docs/decisions/009): a slow or dead SMTP server never holds
 * up a checkout or an admin's click. A failed mail is tried again with growing waits, and every failure is
 * logged with what the mail was about. It lives in memory: a process killed outright loses what is unsent.
 */
export interface BackgroundMail {
  /** Composes and sends the message in the background, retrying on failure; never throws. */
  send(about: Record<string, unknown>, compose: () => MailMessage): void;
  /** Waits for the mails in flight (the waits between retries cut short), for at most `timeoutMs`. */
  drain(timeoutMs: number): Promise<void>;
}

export function createBackgroundMail({ mailer, logger, retryDelaysMs = MAIL_RETRY_DELAYS_MS }: { mailer: Mailer; logger: Logger; retryDelaysMs?: readonly number[] }): BackgroundMail {
  const inFlight = new Set<Promise<void>>();
  const sleepers = new Set<() => void>();
  let draining = false;

  /** A wait between attempts that ends at once when the server shuts down. */
  function pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (draining) return resolve();
      const wake = () => {
        clearTimeout(timer);
        sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      sleepers.add(wake);
    });
  }

  async function deliver(about: Record<string, unknown>, compose: () => MailMessage): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await mailer.send(compose());
        return;
      } catch (error) {
        const retryIn = retryDelaysMs[attempt - 1];
        logger.error({ err: error, ...about, attempt, willRetry: retryIn !== undefined }, "e-mail could not be sent");
        if (retryIn === undefined) return;
        await pause(retryIn);
      }
    }
  }

  return {
    send(about, compose) {
      const job: Promise<void> = deliver(about, compose).finally(() => inFlight.delete(job));
      inFlight.add(job);
    },

    async drain(timeoutMs) {
      draining = true;
      for (const wake of [...sleepers]) wake();
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<true>((resolve) => (timer = setTimeout(() => resolve(true), timeoutMs)));
      const late = await Promise.race([Promise.all(inFlight).then(() => false as const), timedOut]);
      clearTimeout(timer);
      if (late) logger.warn({ unsent: inFlight.size }, "shutting down with e-mails still unsent");
    },
  };
}
