import type { Context } from "hono";
import { html } from "hono/html";
import { messages } from "#common/shared/messages.ts";

/**
 * A page form that sent more than the body limit (a picture over 10 MB, with JavaScript off or bypassed):
 * a page a person can read, linking back to the form, which posts to its own page.
 */
export function uploadTooLarge(c: Context) {
  return tooLargePage(c, messages.images.uploadTooLarge, messages.images.tooLarge, messages.images.goBack);
}

/** A page form (no file) that sent more than any form of the shop holds. */
export function formTooLarge(c: Context) {
  return tooLargePage(c, messages.forms.tooLarge, messages.forms.tooLargeDetail, messages.forms.goBack);
}

function tooLargePage(c: Context, title: string, detail: string, goBack: string) {
  const url = new URL(c.req.url);
  // One leading slash: "//elsewhere.example/x" would be a link to another site.
  const back = `/${url.pathname.replace(/^\/+/, "")}${url.search}`;
  return c.html(
    html`<!doctype html>
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>${title}</title>
        </head>
        <body>
          <main>
            <h1>${title}</h1>
            <p>${detail}</p>
            <p><a href="${back}">${goBack}</a></p>
          </main>
        </body>
      </html>`,
    413,
  );
}
