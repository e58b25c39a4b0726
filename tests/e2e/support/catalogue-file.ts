import { readFile } from "node:fs/promises";
import type { Download, Page } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { catalogCsvMessages as t } from "../../../common/admin/catalog-csv.ts";

/** The downloaded file's text, without the byte-order mark the export starts with for spreadsheet programs. */
export async function downloadedText(download: Download): Promise<string> {
  const text = await readFile(await download.path(), "utf8");
  return text.replace(/^\uFEFF/, "");
}

/** The catalogue as the owner downloads it from the products page `page` shows: its header and its rows. */
export async function exportedCatalogue(page: Page): Promise<{ header: string[]; body: string[][] }> {
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: t.exportButton }).click();
  const [header, ...body] = parse(await downloadedText(await downloading)) as string[][];
  return { header: header!, body };
}

/** `rows` under `header` as a file to choose in the import's form. */
export function catalogueFile(header: string[], rows: string[][], name = "catalogue.csv") {
  return { name, mimeType: "text/csv", buffer: Buffer.from(stringify([header, ...rows])) };
}
