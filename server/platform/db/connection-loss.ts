import type { Logger } from "pino";
import { messages } from "#common/shared/messages.ts";
import { ServiceUnavailableError } from "../errors.ts";

/** How long a client is asked to wait before trying again while the database is away (a restart takes seconds). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * PostgreSQL's codes for a connection it ended or would not open: 57P01 administrator command (a restart, a
 * failover, pg_terminate_backend), 57P02 crash shutdown, 57P03 cannot connect now (starting up, in recovery),
 * 57P05 idle-session timeout, 53300 too many connections; class 08 is the SQL standard's connection exceptions.
 */
const LOST_CODES = new Set(["57P01", "57P02", "57P03", "57P05", "53300"]);

/** The socket's own failures: refused, reset, timed out, no route, no such host. */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EHOSTDOWN", "ENOTFOUND", "EAI_AGAIN"]);

/**
 * node-postgres's words for a connection that ended under a query, or a client it will no longer use; and the
 * pool's, for a connection it could not get in time (connectionTimeoutMillis).
 */
const LOST_MESSAGES = [
  /^Connection terminated/,
  /^Client has encountered a connection error and is not queryable$/,
  /^timeout exceeded when trying to connect$/,
];

/**
 * True when `error` says the connection to the database is gone or could not be opened, and so the same work
 * may well succeed in a moment; false for everything else (a constraint, a syntax error, a bad value), which
 * stays the defect or refusal it is.
 */
export function isConnectionLoss(error: unknown): boolean {
  if (error instanceof DatabaseUnavailableError) return true;
  if (typeof error !== "object" || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && (LOST_CODES.has(code) || code.startsWith("08") || SOCKET_CODES.has(code))) return true;
  const message = (error as { message?: unknown }).message;
  return typeof message === "string" && LOST_MESSAGES.some((pattern) => pattern.test(message));
}

/**
 * The database could not be reached for this request: answered 503 with Retry-After and a message for people
 * (server/platform/http/errors.ts), never a 500. `cause` keeps what node-postgres said, for the log.
 */
export class DatabaseUnavailableError extends ServiceUnavailableError {
  constructor(cause: unknown) {
    super(messages.briefOutage.message, DATABASE_RETRY_AFTER_SECONDS);
    this.cause = cause;
  }
}

/** How often, at most, a continuing outage is logged (with the number of failures meanwhile). */
const OUTAGE_LOG_EVERY_MS = 30_000;

/**
 * Reports an outage to the log without flooding it: its first failure at warn, then one line every
 * OUTAGE_LOG_EVERY_MS with the count since the last, and one line when a connection succeeds again.
 */
export function outageReporter(logger: Logger | undefined, now: () => number = Date.now) {
  let down = false;
  let lastLine = 0;
  let since = 0;
  return {
    failed(error: unknown) {
      since++;
      if (down && now() - lastLine < OUTAGE_LOG_EVERY_MS) return;
      logger?.warn({ err: error, failures: since }, down ? "database still unreachable" : "database unreachable: requests that need it answer 503 until it is back");
      down = true;
      lastLine = now();
      since = 0;
    },
    succeeded() {
      if (!down) return;
      down = false;
      logger?.info({ failuresSinceLastLine: since }, "database reachable again");
      since = 0;
    },
  };
}
