import { randomUUID } from "node:crypto";
import type { Page, Request, Route } from "@playwright/test";
import { adminMessages } from "../../common/admin/admin-messages.ts";
import { UPLOAD_CHUNK_BYTES } from "../../common/shared/uploads.ts";
import { createCategory } from "../support/factories.ts";
import { expect as baseExpect, test } from "./support/fixtures.ts";
import { fileOf, logInAsAdmin, fillProductDetails, hydrated, removeFiles, twelveMebibytePng } from "./support/upload-files.ts";

// Resumable product pictures (docs/product.md, Pictures: 5 MiB chunks, a dropped connection or a page
// reload resumes from what arrived; decision 022). The refusals are in admin-upload-refusals.spec.ts.

const f = adminMessages.productForm;
// Pictures are decoded to WebP and AVIF while the form is saved on a machine other builds may share: what a
// page should show gets a longer while to appear. This bounds waiting; it asserts no timing.
const expect = baseExpect.configure({ timeout: 30_000 });
const unique = (kind: string) => `${kind} ${randomUUID().slice(0, 8)}`;
const isUploadPatch = (request: Request) => request.method() === "PATCH" && new URL(request.url()).pathname.startsWith("/api/uploads/");
test.afterAll(removeFiles);

/**
 * Every PATCH the server answered: where it began (the request's Upload-Offset) and where the upload stood
 * after it (the server's Upload-Offset). The difference is what the server stored from that request.
 */
function recordPatches(page: Page) {
  const answered: Array<{ url: string; from: number; to: number }> = [];
  page.on("response", (response) => {
    const request = response.request();
    if (!isUploadPatch(request) || response.status() !== 204) return;
    answered.push({ url: new URL(request.url()).pathname, from: Number(request.headers()["upload-offset"]), to: Number(response.headers()["upload-offset"]) });
  });
  return answered;
}

/** How much of an upload the server holds, asked with the tus HEAD as the signed-in page's session. */
async function serverOffset(page: Page, uploadPath: string): Promise<number> {
  const response = await page.request.head(uploadPath, { headers: { "Tus-Resumable": "1.0.0" } });
  expect(response.status(), `HEAD ${uploadPath}`).toBe(200);
  return Number(response.headers()["upload-offset"]);
}

/** Chrome logs a request the test cut as a console error; only those lines are dropped. */
function allowCutRequestLogs(consoleErrors: string[]) {
  consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((error) => !/^Failed to load resource: net::ERR_(FAILED|CONNECTION_RESET)$/.test(error)));
}

