import { pino, type Logger } from "pino";

/**
 * The server process's logger. Its lines go out through an asynchronous destination (docs/decisions/027): pino's
 * default writes each line with a blocking write(2), so every request's log line held the event loop while the
 * terminal or pipe took it; here a line is queued and written by the next free write, lines piling up while one is
 * under way going out together. Nothing is sampled: every request, error and write is still a line. `flush()`
 * writes what is queued before the process exits, so the last lines (the shutdown, a failure) are not lost.
 */
export function createProcessLogger(level: string, dest: number | string = 1): { logger: Logger; flush(): void } {
  const destination = pino.destination({ dest, sync: false });
  const logger = pino({ level }, destination);
  return {
    logger,
    flush() {
      try {
        destination.flushSync();
      } catch {
        // Nothing written yet (the stream is still opening): nothing to lose.
      }
    },
  };
}
