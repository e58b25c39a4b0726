import type { Context } from "hono";
import { createMiddleware } from "hono/factory";

/** Far more parts than any form of the shop sends: the largest, the profile form, has seven: six fields and one picture. */
export const MAX_FORM_PARTS = 64;

/** The boundary of a multipart body's Content-Type, quoted or not; undefined for any other body. */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  if (!contentType || !/^\s*multipart\//i.test(contentType)) return undefined;
  const match = /;\s*boundary=(?:"([^"]+)"|([^\s;]+))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}

/** How many delimiters (`--boundary`) the body holds, counted up to `atMost` and no further. */
export function countDelimiters(body: Buffer, boundary: string, atMost: number): number {
  const delimiter = Buffer.from(`--${boundary}`, "latin1");
  let count = 0;
  for (let at = body.indexOf(delimiter); at !== -1 && count < atMost; at = body.indexOf(delimiter, at + delimiter.length)) count++;
  return count;
}

/**
 * Refuses a multipart body of more than MAX_FORM_PARTS parts before anything parses it (`onTooMany` answers). A
 * parser's cost grows with the parts, not only the bytes: 150,000 one-byte fields (8.7 MB, under the picture's
 * byte limit) held the event loop about 1.5 s in undici's `formData`, which React Router's page actions and Hono's
 * `c.req.formData()` both use, whereas counting their delimiters with `Buffer.indexOf` takes milliseconds. The body
 * is read into memory to be counted and handed on as it came, so this runs after a body limit, which bounds it.
 */
export function formPartsLimit(onTooMany: (c: Context) => Response | Promise<Response>) {
  return createMiddleware(async (c, next) => {
    const boundary = multipartBoundary(c.req.header("Content-Type"));
    if (boundary === undefined || c.req.raw.body === null) return next();
    const body = Buffer.from(await c.req.raw.arrayBuffer());
    // One delimiter more than the parts: the closing one.
    if (countDelimiters(body, boundary, MAX_FORM_PARTS + 2) > MAX_FORM_PARTS + 1) return onTooMany(c);
    c.req.raw = new Request(c.req.raw, { body });
    return next();
  });
}
