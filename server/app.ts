import type http from "node:http";
import path from "node:path";
import { getRequestListener } from "@hono/node-server";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono } from "hono";
import { requestId } from "hono/request-id";
import type { Logger } from "pino";
import { apiRoutes } from "./api-routes.ts";
import type { Config } from "./config.ts";
import { resolveClientIp } from "./platform/http/client-ip.ts";
import { handleError } from "./platform/http/errors.ts";
import { DATABASE_RETRY_AFTER_SECONDS } from "./platform/db/connection-loss.ts";
import { useExternalOrigin } from "./platform/http/forwarded-origin.ts";
import { frontCache } from "./platform/http/front-cache.ts";
import { formPartsLimit } from "./platform/http/form-parts-limit.ts";
import { pageBodyLimits } from "./platform/http/page-body-limit.ts";
import { formTooLarge } from "./platform/http/upload-too-large.ts";
import { anonymousApiCache, anonymousPageCache, sharedPageCache } from "./platform/http/page-cache.ts";
import { shopperPages } from "./shopper-pages.ts";
import { createCacheRules } from "./platform/http/cache-rules.ts";
import { compression } from "./platform/http/compression.ts";
import { cachePolicy } from "./platform/http/cache-policy.ts";
import { keepPolicyOnNotModified } from "./platform/http/response-cache.ts";
import type { PageHandler, PersonalParts } from "./pages.ts";
import { refuseControlCharactersInUrl, sameOriginOnly } from "./platform/http/request-guards.ts";
import { sessions } from "./platform/http/request-context.ts";
import { createSessionCookies } from "./platform/http/session-cookie.ts";
import { requestLogger } from "./platform/http/request-logger.ts";
import { countRequests, labelApiRoutes, labelRequest } from "./platform/metrics/http-metrics.ts";
import { metricsRoute } from "./platform/metrics/metrics-endpoint.ts";
import { securityHeaders } from "./platform/http/security-headers.ts";
import { CSV_IMPORT_PAGE_BODY, registerCatalogCacheRules, seoFiles } from "./modules/catalog/index.ts";
import { shareImages } from "./platform/http/share-images.ts";
import { PROJECT_ROOT } from "./project-root.ts";
import { initialsAvatarSvg, PROFILE_PAGE_BODY, registerAccountsCacheRules } from "./modules/accounts/index.ts";
import { createVisitorCartCookies, mergeVisitorCartOnSignIn } from "./modules/cart/index.ts";
import { oneClickUnsubscribe, UNSUBSCRIBE_PATH } from "./modules/alerts/index.ts";
import type { Infrastructure, Services } from "./create-services.ts";
import type { PlatformEnv } from "./platform/http/http-env.ts";
import { isSafeMediaName } from "./platform/media/media-store.ts";

export interface HealthState {
  /** True once migrations and seeding are done; false again while shutting down. */
  ready: boolean;
}

export interface AppOptions {
  config: Config;
  /** The domain services, handed to each module's API and to the pages. */
  services: Services;
  /** What they run on: the caches hear the change feed, /readyz pings the database, /media reads the media store. */
  infrastructure: Infrastructure;
  logger: Logger;
  health: HealthState;
  /** React Router's handler and the built browser assets; absent in API-only tests. */
  pages?: {
    handler: PageHandler;
    clientDir?: string;
    /** Each person's parts of the pages signed-in shoppers share; without them, their pages are rendered per person. */
    personalParts?: PersonalParts;
  };
}

const IMMUTABLE = "public, max-age=31536000, immutable";
/** Memory bounds of the anonymous caches (docs/decisions/027): rendered pages, and the catalogue's JSON. */
const PAGE_CACHE_BYTES = 24 * 1024 * 1024;
const API_CACHE_BYTES = 16 * 1024 * 1024;
/** The pages signed-in shoppers share (docs/decisions/045): the same pages as the visitors', fewer of them asked. */
const SHARED_PAGE_CACHE_BYTES = 16 * 1024 * 1024;
/** The catalogue's GET routes, kept for anonymous callers (each documents its 304); never the event stream. */
const CACHED_API_ROUTES = [
  "/api/products",
  "/api/products/suggestions",
  "/api/products/:productId",
  "/api/products/:productId/reviews",
  "/api/categories",
  "/api/categories/:categoryId",
];
/** A path whose last segment has an extension, as every file of the browser build has (favicon.svg, robots.txt). */
const NAMES_A_FILE = /\.[A-Za-z0-9]+$/;
/** The shop's own illustrations (copied into the browser build too). */
const PUBLIC_DIR = path.join(PROJECT_ROOT, "public");

