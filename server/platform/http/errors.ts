import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { ServiceError, TooManyRequestsError } from "../errors.ts";
import { platformContext, type PlatformEnv } from "./http-env.ts";

export const INTERNAL_ERROR_MESSAGE = "Something went wrong on our side. Please try again in a moment.";

/** The one place that maps failures to HTTP answers: `{ message, fieldErrors? }`, never a stack trace. */
export function handleError<E extends PlatformEnv>(error: Error, context: Context<E>): Response {
  const c = platformContext(context);
  if (error instanceof ServiceError) {
    if (error instanceof TooManyRequestsError) c.header("Retry-After", String(error.retryAfterSeconds));
    return c.json(
      { message: error.message, ...(error.fieldErrors ? { fieldErrors: error.fieldErrors } : {}), ...(error.code ? { code: error.code } : {}) },
      error.status,
    );
  }
  if (error instanceof HTTPException && error.status < 500) {
    return c.json({ message: error.message || "The request could not be handled." }, error.status as ContentfulStatusCode);
  }
  // A request its client gave up on fails as its body or answer is cut off: the client's doing, nothing to fix here.
  if (c.req.raw.signal.aborted) {
    c.get("log").info({ err: error, requestId: c.get("requestId") }, "request aborted by the client");
    return c.json({ message: "The request was cut off before it was complete." }, 400);
  }
  c.get("log").error({ err: error, requestId: c.get("requestId") }, "request failed");
  return c.json({ message: INTERNAL_ERROR_MESSAGE }, 500);
}
