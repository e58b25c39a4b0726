import { format } from "node:util";
import type { Logger } from "pino";
import { currentRequestScope } from "./event-log.ts";

/**
 * Sends what libraries print on the console (React Router warns of a URL it cannot decode; the HTTP server says
 * "The user aborted a request.") through the logger, so that every line the server writes is one JSON object,
 * carrying the request id when it was printed while a request ran. Answers a function that puts the console back.
 */
export function routeConsoleToLog(logger: Logger): () => void {
  // Replaced as a whole object's fields: this code prints nothing itself, it takes printing away from others.
  const { error, warn, info, log } = console;
  const to = (level: "error" | "warn" | "info") => (...args: unknown[]) => {
    const scope = currentRequestScope();
    logger[level]({ source: "console", ...(scope ? { requestId: scope.requestId } : {}) }, format(...args));
  };
  Object.assign(console, { error: to("error"), warn: to("warn"), info: to("info"), log: to("info") });
  return () => {
    Object.assign(console, { error, warn, info, log });
  };
}
