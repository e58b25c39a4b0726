import { createMiddleware } from "hono/factory";
import type { Logger } from "pino";
import type { AppEnv } from "./env.ts";

const QUIET_PATHS = /^\/(assets|illustrations|media)\/|^\/(healthz|readyz|favicon\.svg)$/;
// Better Auth's reset-link check carries the token in the path; a log line must not (decision 015).
const TOKEN_IN_PATH = /^(\/api\/auth\/reset-password\/)[^/]+/;

/** One log line per request, tagged with its request id (also sent back as X-Request-Id). */
export function requestLogger(logger: Logger) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const started = performance.now();
    const log = logger.child({ requestId: c.var.requestId });
    c.set("log", log);
    await next();
    // Set here, after the handler: a Response made by React Router does not carry headers set before it.
    if (!c.res.headers.has("X-Request-Id")) c.res.headers.set("X-Request-Id", c.var.requestId);
    const entry = {
      method: c.req.method,
      path: c.req.path.replace(TOKEN_IN_PATH, "$1[token]"),
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
    };
    if (QUIET_PATHS.test(c.req.path)) log.debug(entry, "request");
    else log.info(entry, "request");
  });
}
