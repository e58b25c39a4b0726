import { randomUUID } from "node:crypto";
import { adminMessages } from "../../common/admin/admin-messages.ts";
import { messages } from "../../common/shared/messages.ts";
import { MAX_UPLOAD_BYTES } from "../../common/shared/uploads.ts";
import { createCategory } from "../support/factories.ts";
import { allowStatusLogs, expect as baseExpect, test } from "./support/fixtures.ts";
import { fileOf, logInAsAdmin, fillProductDetails, hydrated, pixelFloodPng, removeFiles } from "./support/upload-files.ts";

// Pictures the product form refuses (docs/decisions/022: checked by content, at most 20 MB, a decompression bomb refused
// undecoded), each with its message from common/, word for word.

const f = adminMessages.productForm;
const expect = baseExpect.configure({ timeout: 30_000 });
const unique = (kind: string) => `${kind} ${randomUUID().slice(0, 8)}`;
test.afterAll(removeFiles);
// With Playwright's trace recorder on, a preview the browser cannot decode (these files are not pictures it can
// draw) makes Chrome report a blocked connection to the preview's blob: address under connect-src; with tracing
// off these tests log nothing. Off here, so the console check stays strict rather than filtered.
test.use({ trace: "off" });

test.describe("pictures the product form refuses", () => {
  test.describe.configure({ timeout: 120_000 });

  test("a file over 20 MB is refused before any byte is sent, with the message naming the 20 MB limit", async ({ page }) => {
    const uploadRequests: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname.startsWith("/api/uploads")) uploadRequests.push(`${request.method()} ${request.url()}`);
    });
    await logInAsAdmin(page);
    await page.goto("/add-product");
    const productImages = page.getByLabel("Product Images", { exact: true });
    await hydrated(productImages);
    await productImages.setInputFiles(fileOf("huge.png", Buffer.alloc(MAX_UPLOAD_BYTES + 1, 1)));
    await expect(page.getByRole("alert").filter({ hasText: "huge.png" })).toHaveText(`huge.png: ${messages.uploads.tooLarge}`);
    await expect(page.locator('input[type="hidden"][name="images"]')).toHaveCount(0);
    expect(uploadRequests).toEqual([]);
  });

  test("a text file named .png is refused by its content when the product is saved, with the message naming the accepted types", async ({ page, shopDb, consoleErrors }) => {
    const category = await createCategory(shopDb.db, { name: unique("Refusal Shelf") });
    await logInAsAdmin(page);
    await page.goto("/add-product");
    const name = unique("text fern");
    await fillProductDetails(page, name, category.name);
    const productImages = page.getByLabel("Product Images", { exact: true });
    await hydrated(productImages);
    await productImages.setInputFiles(fileOf("fern.png", Buffer.from("Not a picture at all, just some words about ferns.\n".repeat(20))));
    await expect(page.locator('input[type="hidden"][name="images"]')).toHaveCount(1);
    await page.getByRole("button", { name: f.addHeading }).click();

    const alert = page.getByRole("alert");
    await expect(alert.getByText(f.failed, { exact: true })).toBeVisible();
    await expect(alert.getByTestId("failure-reason")).toHaveText(messages.images.unsupported);
    expect(await shopDb.db.selectFrom("products").select("id").where("category_id", "=", category.id).execute()).toEqual([]);
    allowStatusLogs(consoleErrors, 400);
  });

  test("a pixel-flood PNG (a few bytes claiming 100,000 × 100,000) is refused unopened when the product is saved, with the too-many-pixels message", async ({ page, shopDb, consoleErrors }) => {
    const category = await createCategory(shopDb.db, { name: unique("Flood Shelf") });
    await logInAsAdmin(page);
    await page.goto("/add-product");
    await fillProductDetails(page, unique("flood fern"), category.name);
    const productImages = page.getByLabel("Product Images", { exact: true });
    await hydrated(productImages);
    await productImages.setInputFiles(fileOf("flood.png", await pixelFloodPng()));
    await expect(page.locator('input[type="hidden"][name="images"]')).toHaveCount(1);
    await page.getByRole("button", { name: f.addHeading }).click();

    const alert = page.getByRole("alert");
    await expect(alert.getByText(f.failed, { exact: true })).toBeVisible();
    await expect(alert.getByTestId("failure-reason")).toHaveText(messages.images.tooManyPixels);
    expect(await shopDb.db.selectFrom("products").select("id").where("category_id", "=", category.id).execute()).toEqual([]);
    allowStatusLogs(consoleErrors, 400);
  });

  test("a picture past the admin's room for unfinished uploads is refused as its upload starts, with the quota's message beside the file", async ({ page, consoleErrors }) => {
    await logInAsAdmin(page);
    const tus = { "Tus-Resumable": "1.0.0", Origin: new URL(page.url()).origin };
    const waiting: string[] = [];
    try {
      // Fill the admin's room (1024 MB by default) with uploads that send nothing: of the largest size while they
      // fit, then of 1 MB (the least an upload counts) until not even that fits.
      for (const declared of [MAX_UPLOAD_BYTES, 1024 * 1024]) {
        for (let refused = false, i = 0; !refused; i++) {
          expect(i, "the room fills within 60 uploads of each size").toBeLessThan(60);
          const created = await page.request.post("/api/uploads", {
            headers: { ...tus, "Upload-Length": String(declared), "Upload-Metadata": `purpose ${btoa("product")}` },
          });
          refused = created.status() !== 201;
          if (refused) expect(created.status()).toBe(413);
          else waiting.push(created.headers()["location"]!);
        }
      }

      await page.goto("/add-product");
      const productImages = page.getByLabel("Product Images", { exact: true });
      await hydrated(productImages);
      await productImages.setInputFiles(fileOf("one-too-many.png", await pixelFloodPng()));
      await expect(page.getByRole("alert").filter({ hasText: "one-too-many.png" })).toHaveText(
        `one-too-many.png: ${messages.uploads.accountQuotaReached(1024)}`,
      );
      await expect(page.locator('input[type="hidden"][name="images"]')).toHaveCount(0);
      allowStatusLogs(consoleErrors, 413);
    } finally {
      // The room is given back for the tests after this one.
      for (const location of waiting) expect((await page.request.delete(location, { headers: tus })).status()).toBe(204);
    }
  });
});
