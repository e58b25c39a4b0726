import type http from "node:http";
import { performance } from "node:perf_hooks";
import { createMiddleware } from "hono/factory";
import { routePath } from "hono/route";
import type { PlatformEnv } from "../http/http-env.ts";
import type { ShopMetrics } from "./metrics.ts";

/** Methods counted by name; any other a client sends is counted as "OTHER", so the label stays a small set. */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
/** A path whose last segment has an extension: a file of the browser build or of public/ (favicon.svg, robots.txt). */
const NAMES_A_FILE = /\.[A-Za-z0-9]+$/;

/** The route pattern Hono matched for an /api request, set by `labelApiRoutes` or by the front cache for its hits. */
const routes = new WeakMap<http.IncomingMessage, string>();

/** Says which route pattern answered this request (its metrics label). */
export function labelRequest(req: http.IncomingMessage, route: string): void {
  routes.set(req, route);
}

/**
 * The label of a request no API route labelled: one of a few fixed names, never the path itself (a label per
 * product or per mistyped address would grow without bound).
 */
export function routeOfPath(url: string | undefined): string {
  const target = url ?? "/";
  const query = target.indexOf("?");
  const path = query < 0 ? target : target.slice(0, query);
  if (path === "/api" || path.startsWith("/api/")) return "/api/*";
  if (path.startsWith("/media/")) return "media";
  // A page's loader or action data fetched by React Router in the browser (`/cart.data`, `/_root.data`) is the page's work.
  if (path.endsWith(".data")) return "page";
  if (path.startsWith("/assets/") || NAMES_A_FILE.test(path)) return "asset";
  if (path === "/healthz" || path === "/readyz") return "health";
  if (path === "/metrics") return "metrics";
  return "page";
}

/**
 * Wraps the node:http listener: every answer is counted when its response closes, whoever wrote it (the front
 * cache, Hono, the shared pages), with the time from its arrival.
 */
export function countRequests(metrics: ShopMetrics, listener: http.RequestListener): http.RequestListener {
  return (req, res) => {
    const started = performance.now();
    res.once("close", () => {
      const method = req.method && METHODS.has(req.method) ? req.method : "OTHER";
      metrics.recordRequest(method, routes.get(req) ?? routeOfPath(req.url), res.statusCode, (performance.now() - started) / 1000);
    });
    listener(req, res);
  };
}

/**
 * Hono middleware, mounted just inside the front cache's capture: labels an /api request with the pattern of the
 * route that answered it (`/api/products/:productId`), and keeps that label with an answer a cache stores, for
 * the front cache's replays of it.
 */
export function labelApiRoutes() {
  return createMiddleware<PlatformEnv>(async (c, next) => {
    await next();
    const path = c.req.path;
    if (path !== "/api" && !path.startsWith("/api/")) return;
    // After next(): the pattern of the last handler or middleware that ran, i.e. the one that answered. One mounted
    // on every path ("*") answered (a guard's refusal): no pattern of the API's own.
    const matched = routePath(c);
    const route = matched === "*" || matched === "/*" ? "/api/*" : matched;
    const incoming = c.env?.incoming;
    if (incoming) labelRequest(incoming, route);
    const stored = c.get("storedAnswer");
    if (stored) stored.route = route;
  });
}