test.describe("resumable product pictures", () => {
  // A 12 MiB picture uploaded, then decoded into WebP and AVIF at three widths: a generous bound, not a timing claim.
  test.describe.configure({ timeout: 300_000 });

  test("a 12 MiB picture whose second chunk is cut off resumes from the 5 MiB that arrived, sends each byte once, and the product is saved with it", async ({ page, shopDb, consoleErrors }) => {
    const png = await twelveMebibytePng();
    const category = await createCategory(shopDb.db, { name: unique("Resume Shelf") });
    const answered = recordPatches(page);
    // What the server told the browser after the cut, when it asked (tus HEAD) how much had arrived.
    const asked: number[] = [];
    page.on("response", (response) => {
      const request = response.request();
      if (request.method() === "HEAD" && new URL(request.url()).pathname.startsWith("/api/uploads/")) asked.push(Number(response.headers()["upload-offset"]));
    });
    const cut: string[] = [];
    // The second chunk's request fails as a dropped connection would, once; everything else goes through.
    await page.route(
      (url) => url.pathname.startsWith("/api/uploads/"),
      async (route: Route) => {
        const request = route.request();
        if (isUploadPatch(request) && Number(request.headers()["upload-offset"]) === UPLOAD_CHUNK_BYTES && cut.length === 0) {
          cut.push(new URL(request.url()).pathname);
          await route.abort("connectionreset");
          return;
        }
        await route.continue();
      },
    );

    await logInAsAdmin(page);
    await page.goto("/add-product");
    const name = unique("resumed monstera");
    await fillProductDetails(page, name, category.name);
    const productImages = page.getByLabel("Product Images", { exact: true });
    await hydrated(productImages);
    await productImages.setInputFiles(fileOf(`resumed-${randomUUID().slice(0, 8)}.png`, png));
    await expect(page.locator('input[type="hidden"][name="images"]')).toHaveCount(1, { timeout: 120_000 });

    // The cut happened once; asked afterwards, the server said it held exactly the first chunk.
    expect(cut).toHaveLength(1);
    expect(asked).toEqual([UPLOAD_CHUNK_BYTES]);
    // The browser then went on from 5 MiB (not from 0) on the same upload: three chunks stored, no byte twice.
    const uploadUrl = cut[0]!;
    expect(answered).toEqual([
      { url: uploadUrl, from: 0, to: UPLOAD_CHUNK_BYTES },
      { url: uploadUrl, from: UPLOAD_CHUNK_BYTES, to: 2 * UPLOAD_CHUNK_BYTES },
      { url: uploadUrl, from: 2 * UPLOAD_CHUNK_BYTES, to: png.length },
    ]);
    expect(answered.reduce((stored, patch) => stored + (patch.to - patch.from), 0)).toBe(png.length);
    expect(await page.locator('input[type="hidden"][name="images"]').inputValue()).toBe(`upload:${uploadUrl.split("/").pop()}`);

    await page.getByRole("button", { name: f.addHeading }).click();
    await expect(page).toHaveURL(/\/product\/[\w-]+$/, { timeout: 240_000 });
    const saved = name[0]!.toUpperCase() + name.slice(1);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(saved);
    const productId = new URL(page.url()).pathname.split("/").pop()!;
    const pictures = await shopDb.db.selectFrom("product_images").select(["width", "height", "media_key"]).where("product_id", "=", productId).execute();
    expect(pictures).toEqual([{ width: 1280, height: 1280, media_key: expect.stringMatching(/^[0-9a-f]{32}$/) }]);
    allowCutRequestLogs(consoleErrors);
  });

  test("after a page reload mid-upload, choosing the same 12 MiB picture again resumes the same upload from the chunk that arrived", async ({ page, consoleErrors }) => {
    const file = fileOf(`reloaded-${randomUUID().slice(0, 8)}.png`, await twelveMebibytePng());
    const answered = recordPatches(page);
    const started: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && new URL(request.url()).pathname === "/api/uploads") started.push(request.url());
    });
    // The second chunk is held (the tab is then reloaded), so the server has the first chunk and nothing more.
    let held: Route | undefined;
    await page.route(
      (url) => url.pathname.startsWith("/api/uploads/"),
      async (route: Route) => {
        const request = route.request();
        if (isUploadPatch(request) && Number(request.headers()["upload-offset"]) === UPLOAD_CHUNK_BYTES && !held) {
          held = route;
          return;
        }
        await route.continue();
      },
    );

    await logInAsAdmin(page);
    await page.goto("/add-product");
    let productImages = page.getByLabel("Product Images", { exact: true });
    await hydrated(productImages);
    await productImages.setInputFiles(file);
    await expect.poll(() => held !== undefined, { message: "the second chunk is on its way", timeout: 120_000 }).toBe(true);
    const uploadUrl = new URL(held!.request().url()).pathname;
    expect(await serverOffset(page, uploadUrl)).toBe(UPLOAD_CHUNK_BYTES);

    await page.reload();
    await held!.abort().catch(() => undefined); // the page that sent it is gone
    productImages = page.getByLabel("Product Images", { exact: true });
    await hydrated(productImages);
    await productImages.setInputFiles(file);
    await expect(page.locator('input[type="hidden"][name="images"]')).toHaveCount(1, { timeout: 120_000 });

    // One upload was ever created; after the reload it went on from 5 MiB, and the server stored each byte once.
    expect(started).toHaveLength(1);
    expect(answered.map(({ url, from }) => ({ url, from }))).toEqual([
      { url: uploadUrl, from: 0 },
      { url: uploadUrl, from: UPLOAD_CHUNK_BYTES },
      { url: uploadUrl, from: 2 * UPLOAD_CHUNK_BYTES },
    ]);
    expect(await page.locator('input[type="hidden"][name="images"]').inputValue()).toBe(`upload:${uploadUrl.split("/").pop()}`);
    allowCutRequestLogs(consoleErrors);
  });
});
