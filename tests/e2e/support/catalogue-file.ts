import { readFile } from "node:fs/promises";
import { expect, type Download, type Page } from "@playwright/test";
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

/**
 * From the products page `page` shows: the catalogue downloaded with `sku`'s price set to `rupees`, chosen in the
 * import form and previewed. Answers the summary line the preview should show for it (one row changed).
 */
export async function previewPriceEdit(page: Page, sku: string, rupees: string): Promise<string> {
  const { header, body } = await exportedCatalogue(page);
  const edited = body.filter((row) => row[header.indexOf("sku")] === sku);
  expect(edited).toHaveLength(1);
  edited[0]![header.indexOf("price")] = rupees;
  await page.getByRole("link", { name: "Import CSV" }).click();
  await page.getByLabel(t.chooseFile).setInputFiles(catalogueFile(header, body));
  await page.getByRole("button", { name: t.preview }).click();
  return `catalogue.csv: ${body.length} rows — 0 created, 1 changed, ${body.length - 1} unchanged, 0 refused.`;
}
