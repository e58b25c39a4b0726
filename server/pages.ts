import type { Context } from "hono";
import type { Logger } from "pino";
import { createRequestHandler, type ServerBuild } from "react-router";
import type { MarkedPart, PersonalData } from "#common/accounts/personal-data.ts";
import type { PublicShopConfig } from "./config.ts";
import type { Services } from "./create-services.ts";
import { DATABASE_RETRY_AFTER_SECONDS } from "./platform/db/connection-loss.ts";
import { clientIp } from "./platform/http/client-ip.ts";
import type { PlatformEnv } from "./platform/http/http-env.ts";
import { currentUser, requestContext } from "./platform/http/request-context.ts";
import type { Sealer } from "./platform/sealed-values.ts";
import type { VisitorCartCookies } from "./modules/cart/index.ts";

/** What the app hands the pages with each request: the domain services, and the sealer of the pages' own cookies. */
export interface PageServices {
  services: Services;
  sealer: Sealer;
  /** The visitor's cart cookie (docs/decisions/037). */
  visitorCarts: VisitorCartCookies;
}

export type PageHandler = (c: Context<PlatformEnv>, given: PageServices) => Promise<Response>;

/** A person's parts of a shared page (docs/decisions/045), from the pages' own components. */
export interface PersonalParts {
  /** The page with each marker (PERSONAL_PART_MARKER) replaced by the person's part. */
  fill(html: string, personal: PersonalData): Promise<string>;
  /** What goes into each marked place, in order, as UTF-8, for a server that fills a page it split at the markers once. */
  render(personal: PersonalData, marked: readonly MarkedPart[]): Promise<Buffer[]>;
}

/** What the pages' server entry (app/entry.server.tsx) offers the server besides rendering. */
interface PageEntry {
  fillPersonalParts?: (html: string, personal: PersonalData) => string;
  renderPersonalParts?: (personal: PersonalData, marked: readonly MarkedPart[]) => Buffer[];
}

/** Hands page requests to React Router, with the services and the response's CSP nonce as load context. */
export function createPageHandler(
  build: ServerBuild | (() => Promise<ServerBuild>),
  mode: "development" | "production",
  shop: PublicShopConfig,
): PageHandler {
  const handle = createRequestHandler(build, mode);
  return async (c, { services, sealer, visitorCarts }) => {
    const sessions = c.get("sessions");
    if (!sessions) throw new Error("pages need the sessions() middleware in front of them");
    const log = c.get("log");
    // What a loader or action threw is logged once the answer's status says whose fault it was (see logPageError).
    const thrown: unknown[] = [];
    const answered = { status: undefined as number | undefined };
    // Thrown after the answer went out (a deferred value while streaming): the server's failure, whatever the status.
    const reportError = (error: unknown) => (answered.status === undefined ? thrown.push(error) : logPageError(log, error, 500));
    const sharedWithShoppers = c.get("sharedPage") === true;
    const response = await handle(c.req.raw, {
      services,
      sealer,
      shop,
      cspNonce: c.get("secureHeadersNonce") ?? "",
      clientIp: clientIp(c),
      log,
      reportError,
      user: sharedWithShoppers ? null : await currentUser(c),
      sharedWithShoppers,
      request: requestContext(c),
      sessionCookies: sessions.cookies,
      visitorCart: visitorCarts.forRequest(c.req.raw.headers),
    });
    answered.status = response.status;
    for (const error of thrown) logPageError(log, error, response.status);
    // A page that could not reach the database (app/entry.server.tsx) tells clients when to try again.
    if (response.status === 503 && !response.headers.has("Retry-After")) response.headers.set("Retry-After", String(DATABASE_RETRY_AFTER_SECONDS));
    return response;
  };
}

/** A person's parts of a shared page, rendered by the build's own components (app/entry.server.tsx). */
export function createPersonalParts(build: ServerBuild | (() => Promise<ServerBuild>)): PersonalParts {
  const entry = async () => {
    const module = (typeof build === "function" ? await build() : build).entry.module as PageEntry;
    if (!module.fillPersonalParts || !module.renderPersonalParts) throw new Error("the pages' server entry does not export fillPersonalParts and renderPersonalParts");
    return { fill: module.fillPersonalParts, render: module.renderPersonalParts };
  };
  return {
    fill: async (html, personal) => (await entry()).fill(html, personal),
    render: async (personal, marked) => (await entry()).render(personal, marked),
  };
}
/**
 * A page's failure at the level of whose fault it was: the server's (a 5xx) is an error; a request the client got
 * wrong and React Router refused (a 4xx: an action posted from another origin, a malformed data request) a warning.
 */
function logPageError(log: Logger, error: unknown, status: number) {
  if (status >= 500) log.error({ err: error, status }, "page request failed");
  else log.warn({ err: error, status }, "page request refused");
}
