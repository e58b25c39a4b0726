import { createHash, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { Handler } from "hono";
import type { PlatformEnv } from "../http/http-env.ts";
import type { ShopMetrics } from "./metrics.ts";

/** Whether an Authorization header carries this bearer token; compared in constant time (both sides hashed to one length). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer (.+)$/i.exec(header ?? "");
  if (!match) return false;
  const given = createHash("sha256").update(match[1]!).digest();
  const expected = createHash("sha256").update(token).digest();
  return timingSafeEqual(given, expected);
}

const UNAUTHORIZED = "A bearer token (METRICS_TOKEN) is needed for the metrics.";

/** /metrics on the public port, behind METRICS_TOKEN (docs/decisions/056). */
export function metricsRoute(metrics: ShopMetrics, token: string): Handler<PlatformEnv> {
  return async (c) => {
    if (!bearerMatches(c.req.header("authorization"), token)) {
      return c.text(UNAUTHORIZED, 401, { "WWW-Authenticate": 'Bearer realm="metrics"', "Cache-Control": "no-store" });
    }
    const { body, contentType } = await metrics.render();
    return c.body(body, 200, { "Content-Type": contentType, "Cache-Control": "no-store" });
  };
}

export interface MetricsListenerOptions {
  metrics: ShopMetrics;
  /** When set, this listener asks for it too. */
  token?: string | undefined;
}

/**
 * The listener of METRICS_PORT: GET /metrics and nothing else. It never reaches the shop's app, so nothing a
 * page or the API does (cookies, sessions, caches) applies to it.
 */
export function metricsListener({ metrics, token }: MetricsListenerOptions): http.RequestListener {
  return (req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not found");
      return;
    }
    const authorization = req.headers.authorization;
    if (token && !bearerMatches(authorization, token)) {
      res.writeHead(401, { "Content-Type": "text/plain; charset=utf-8", "WWW-Authenticate": 'Bearer realm="metrics"' }).end(UNAUTHORIZED);
      return;
    }
    metrics.render().then(
      ({ body, contentType }) => res.writeHead(200, { "Content-Type": contentType, "Cache-Control": "no-store" }).end(req.method === "HEAD" ? undefined : body),
      () => res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" }).end("The metrics could not be collected."),
    );
  };
}

/** Starts the METRICS_PORT listener on `host`, like the shop's own; resolves once it listens. */
export async function listenForMetrics(options: MetricsListenerOptions & { host: string; port: number }): Promise<http.Server> {
  const server = http.createServer(metricsListener(options));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, resolve);
  });
  return server;
}
