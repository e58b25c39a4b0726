import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { messages } from "#common/shared/messages.ts";
import { ServiceError, ServiceUnavailableError, TooManyRequestsError } from "../errors.ts";
import { escapeHtml } from "../mail/mail-layout.ts";
import { platformContext, type PlatformEnv } from "./http-env.ts";

export const INTERNAL_ERROR_MESSAGE = "Something went wrong on our side. Please try again in a moment.";

/** The one place that maps failures to HTTP answers: `{ message, fieldErrors? }`, never a stack trace. */
export function handleError<E extends PlatformEnv>(error: Error, context: Context<E>): Response {
  const c = platformContext(context);
  if (error instanceof ServiceError) {
    if (error instanceof TooManyRequestsError || error instanceof ServiceUnavailableError) c.header("Retry-After", String(error.retryAfterSeconds));
    // A page asked for while the database is away (the session is read before the page's own loaders run):
    // a page that says so, not the API's JSON. The log line of the request says 503; the outage is logged once
    // where it is noticed (server/platform/db/connection-loss.ts).
    if (error instanceof ServiceUnavailableError && wantsPage(c.req.path, c.req.header("Accept"))) return c.html(outagePage(), 503);
    return c.json(
      { message: error.message, ...(error.fieldErrors ? { fieldErrors: error.fieldErrors } : {}), ...(error.code ? { code: error.code } : {}) },
      error.status,
    );
  }
  if (error instanceof HTTPException && error.status < 500) {
    const message = error.message || "The request could not be handled.";
    // A form a browser posted without JavaScript (refused before any page ran: another site's, too large) gets a
    // page saying why, not the API's JSON shown as text.
    if (wantsPage(c.req.path, c.req.header("Accept"))) return c.html(refusalPage(error.status, message), error.status as ContentfulStatusCode);
    return c.json({ message }, error.status as ContentfulStatusCode);
  }
  // A request its client gave up on fails as its body or answer is cut off: the client's doing, nothing to fix here.
  if (c.req.raw.signal.aborted) {
    c.get("log").info({ err: error, requestId: c.get("requestId") }, "request aborted by the client");
    return c.json({ message: "The request was cut off before it was complete." }, 400);
  }
  c.get("log").error({ err: error, requestId: c.get("requestId") }, "request failed");
  return c.json({ message: INTERNAL_ERROR_MESSAGE }, 500);
}

/** A browser's request for a page rather than the JSON API's. */
function wantsPage(path: string, accept: string | undefined): boolean {
  return !/^\/api(?:\/|$)/.test(path) && !path.endsWith(".data") && /\btext\/html\b/.test(accept ?? "");
}

/** Self-contained, like the outage page: a refused request's status in words, and why. */
function refusalPage(status: number, message: string): string {
  const title = escapeHtml(messages.refusedRequest[status] ?? messages.refusedRequest[400]!);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head><body><main><h1>${title}</h1><p>${escapeHtml(message)}</p><p><a href="/">Back to the shop</a></p></main></body></html>`;
}

/** Self-contained (no script, no style, nothing the database holds): what a browser shows during an outage. */
function outagePage(): string {
  const { title, message } = messages.briefOutage;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head><body><main><h1>${title}</h1><p>${message}</p></main></body></html>`;
}
