import { afterEach, describe, expect, it } from "vitest";
import { MAX_IMAGE_BYTES } from "../../common/constants.ts";
import { messages } from "../../common/messages.ts";
import type { PageHandler } from "../../server/http/pages.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "../support/test-app.ts";

let app: TestApp | undefined;
afterEach(async () => {
  await app?.cleanup();
});

// Stands in for React Router: the form's page.
const pages: PageHandler = async () => new Response("<p>the profile form</p>", { headers: { "Content-Type": "text/html" } });

describe("a page form over the upload limit", () => {
  it("gets a page a person can read, with the size limit and a link back to the form", async () => {
    app = await createTestApp({}, { handler: pages });
    const form = new FormData();
    form.set("intent", "update-profile");
    form.set("image", new File([new Uint8Array(MAX_IMAGE_BYTES + 2 * 1024 * 1024)], "huge.png", { type: "image/png" }));
    const response = await app.request("/profile/abc?edit", { method: "POST", headers: { Origin: TEST_ORIGIN }, body: form });
    expect(response.status).toBe(413);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const page = await response.text();
    expect(page).toContain(`<h1>${messages.images.uploadTooLarge}</h1>`);
    expect(page).toContain(messages.images.tooLarge);
    expect(page).toContain('<a href="/profile/abc?edit">');
  });
});
