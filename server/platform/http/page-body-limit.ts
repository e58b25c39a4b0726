import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import { MAX_IMAGE_BYTES } from "#common/shared/constants.ts";
import type { PlatformEnv } from "./http-env.ts";
import { currentUser } from "./request-context.ts";
import { formTooLarge, uploadTooLarge } from "./upload-too-large.ts";

/** Any page form without a file: the longest (contact, 5,000 characters) is under 50 KB even fully escaped. */
export const PAGE_FORM_LIMIT = 64 * 1024;
/** A page form with a picture: the picture, its multipart framing and the form's other fields. */
export const PAGE_UPLOAD_LIMIT = MAX_IMAGE_BYTES + 256 * 1024;

/**
 * The only page that takes a file: the profile form (its picture). React Router's own submissions post to
 * the same path with `.data` added.
 */
const UPLOAD_PAGE = /^\/profile\/[^/]+?(?:\.data)?\/?$/;

/**
 * Body limits of page requests (docs/decisions/013): a small one everywhere, since React Router reads a whole form into
 * memory before an action sees it (one 10.9 MB form to /login blocked the event loop 4.4 s); the large one
 * only on the page that takes a picture, and only for a signed-in person (who alone may send one).
 */
export function pageBodyLimits() {
  const small = bodyLimit({ maxSize: PAGE_FORM_LIMIT, onError: formTooLarge });
  const large = bodyLimit({ maxSize: PAGE_UPLOAD_LIMIT, onError: uploadTooLarge });
  return createMiddleware<PlatformEnv>(async (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    if (UPLOAD_PAGE.test(c.req.path) && (await currentUser(c))) return large(c, next);
    return small(c, next);
  });
}
