import { z } from "zod";
import { idSchema } from "../shared/fields.ts";

// The catalogue as a spreadsheet (docs/decisions/058): its columns, the inputs of its pages, and their texts.

/** One row per size (SKU); the product's columns are repeated on each of its sizes' rows. */
export const CATALOG_CSV_COLUMNS = [
  "product",
  "description",
  "category",
  "size",
  "sku",
  "price",
  "compare_at_price",
  "stock",
  "sale_starts_at",
  "sale_ends_at",
  "light",
  "watering",
  "water_every_days",
  "pet_safe",
  "difficulty",
  "place",
  "height_cm",
  "flowering",
] as const;
export type CatalogCsvColumn = (typeof CATALOG_CSV_COLUMNS)[number];
export type CatalogCsvRow = Record<CatalogCsvColumn, string>;

/** The columns an import cannot do without; the others, when absent, are read as empty. */
export const REQUIRED_IMPORT_COLUMNS: readonly CatalogCsvColumn[] = ["product", "category", "sku", "price", "stock"];

/** A file larger than this is refused before it is read: 10,000 sizes take about 3 MB. */
export const CSV_IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const CSV_IMPORT_MAX_ROWS = 20_000;
/** Rows written between two pauses that let the shop's other requests run. */
export const CSV_IMPORT_BATCH_ROWS = 200;

/** The orders export's columns: one line per order line, the order's columns repeated. */
export const ORDERS_CSV_COLUMNS = [
  "order_number",
  "date",
  "customer",
  "status",
  "sku",
  "product",
  "quantity",
  "unit_price",
  "line_total",
  "coupon",
  "discount",
  "shipping",
  "order_total",
  "payment_method",
  "payment_reference",
] as const;

/** The preview or import a token names (the import page's address carries it). */
export const importTokenSchema = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, "This import is not known: upload the file again.") });

const day = z.iso.date({ error: "Enter a date such as 2026-11-01" });

/** /admin/orders/export.csv: the days (in the shop's time zone) from and to, both included. */
export const ordersExportSchema = z
  .object({ from: day, to: day })
  .refine((range) => range.from <= range.to, { path: ["to"], message: "The last day must not come before the first" });
export type OrdersExportRange = z.output<typeof ordersExportSchema>;

/** A keyset position of the orders export: the created_at and id of the last order read. */
export const ordersExportCursorSchema = z.object({ createdAt: z.string(), id: idSchema });

export const catalogCsvMessages = {
  exportButton: "Export CSV",
  importHeading: "Import products from a CSV file",
  importHelp: "Upload a CSV file with the export's columns. Rows are matched by SKU: you see what will change before anything is saved.",
  chooseFile: "CSV file",
  preview: "Preview",
  apply: "Import",
  noFile: "Choose a CSV file to upload.",
  tooLarge: (maxBytes: number) => `The file is too large: a catalogue file may be at most ${Math.round(maxBytes / 1024 / 1024)} MB.`,
  tooManyRows: (max: number) => `The file has more than ${max.toLocaleString("en-IN")} rows: split it into smaller files.`,
  notCsv: (detail: string) => `The file could not be read as CSV: ${detail}`,
  empty: "The file has no rows under its header.",
  missingColumns: (columns: readonly string[]) => `The file lacks the column${columns.length > 1 ? "s" : ""} ${columns.join(", ")}. Start from an exported file.`,
  unknownToken: "This import is not known any more: upload the file again.",
  alreadyStarted: "This import has already been started.",
  row: (row: number, reason: string) => `Row ${row}: ${reason}`,
  priceNotRupees: "price must be a number of rupees like 499 or 499.50",
  compareAtNotRupees: "compare_at_price must be empty or a number of rupees like 599 or 599.50",
  unknownCategory: (name: string) => `category "${name}" does not exist: add it in the shop (with its picture) first`,
  productDiffers: (column: string, firstRow: number) => `its ${column} differs from row ${firstRow} of the same product`,
  becauseOfRow: (row: number) => `refused with its product because of row ${row}`,
  skuTwiceInFile: (firstRow: number) => `its SKU is already on row ${firstRow}`,
  nameOfAnother: "another product in the shop has this name",
  unchanged: "unchanged",
  created: "new product",
  newSize: "new size",
  progress: (done: number, total: number) => `Imported ${done.toLocaleString("en-IN")} of ${total.toLocaleString("en-IN")} rows`,
  finished: "Import finished",
  stopped: "The import stopped before it finished: the server running it was restarted. Upload the file again to import the rest; the rows already imported show as unchanged.",
  ordersExportHeading: "Export orders as CSV",
  from: "From",
  to: "To",
} as const;

/** What the preview says of one row of the file. */
export interface ImportPreviewRow {
  /** The row's number as a spreadsheet shows it (the header is row 1). */
  row: number;
  sku: string;
  product: string;
  outcome: "created" | "changed" | "unchanged" | "refused";
  /** What changes, each "price Rs. 499 → Rs. 549"; for a refused row, why. */
  details: string[];
}

/** A preview (and, once started, its import's progress) as the import page shows it. */
export interface ImportView {
  token: string;
  fileName: string;
  counts: Record<ImportPreviewRow["outcome"], number>;
  /** The rows that are not unchanged, in file order, at most IMPORT_ROWS_SHOWN of them. */
  rows: ImportPreviewRow[];
  totalRows: number;
  /** `stopped`: left running by a server that no longer writes its progress (restarted in the middle). */
  state: "preview" | "running" | "finished" | "stopped";
  /** Rows written so far (of the rows to write: created and changed). */
  done: number;
  toWrite: number;
  /** Rows the import itself refused (a sale or another edit in the meantime), with why. */
  failures: string[];
}

export const IMPORT_ROWS_SHOWN = 500;

/**
 * A cell a spreadsheet would run as a formula: exports put an apostrophe before it (app/shared/lib/csv-download.ts),
 * and the import takes that apostrophe off again.
 */
export const FORMULA_START = /^[=+\-@\t\r]/;
