import type { Logger } from "pino";

/** One thing shutdown closes: its name for the log, how to close it, and by when (ms since the epoch). */
export interface Closing {
  name: string;
  close: () => Promise<unknown>;
  by: number;
}

/**
 * Closes each in turn, waiting for each at most until its own deadline: one that has not finished by then (a
 * database that does not answer, a socket that hangs) is abandoned, logged by name, and the next is closed all the
 * same, so that shutdown ends within its budget whatever hangs and the process can exit. A close that fails is
 * logged and counts as done. Answers the names of those abandoned.
 */
export async function closeWithin(closings: Closing[], logger: Logger, now: () => number = Date.now): Promise<string[]> {
  const abandoned: string[] = [];
  for (const { name, close, by } of closings) {
    let timer: NodeJS.Timeout | undefined;
    const outOfTime = new Promise<"abandoned">((resolve) => (timer = setTimeout(() => resolve("abandoned"), Math.max(0, by - now()))));
    const closed = Promise.resolve()
      .then(close)
      .then(
        () => "closed" as const,
        (error: unknown) => {
          logger.error({ err: error, closing: name }, "shutdown: could not close");
          return "closed" as const;
        },
      );
    const outcome = await Promise.race([closed, outOfTime]);
    clearTimeout(timer);
    if (outcome === "abandoned") abandoned.push(name);
  }
  if (abandoned.length) logger.warn({ abandoned }, `shutdown budget spent: abandoned ${abandoned.join(", ")}`);
  return abandoned;
}
