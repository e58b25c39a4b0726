import { format } from "node:util";
import type { Logger } from "pino";
import { currentRequestScope } from "./event-log.ts";

/**
 * Sends what libraries print with console.error and console.warn (React Router warns of a URL it cannot decode,
 * for instance) through the logger, so that every line the server writes is one JSON object, carrying the request
 * id when it was printed while a request ran. Answers a function that puts the console back.
 */
export function routeConsoleToLog(logger: Logger): () => void {
  const { error, warn } = console;
  const write = (level: "error" | "warn", args: unknown[]) => {
    const scope = currentRequestScope();
    logger[level]({ source: "console", ...(scope ? { requestId: scope.requestId } : {}) }, format(...args));
  };
  console.error = (...args: unknown[]) => write("error", args);
  console.warn = (...args: unknown[]) => write("warn", args);
  return () => {
    console.error = error;
    console.warn = warn;
  };
}
