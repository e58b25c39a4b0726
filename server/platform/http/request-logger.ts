import { createMiddleware } from "hono/factory";
import type { Logger } from "pino";
import { createEventLog, runInRequestScope, type RequestScope } from "../event-log.ts";
import { clientIp } from "./client-ip.ts";
import type { PlatformEnv } from "./http-env.ts";

const QUIET_PATHS = /^\/(assets|illustrations|media)\/|^\/(healthz|readyz|favicon\.svg)$/;
// The auth library's reset link carries its token in the path; the log keeps only the route.
const TOKEN_IN_PATH = /^(\/api\/auth\/reset-password\/)[^/]+/;

/** What a request's log line says (the request id, method, path, status, time taken, client and account). */
export interface RequestLine {
  requestId: string;
  method: string;
  path: string;
  status: number;
  /** performance.now() when the request began. */
  started: number;
  clientIp: string | null;
  accountId: string | null;
}

/**
 * Writes a request's line, the same for the Hono chain and the front cache's hits: at debug for static files and
 * health checks, at info otherwise, with a reset token in the path cut out. Built only when its level is logged,
 * and without copying `line` (it is made for every request, a cached hit's too).
 */
export function logRequest(logger: Logger, line: RequestLine) {
  const { path } = line;
  const quiet = QUIET_PATHS.test(path);
  if (!logger.isLevelEnabled(quiet ? "debug" : "info")) return;
  const entry = {
    requestId: line.requestId,
    method: line.method,
    path: path.includes("/reset-password/") ? path.replace(TOKEN_IN_PATH, "$1:token") : path,
    status: line.status,
    ms: Math.round((performance.now() - line.started) * 10) / 10,
    clientIp: line.clientIp,
    accountId: line.accountId,
  };
  if (quiet) logger.debug(entry, "request");
  else logger.info(entry, "request");
}

/**
 * One log line per request, tagged with its request id (also sent back as X-Request-Id), client address and the
 * signed-in account; everything logged while the request runs carries the same (./services/event-log.ts). A
 * 401 or 403 answered to a signed-in person is also an `authorization.refused` event.
 */
export function requestLogger(logger: Logger) {
  const events = createEventLog(logger);
  return createMiddleware<PlatformEnv>(async (c, next) => {
    const started = performance.now();
    const scope: RequestScope = { requestId: c.get("requestId"), clientIp: clientIp(c), accountId: null };
    const log = logger.child({ requestId: scope.requestId });
    c.set("log", log);
    await runInRequestScope(scope, next);
    // Set here, after the handler: a Response made by React Router does not carry headers set before it.
    if (!c.res.headers.has("X-Request-Id")) c.res.headers.set("X-Request-Id", c.get("requestId"));
    const user = c.get("user");
    logRequest(logger, { ...scope, method: c.req.method, path: c.req.path, status: c.res.status, started, accountId: user?.id ?? null });
    if ((c.res.status === 401 || c.res.status === 403) && user) {
      const path = c.req.path.replace(TOKEN_IN_PATH, "$1:token");
      runInRequestScope({ ...scope, accountId: user.id }, () =>
        events.warn("authorization.refused", { status: c.res.status, method: c.req.method, path }),
      );
    }
  });
}
