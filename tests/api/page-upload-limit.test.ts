import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MAX_IMAGE_BYTES } from "../../common/shared/constants.ts";
import { messages } from "../../common/shared/messages.ts";
import { MAX_FORM_PARTS } from "../../server/platform/http/form-parts-limit.ts";
import { PAGE_FORM_LIMIT } from "../../server/platform/http/page-body-limit.ts";
import type { PageHandler } from "../../server/pages.ts";
import { signUpVerified } from "../support/accounts.ts";
import { startSmtpCapture, type SmtpCapture } from "../support/smtp-capture.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "../support/test-app.ts";

let capture: SmtpCapture;
let app: TestApp | undefined;
beforeAll(async () => {
  capture = await startSmtpCapture();
});
afterAll(async () => {
  await capture.close();
});
afterEach(async () => {
  await app?.cleanup();
});

// Stands in for React Router: it reads the whole form, as a page action does.
const pages: PageHandler = async (c) => {
  const form = c.req.method === "POST" ? await c.req.raw.formData() : null;
  return new Response(`<p>the form had ${form ? [...form.keys()].length : 0} fields</p>`, { headers: { "Content-Type": "text/html" } });
};

const pictureForm = (bytes: number) => {
  const form = new FormData();
  form.set("intent", "update-profile");
  form.set("image", new File([new Uint8Array(bytes)], "picture.png", { type: "image/png" }));
  return form;
};

describe("a page form over the upload limit", () => {
  it("gets a page a person can read, with the size limit and a link back to the form", async () => {
    app = await createTestApp({ SMTP_URL: capture.url }, { handler: pages });
    const { cookie, userId } = await signUpVerified(app, capture);
    const response = await app.request(`/profile/${userId}?edit`, {
      method: "POST",
      headers: { Origin: TEST_ORIGIN, Cookie: cookie },
      body: pictureForm(MAX_IMAGE_BYTES + 2 * 1024 * 1024),
    });
    expect(response.status).toBe(413);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const page = await response.text();
    expect(page).toContain(`<h1>${messages.images.uploadTooLarge}</h1>`);
    expect(page).toContain(messages.images.tooLarge);
    expect(page).toContain(`<a href="/profile/${userId}?edit">`);
  });
});

/** A multipart form of `fields` one-byte fields. */
const manyFields = (fields: number) => {
  const form = new FormData();
  for (let i = 0; i < fields; i++) form.append(`f${i}`, "a");
  return form;
};

describe("a page form of more parts than any form of the shop has", () => {
  it("is refused before it is parsed: 20,000 one-byte fields to one's own profile page (1.7 MB, under the picture's byte limit) get the form-too-large page", async () => {
    app = await createTestApp({ SMTP_URL: capture.url }, { handler: pages });
    const { cookie, userId } = await signUpVerified(app, capture);
    for (const path of [`/profile/${userId}?edit`, `/profile/${userId}.data`]) {
      const response = await app.request(path, { method: "POST", headers: { Origin: TEST_ORIGIN, Cookie: cookie }, body: manyFields(20_000) });
      expect(response.status, path).toBe(413);
      const page = await response.text();
      expect(page).toContain(`<h1>${messages.forms.tooLarge}</h1>`);
      expect(page).not.toContain("the form had");
    }
  });

  it(`is refused on a page without a picture too (${MAX_FORM_PARTS + 1} fields to the contact page), while ${MAX_FORM_PARTS} reach the page whole`, async () => {
    app = await createTestApp({}, { handler: pages });
    const refused = await app.request("/contact", { method: "POST", headers: { Origin: TEST_ORIGIN }, body: manyFields(MAX_FORM_PARTS + 1) });
    expect(refused.status).toBe(413);
    expect(await refused.text()).toContain(`<h1>${messages.forms.tooLarge}</h1>`);
    const allowed = await app.request("/contact", { method: "POST", headers: { Origin: TEST_ORIGIN }, body: manyFields(MAX_FORM_PARTS) });
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toContain(`the form had ${MAX_FORM_PARTS} fields`);
  });
});

describe("page body limits", () => {
  it("let a signed-in person send a picture of almost 10 MB with the profile form, also through React Router's .data path", async () => {
    app = await createTestApp({ SMTP_URL: capture.url }, { handler: pages });
    const { cookie, userId } = await signUpVerified(app, capture);
    for (const path of [`/profile/${userId}?edit`, `/profile/${userId}.data`]) {
      const response = await app.request(path, { method: "POST", headers: { Origin: TEST_ORIGIN, Cookie: cookie }, body: pictureForm(MAX_IMAGE_BYTES - 1024) });
      expect(response.status).toBe(200);
      expect(await response.text()).toContain("the form had 2 fields");
    }
  });

  it("refuse a large body to the profile page from someone not signed in, before it is read", async () => {
    app = await createTestApp({}, { handler: pages });
    const response = await app.request("/profile/abc", { method: "POST", headers: { Origin: TEST_ORIGIN }, body: pictureForm(1024 * 1024) });
    expect(response.status).toBe(413);
    expect(await response.text()).toContain(`<h1>${messages.forms.tooLarge}</h1>`);
  });

  it("refuse a form over 64 KB to every other page, e.g. a 10.9 MB login form, with a page that leads back", async () => {
    app = await createTestApp({}, { handler: pages });
    const huge = `email=${"a".repeat(10_900_000)}&password=x`;
    for (const [path, body] of [
      ["/login", huge],
      ["/contact", `message=${"b".repeat(PAGE_FORM_LIMIT)}`],
      ["/checkout.data", huge],
    ] as const) {
      const response = await app.request(path, {
        method: "POST",
        headers: { Origin: TEST_ORIGIN, "Content-Type": "application/x-www-form-urlencoded" },
        body,
      });
      expect(response.status, path).toBe(413);
      const page = await response.text();
      expect(page).toContain(`<h1>${messages.forms.tooLarge}</h1>`);
      expect(page).toContain(`<a href="${path}">${messages.forms.goBack}</a>`);
    }
  });

  it("let an ordinary form under 64 KB through to the page", async () => {
    app = await createTestApp({}, { handler: pages });
    const response = await app.request("/contact", {
      method: "POST",
      headers: { Origin: TEST_ORIGIN, "Content-Type": "application/x-www-form-urlencoded" },
      body: `name=Asha&message=${"b".repeat(PAGE_FORM_LIMIT - 100)}`,
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("the form had 2 fields");
  });

  it("refuse a chunked body without a length once it passes 64 KB", async () => {
    app = await createTestApp({}, { handler: pages });
    const chunk = new TextEncoder().encode("a".repeat(16 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 100) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const response = await app.request("/login", {
      method: "POST",
      headers: { Origin: TEST_ORIGIN, "Content-Type": "application/x-www-form-urlencoded" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(sent).toBeLessThan(100);
  });
});
