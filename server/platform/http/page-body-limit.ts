import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import { MAX_IMAGE_BYTES } from "#common/shared/constants.ts";
import type { PlatformEnv } from "./http-env.ts";
import { currentUser } from "./request-context.ts";
import { formTooLarge, uploadTooLarge } from "./upload-too-large.ts";

/** Any page form without a file: the longest the shop has (5,000 characters) is under 50 KB even fully escaped. */
export const PAGE_FORM_LIMIT = 64 * 1024;
/** A page form with a picture: the picture, its multipart framing and the form's other fields. */
export const PAGE_UPLOAD_LIMIT = MAX_IMAGE_BYTES + 256 * 1024;

/** A page that takes a file, declared by its module: its path (with React Router's `.data` form) and its limit. */
export interface LargePageBody {
  path: RegExp;
  maxBytes: number;
}

/**
 * Body limits of page requests (docs/decisions/013): a small one everywhere, since React Router reads a whole form into
 * memory before an action sees it (one 10.9 MB form to /login blocked the event loop 4.4 s); a larger one only on
 * the pages their modules declare as taking a file, and only for a signed-in person (who alone may send one).
 */
export function pageBodyLimits(largePages: readonly LargePageBody[] = []) {
  const small = bodyLimit({ maxSize: PAGE_FORM_LIMIT, onError: formTooLarge });
  const large = largePages.map(({ path, maxBytes }) => ({ path, limit: bodyLimit({ maxSize: maxBytes, onError: uploadTooLarge }) }));
  return createMiddleware<PlatformEnv>(async (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    const page = large.find(({ path }) => path.test(c.req.path));
    if (page && (await currentUser(c))) return page.limit(c, next);
    return small(c, next);
  });
}