/**
 * The shop's HTTP app, and the node:http listener that serves it: anonymous answers the caches hold are written
 * by the front cache before Hono; everything else goes through the app (docs/decisions/027).
 */
export function createApp({ config, services, infrastructure, logger, health, pages }: AppOptions): { app: Hono<PlatformEnv>; listener: http.RequestListener } {
  const origin = config.publicUrl.origin;
  // Where browsers read stored pictures when they are in a bucket with a public address (MEDIA_S3_PUBLIC_URL).
  const mediaPublicUrl = config.mediaS3?.publicUrl;
  const app = new Hono<PlatformEnv>();
  // The catalogue's JSON and the pages for anonymous callers (docs/decisions/027), mounted below.
  // Each module says which answers show one of its things and what its changes drop; a change nobody claims drops all.
  const cacheRules = createCacheRules();
  registerCatalogCacheRules(cacheRules);
  registerAccountsCacheRules(cacheRules);
  const { metrics } = infrastructure;
  const apiCache = anonymousApiCache({ ttlMs: config.pageCacheSeconds * 1000, maxBytes: API_CACHE_BYTES, rules: cacheRules, changes: infrastructure.changes, counter: metrics.cacheCounter("json") });
  const pageCache = anonymousPageCache({ ttlMs: config.pageCacheSeconds * 1000, maxBytes: PAGE_CACHE_BYTES, rules: cacheRules, changes: infrastructure.changes, counter: metrics.cacheCounter("page") });
  const front = frontCache({
    caches: [apiCache, pageCache],
    trustedProxies: config.trustProxy,
    logger,
    // A replayed catalogue answer counts under the route pattern that made it.
    onHit: (req, entry) => entry.route && labelRequest(req, entry.route),
  });
  /** Signed-in shoppers' shared catalogue pages (docs/decisions/045), when the pages can fill in a person's parts. */
  let shoppers: ReturnType<typeof shopperPages> | undefined;
  app.onError(handleError);
  // Outermost: it records the headers the whole chain sends with an answer a cache stores, for the front to replay.
  app.use(front.capture);
  // Inside the capture: it labels a stored answer with its route pattern before the capture keeps it.
  app.use(labelApiRoutes());
  // Answers to requests with a cookie (a session) and Better Auth's are private, no-store; anonymous ones say
  // Vary: Cookie, which the front replays too.
  app.use(cachePolicy({ neverStored: (path) => /^\/api\/auth(?:\/|$)/.test(path) }));
  app.use(requestId());
  app.use(resolveClientIp(config.trustProxy));
  app.use(useExternalOrigin(config.trustProxy));
  app.use(requestLogger(logger));
  app.use(keepPolicyOnNotModified());
  app.use(
    securityHeaders({
      dev: config.mode === "development",
      https: config.publicUrl.protocol === "https:",
      hstsIncludeSubdomains: config.hstsIncludeSubdomains,
      // "Continue with <provider>" posts a form that the shop answers with a redirect to the provider's sign-in page.
      formActionOrigins: config.signInProviders.map((provider) => new URL(provider.issuer).origin),
      // Stored pictures read straight from the bucket's public address (MEDIA_S3_PUBLIC_URL).
      imgOrigins: mediaPublicUrl ? [new URL(mediaPublicUrl).origin] : [],
    }),
  );
  app.use(compression());
  // The catalogue's JSON for anonymous callers, before any step a cached answer does not need (docs/decisions/027).
  for (const route of CACHED_API_ROUTES) app.use(route, apiCache);
  // The alerts' unsubscribe link also takes a mail program's one-click POST, from the mail provider's servers, where
  // only its token counts (oneClickUnsubscribe, below; docs/decisions/051).
  app.use(sameOriginOnly(origin, { tokenLinks: [UNSUBSCRIBE_PATH] }));
  app.use(refuseControlCharactersInUrl());
  const sessionCookies = createSessionCookies({ https: config.publicUrl.protocol === "https:" });
  // A visitor's cart joins the account's at any sign-in: every way of signing in answers through here (decision 037).
  // Outside sessions(), so that it also sees a session that middleware passes on (the verification API's).
  const visitorCarts = createVisitorCartCookies({ https: config.publicUrl.protocol === "https:", sealer: infrastructure.sealer });
  app.use(
    mergeVisitorCartOnSignIn({
      cart: services.cart,
      visitorCarts,
      sessionCookies,
      accountOfCredential: async (credential) =>
        (await services.accounts.getSession({ sessionCredential: credential, clientIp: null, userAgent: null })).user?.id ?? null,
    }),
  );
  app.use(sessions(sessionCookies, (caller) => services.accounts.getSession(caller)));

  // On the public port only when METRICS_TOKEN alone is set; METRICS_PORT has a listener of its own (start.ts).
  const metricsToken = config.metrics.token;
  // Elsewhere the path is no page either: 404, whatever the page routes would make of it.
  app.get("/metrics", metricsToken && config.metrics.port === undefined ? metricsRoute(metrics, metricsToken) : (c) => c.text("Not found", 404));
  app.get("/healthz", (c) => (health.ready ? c.text("ok") : c.text("starting or stopping", 503)));
  app.get("/readyz", async (c) => {
    if (!health.ready) return c.text("starting or stopping", 503);
    // Not ready while the database cannot be reached: a load balancer sends requests to another copy meanwhile,
    // and a supervisor should not restart the process for it (/healthz stays 200; docs/decisions/032).
    const reachable = await infrastructure.pingDatabase().then(
      () => true,
      () => false,
    );
    if (!reachable) {
      c.header("Retry-After", String(DATABASE_RETRY_AFTER_SECONDS));
      return c.text("database unreachable", 503);
    }
    return c.text("ok");
  });
  app.route("/api", apiRoutes(services, infrastructure, origin));
  app.route("/", seoFiles(services.sitemaps, origin));
  app.route("/", oneClickUnsubscribe(services.alerts));
  app.route("/", shareImages(PUBLIC_DIR));
  app.get("/avatars/initials.svg", (c) =>
    c.body(initialsAvatarSvg((c.req.query("name") ?? "").slice(0, 100)), 200, {
      "Content-Type": "image/svg+xml",
      "Cache-Control": "public, max-age=86400",
    }),
  );
  // Stored images only (names the media service makes, served as image/webp or image/avif), never HTML or script.
  app.get("/media/:name", async (c) => {
    const name = c.req.param("name");
    // Pictures in a bucket with a public address: browsers read them from there (or the CDN in front of it), not
    // through this process. Permanent and immutable like the picture itself: a name always means the same bytes.
    // Nothing is asked of the bucket here; a name it does not hold is its 404 (docs/decisions/059).
    if (mediaPublicUrl) {
      if (!isSafeMediaName(name)) return c.text("Not found", 404);
      return c.body(null, 301, { Location: `${mediaPublicUrl}/${name}`, "Cache-Control": IMMUTABLE });
    }
    const file = await infrastructure.media.open(name);
    if (!file) return c.text("Not found", 404);
    return c.body(file.body, 200, {
      "Content-Type": file.contentType,
      "Content-Length": String(file.size),
      "Cache-Control": IMMUTABLE,
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
    });
  });

  if (pages) {
    if (pages.clientDir) {
      const clientDir = pages.clientDir;
      // Fingerprinted build files, and their .br/.gz made once by the build (scripts/build.mjs), chosen by Accept-Encoding.
      app.use("/assets/*", serveStatic({ root: clientDir, precompressed: true, onFound: (_p, c) => c.header("Cache-Control", IMMUTABLE) }));
      // Only a path naming a file (an extension in its last segment) is looked for on disk: a page is not, and
      // a look costs a stat() per page request.
      const files = serveStatic({ root: clientDir, precompressed: true, onFound: (_p, c) => c.header("Cache-Control", "public, max-age=3600") });
      app.use("*", (c, next) => (NAMES_A_FILE.test(c.req.path) ? files(c, next) : next()));
    }
    // The pages that take a file, each declared by its module (the profile form's picture).
    app.use("*", pageBodyLimits([PROFILE_PAGE_BODY, CSV_IMPORT_PAGE_BODY]));
    app.use("*", formPartsLimit(formTooLarge));
    app.use("*", pageCache);
    // A signed-in shopper's catalogue page: rendered once for all of them, their own parts filled in per request.
    if (pages.personalParts) {
      const sharedCache = sharedPageCache({
        ttlMs: config.pageCacheSeconds * 1000,
        maxBytes: SHARED_PAGE_CACHE_BYTES,
        rules: cacheRules,
        changes: infrastructure.changes,
        counter: metrics.cacheCounter("shared_page"),
      });
      shoppers = shopperPages({ cache: sharedCache, services, sessionCookies, parts: pages.personalParts, trustedProxies: config.trustProxy, logger });
      app.use("*", shoppers.middleware);
    }
    const given = { services, sealer: infrastructure.sealer, visitorCarts };
    app.all("*", (c) => pages.handler(c, given));
  }
  const hono = getRequestListener(app.fetch);
  const toHono = (req: http.IncomingMessage, res: http.ServerResponse) => void hono(req, res);
  return {
    app,
    // Counted around everything, so that the front's replays are counted like the answers Hono makes.
    listener: countRequests(metrics, (req, res) => front.serve(req, res) || shoppers?.front.serve(req, res, () => toHono(req, res)) || toHono(req, res)),
  };
}
