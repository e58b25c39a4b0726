import { AsyncLocalStorage } from "node:async_hooks";
import type { Logger } from "pino";

/** Who a request is: set once per request by the HTTP layer, read by every event logged while it runs. */
export interface RequestScope {
  requestId: string;
  clientIp: string | null;
  /** The signed-in account, once the request's session has been looked up. */
  accountId: string | null;
}

// AsyncLocalStorage, so that a service deep in a call can name the request, address and account without every
// signature carrying them (docs/decisions/014-abuse-limits-and-operator-logs.md).
const scopes = new AsyncLocalStorage<RequestScope>();

export function runInRequestScope<T>(scope: RequestScope, work: () => T): T {
  return scopes.run(scope, work);
}

/** The running request's scope, if any (undefined for start-up, the admin command and background work). */
export function currentRequestScope(): RequestScope | undefined {
  return scopes.getStore();
}

/**
 * Names of the events an operator can filter the log on (`event` field), each with what it means. The platform
 * declares its own; each module adds its events by declaration merging (its `events.ts`), so the platform names no
 * feature and an event is declared beside the code that logs it.
 */
export interface EventNames {
  /** A rate limit refused a request (which rule, which key). */
  "limit.hit": true;
  /** A request was refused for who is asking (401/403). */
  "authorization.refused": true;
}

export type EventName = keyof EventNames;

export type EventLog = ReturnType<typeof createEventLog>;

/**
 * Structured events for operators: one JSON line each, with `event`, the request id, client address and account
 * id of the request it happened in. Callers pass ids and names, never passwords, tokens or cookies.
 */
export function createEventLog(logger: Logger) {
  const write = (level: "info" | "warn", event: EventName, fields: Record<string, unknown>) => {
    const scope = currentRequestScope();
    logger[level]({ event, requestId: scope?.requestId ?? null, clientIp: scope?.clientIp ?? null, accountId: scope?.accountId ?? null, ...fields }, event);
  };
  return {
    info: (event: EventName, fields: Record<string, unknown> = {}) => write("info", event, fields),
    warn: (event: EventName, fields: Record<string, unknown> = {}) => write("warn", event, fields),
  };
}
