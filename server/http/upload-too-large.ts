import type { Context } from "hono";
import { html } from "hono/html";
import { messages } from "#common/messages.ts";

/**
 * A page form that sent more than the body limit (a picture over 10 MB, with JavaScript off or bypassed):
 * a page a person can read, linking back to the form, which posts to its own page.
 */
export function uploadTooLarge(c: Context) {
  const url = new URL(c.req.url);
  // One leading slash: "//elsewhere.example/x" would be a link to another site.
  const back = `/${url.pathname.replace(/^\/+/, "")}${url.search}`;
  return c.html(
    html`<!doctype html>
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>${messages.images.uploadTooLarge}</title>
        </head>
        <body>
          <main>
            <h1>${messages.images.uploadTooLarge}</h1>
            <p>${messages.images.tooLarge}</p>
            <p><a href="${back}">${messages.images.goBack}</a></p>
          </main>
        </body>
      </html>`,
    413,
  );
}
