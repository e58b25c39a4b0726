import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import sharp from "sharp";
import { UPLOAD_CHUNK_BYTES } from "../../../common/shared/uploads.ts";
import { messages } from "../../../common/shared/messages.ts";
import { expect } from "./fixtures.ts";
import { ADMIN, submitLogin, toast } from "./pages.ts";
export { pixelFloodPng } from "../../support/pixel-flood-png.ts";

// Files and form steps shared by the upload tests (admin-uploads.spec.ts, admin-upload-refusals.spec.ts).

/** Waits until React has hydrated the element, with the longer wait of the picture tests. */
export async function hydrated(element: Locator) {
  await expect
    .poll(() => element.evaluate((el) => Object.keys(el).some((key) => key.startsWith("__reactProps"))), { message: "the page hydrates", timeout: 30_000 })
    .toBe(true);
}

/** Logs the owner in, waiting as long as the rest of these tests for the page (other builds may share the machine). */
export async function logInAsAdmin(page: Page) {
  await page.goto("/login");
  await submitLogin(page, ADMIN);
  await expect(toast(page, messages.auth.loggedIn)).toBeVisible({ timeout: 30_000 });
}

/**
 * Files on disk rather than buffers: the browser's File then has the file's own modification time, which is
 * part of the fingerprint tus-js-client resumes by, so choosing the same file again is recognised.
 */
let folder: string | undefined;
export function fileOf(name: string, content: Buffer): string {
  folder ??= mkdtempSync(path.join(os.tmpdir(), "plant-shop-uploads-"));
  const file = path.join(folder, name);
  writeFileSync(file, content);
  return file;
}
export function removeFiles() {
  if (folder) rmSync(folder, { recursive: true, force: true });
  folder = undefined;
}

/** A PNG of random pixels: it does not compress, so 2048 × 2048 is about 12 MiB, three 5 MiB chunks. */
export async function twelveMebibytePng(): Promise<Buffer> {
  const png = await sharp(randomBytes(2048 * 2048 * 3), { raw: { width: 2048, height: 2048, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
  expect(png.length).toBeGreaterThan(2 * UPLOAD_CHUNK_BYTES);
  expect(png.length).toBeLessThanOrEqual(3 * UPLOAD_CHUNK_BYTES);
  return png;
}

/** The form's fields other than the pictures, for a category that exists (so no category picture is needed). */
export async function fillProductDetails(page: Page, name: string, categoryName: string) {
  await page.getByLabel("Product Name").fill(name);
  await page.getByLabel("Product Description").fill("Grown for the upload tests.");
  await page.getByLabel("Product Price").fill("399");
  await page.getByLabel("Product Category").fill(categoryName);
  await page.getByLabel("Stock Quantity").fill("5");
}
