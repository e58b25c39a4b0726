import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import type { ReactNode } from "react";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import { createPath, isRouteErrorResponse, Router, ServerRouter, type AppLoadContext, type EntryContext, type HandleErrorFunction, type Navigator } from "react-router";
import { markedPartsOf, PERSONAL_PART_MARKER, type MarkedPart, type PersonalData } from "#common/accounts/personal-data.ts";
import { HEART_PART } from "./features/wishlist/components/heart-button.tsx";
import { PERSONAL_PARTS, type PersonalPartName } from "./shared/components/personal-parts.tsx";
import { isUserFacingError } from "#common/shared/user-facing-error.ts";
import { messages } from "#common/shared/messages.ts";
import { NonceContext } from "./shared/lib/nonce.tsx";

export const streamTimeout = 5_000;

/**
 * Page requests during which a loader or an action found the database away (a 503 it did not turn into its
 * own answer): their page is rendered again as the outage page (handleRequest), not as a 500.
 */
const outageSeen = new WeakSet<Request>();

/**
 * Errors thrown by loaders and actions, logged with the request id, at error only when the answer is a 5xx (the
 * page handler knows the status; a refusal the client caused is a warning); a deliberate answer (404, 403), a
 * request the client gave up on and the database being away (logged once where it is noticed) are not worth logging.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted || isRouteErrorResponse(error) || error instanceof Response) return;
  if (isUserFacingError(error) && error.status === 503) {
    outageSeen.add(request);
    return;
  }
  context.reportError(error);
};

// React Router's default Node entry, plus the Content-Security-Policy nonce on every inline script.
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // React Router renders the page again with what this throws as the route error: the error screen says the
  // shop is briefly unavailable, with status 503, instead of an unexpected error with 500.
  if (responseStatusCode === 500 && outageSeen.has(request)) throw Response.json({ message: messages.briefOutage.message }, { status: 503 });
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const nonce = loadContext.cspNonce;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceContext.Provider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          pipe(body);
          resolve(
            new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) loadContext.log.error({ err: error }, "page rendering failed");
        },
      },
    );
  });
}

/** A router that never navigates: the personal parts are rendered on their own, at the page's address. */
const staticNavigator: Navigator = {
  createHref: (to) => (typeof to === "string" ? to : createPath(to)),
  go: () => undefined,
  push: () => undefined,
  replace: () => undefined,
};

/**
 * The parts as rendered for one person's data, most recently used last: a person going from page to page gets the
 * same parts, so each is rendered once (the key is the data itself, so a change of name or cart count is a new key).
 */
const renderedParts = new Map<string, Map<string, Buffer>>();
const RENDERED_PARTS_KEPT = 2_000;
/** Hearts as rendered, by plant, name, place and state: the same for everyone, so a few per plant shown. */
const renderedHearts = new Map<string, Buffer>();
const RENDERED_HEARTS_KEPT = 5_000;

/** Kept renders, most recently used last, the oldest dropped past `limit`. */
function keptRender<V>(kept: Map<string, V>, key: string, limit: number, render: () => V): V {
  const known = kept.get(key);
  if (known !== undefined) {
    kept.delete(key);
    kept.set(key, known);
    return known;
  }
  const made = render();
  kept.set(key, made);
  if (kept.size > limit) kept.delete(kept.keys().next().value!);
  return made;
}

/** A part rendered on its own, at the shop's root, as UTF-8. */
function renderPart(node: ReactNode): Buffer {
  const html = renderToString(
    <Router location={{ pathname: "/" }} navigator={staticNavigator} static>
      {node}
    </Router>,
  );
  return Buffer.from(html.replace(LEADING_PRELOADS, ""));
}

/**
 * Each part rendered for the person (UTF-8), at the shop's root: no part shows where it is (a shared page is never
 * the profile). The server puts them into a shared page in place of PERSONAL_PART_MARKER's markers.
 */
function renderNamedParts(personal: PersonalData): Map<string, Buffer> {
  return keptRender(renderedParts, JSON.stringify(personal), RENDERED_PARTS_KEPT, () => {
    const parts = new Map<string, Buffer>();
    for (const part of Object.keys(PERSONAL_PARTS) as PersonalPartName[]) parts.set(part, renderPart(PERSONAL_PARTS[part](personal)));
    return parts;
  });
}

const EMPTY = Buffer.alloc(0);

/**
 * What goes into each marked place of a shared page for this person, in order: the navigation's parts and their
 * data by name, and each card's heart pressed or not. The server calls this through the build's entry, for a page
 * it cut at its markers once (server/platform/http/front-shared-pages.ts).
 */
export function renderPersonalParts(personal: PersonalData, marked: readonly MarkedPart[]): Buffer[] {
  const named = renderNamedParts(personal);
  return marked.map(({ name, props }) => {
    if (name !== HEART_PART.name) return named.get(name) ?? EMPTY;
    const pressed = HEART_PART.pressedFor(personal, props);
    if (pressed === undefined) return EMPTY;
    return keptRender(renderedHearts, `${JSON.stringify(props)}:${pressed}`, RENDERED_HEARTS_KEPT, () => renderPart(HEART_PART.render(props, pressed)));
  });
}

/**
 * A page rendered once for every signed-in shopper, with the person's parts in the places it marked: each part
 * rendered by the same component that renders it in a page made for the person, so the browser hydrates exactly
 * these bytes (docs/decisions/045). The server calls this through the build's entry.
 */
export function fillPersonalParts(html: string, personal: PersonalData): string {
  const parts = renderPersonalParts(personal, markedPartsOf(html));
  let place = 0;
  return html.replace(PERSONAL_PART_MARKER, () => parts[place++]!.toString());
}

/**
 * React puts a preload of each picture before a fragment rendered on its own; a page's render puts them in its
 * head. In the middle of the page they would only add bytes, and the part's bytes would differ from the page's.
 */
const LEADING_PRELOADS = /^(?:<link rel="preload"[^>]*\/>)+/;
