import { pino, type Logger } from "pino";

export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

export interface LogCapture {
  logger: Logger;
  lines: LogLine[];
  /** The first line, logged already or within `timeoutMs` (default 10 s), that matches. */
  waitFor(predicate: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
}

/** A pino logger writing its JSON lines into memory, for tests that check what the server logged. */
export function captureLogs(): LogCapture {
  const lines: LogLine[] = [];
  const waiters = new Set<{ predicate: (line: LogLine) => boolean; resolve: (line: LogLine) => void }>();
  const logger = pino(
    { level: "info" },
    {
      write(text: string) {
        const line = JSON.parse(text) as LogLine;
        lines.push(line);
        for (const waiter of [...waiters]) {
          if (!waiter.predicate(line)) continue;
          waiters.delete(waiter);
          waiter.resolve(line);
        }
      },
    },
  );
  return {
    logger,
    lines,
    waitFor(predicate, timeoutMs = 10_000) {
      const found = lines.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = {
          predicate,
          resolve: (line: LogLine) => {
            clearTimeout(timer);
            resolve(line);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no matching log line within ${timeoutMs} ms; logged: ${lines.map((l) => l.msg).join(" | ")}`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
  };
}
