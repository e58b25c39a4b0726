import { randomBytes } from "node:crypto";
import { setImmediate as nextTurn } from "node:timers/promises";
import { CsvError, parse } from "csv-parse/sync";
import { sql } from "kysely";
import type { z } from "zod";
import { adminMessages } from "#common/admin/admin-messages.ts";
import { productFormSchema, type ProductForEdit } from "#common/admin/admin-schemas.ts";
import {
  CATALOG_CSV_COLUMNS,
  catalogCsvMessages as t,
  CSV_IMPORT_BATCH_ROWS,
  CSV_IMPORT_MAX_BYTES,
  CSV_IMPORT_MAX_ROWS,
  FORMULA_START,
  IMPORT_ROWS_SHOWN,
  importTokenSchema,
  REQUIRED_IMPORT_COLUMNS,
  type CatalogCsvColumn,
  type CatalogCsvRow,
  type ImportPreviewRow,
  type ImportView,
} from "#common/admin/catalog-csv.ts";
import { formatPrice, paiseToRupeesInput } from "#common/shared/money.ts";
import { shopClock } from "../../platform/clock.ts";
import { InvalidInputError, NotFoundError, parseInput, ServiceError, ConflictError } from "../../platform/errors.ts";
import { requireAdmin, type SessionUser } from "../../platform/session-user.ts";
import type { CatalogEditingContext } from "./catalog-editing-context.ts";
import { capitaliseFirst, createProductWithoutPictures, getProductForEdit, updateProduct } from "./product-form.ts";

// The catalogue from a spreadsheet (docs/decisions/058): the file is read and compared with the shop into a preview
// kept in the database (catalog_imports) under a random token; the import then saves each product through the
// product form's own save (every rule of the form), a batch of rows at a time, as a job of the process that started
// it, which writes its progress to the same row after each batch. Any server copy shows the preview and the
// progress, and only one can start an import.

export type CsvImportContext = Pick<CatalogEditingContext, "db" | "database" | "changes" | "images" | "timeZone" | "restocked">;

/** A preview is kept a day: long enough to read it, short enough that abandoned ones do not pile up. */
const PREVIEW_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * A running import writes its progress every CSV_IMPORT_BATCH_ROWS rows, a few seconds apart; one that has written
 * none for this long was left by a server that stopped in the middle, and is shown as stopped (its page then stops
 * reloading itself). Should a slow batch pass it, its next progress shows it running again.
 */
export const IMPORT_STALLED_AFTER_MS = 5 * 60 * 1000;

/** One product's save: the form's input, made from the file's rows and what the product has. */
interface PlannedSave {
  productId: string | null;
  input: Record<string, unknown>;
  rows: number[];
}

interface StoredPreview {
  view: ImportView;
  plans: PlannedSave[];
}

/** The product columns every row of one product must agree on. */
const PRODUCT_COLUMNS: readonly CatalogCsvColumn[] = CATALOG_CSV_COLUMNS.filter((column) => !["size", "sku", "price", "compare_at_price", "stock"].includes(column));
const CARE_PARTS = [
  ["light", "light"],
  ["watering", "watering"],
  ["water_every_days", "waterEveryDays"],
  ["pet_safe", "petSafe"],
  ["difficulty", "difficulty"],
  ["place", "place"],
  ["height_cm", "heightCm"],
  ["flowering", "flowering"],
] as const;

/** Reads the uploaded file and answers its preview; nothing of the catalogue is written. */
export async function previewImport(ctx: CsvImportContext, viewer: SessionUser | null, file: File | null): Promise<ImportView> {
  requireAdmin(viewer);
  if (!file || file.size === 0) throw new InvalidInputError(t.noFile, { file: t.noFile });
  if (file.size > CSV_IMPORT_MAX_BYTES) throw new InvalidInputError(t.tooLarge(CSV_IMPORT_MAX_BYTES), { file: t.tooLarge(CSV_IMPORT_MAX_BYTES) });
  const records = readCsv(await file.text());
  const preview = await planImport(ctx, viewer, records);
  const token = randomBytes(18).toString("base64url");
  const view: ImportView = { ...preview.view, token, fileName: file.name.slice(0, 200) };
  const now = shopClock.now();
  // Previews are forgotten a day on, when another is made: the table holds a day's previews, whatever was imported.
  await ctx.db.deleteFrom("catalog_imports").where("created_at", "<", new Date(now - PREVIEW_LIFETIME_MS).toISOString()).execute();
  const at = new Date(now).toISOString();
  await ctx.db
    .insertInto("catalog_imports")
    .values({ token, state: "preview", view: JSON.stringify(view), plans: JSON.stringify(preview.plans), created_at: at, updated_at: at })
    .execute();
  return view;
}

/** A preview, or its import's progress. */
export async function getImport(ctx: CsvImportContext, viewer: SessionUser | null, input: unknown): Promise<ImportView> {
  requireAdmin(viewer);
  const { token } = parseInput(importTokenSchema, input);
  const row = await ctx.db.selectFrom("catalog_imports").select(["view", "updated_at"]).where("token", "=", token).executeTakeFirst();
  if (!row) throw new NotFoundError(t.unknownToken);
  const view = JSON.parse(row.view) as ImportView;
  const stalled = shopClock.now() - new Date(row.updated_at).getTime() > IMPORT_STALLED_AFTER_MS;
  return view.state === "running" && stalled ? { ...view, state: "stopped" } : view;
}

/**
 * Starts writing a preview's saves in this process and answers at once; `finished` resolves when the last batch is
 * written (the tests wait on it). A second start of the same import, from any server copy, is refused.
 */
export async function startImport(ctx: CsvImportContext, viewer: SessionUser | null, input: unknown): Promise<{ view: ImportView; finished: Promise<ImportView> }> {
  const admin = requireAdmin(viewer);
  const { token } = parseInput(importTokenSchema, input);
  const stored = await readPreview(ctx, token);
  if (stored.view.state !== "preview") throw new ConflictError(t.alreadyStarted);
  const view: ImportView = { ...stored.view, state: "running", done: 0, failures: [] };
  // The start is taken by whichever request changes the row from a preview first; any other sees it taken.
  const taken = await ctx.db
    .updateTable("catalog_imports")
    .set({ state: "running", view: JSON.stringify(view), updated_at: new Date(shopClock.now()).toISOString() })
    .where("token", "=", token)
    .where("state", "=", "preview")
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) !== 1) throw new ConflictError(t.alreadyStarted);
  const finished = applyPlans(ctx, admin, token, view, stored.plans)
    .finally(async () => {
      view.state = "finished";
      await writeProgress(ctx, token, view);
    })
    .then(() => view);
  return { view: { ...view }, finished };
}

/** The import's progress as every copy reads it; finished, its plans are no longer kept. */
async function writeProgress(ctx: CsvImportContext, token: string, view: ImportView): Promise<void> {
  await ctx.db
    .updateTable("catalog_imports")
    .set({ state: view.state === "finished" ? "finished" : "running", view: JSON.stringify(view), updated_at: new Date(shopClock.now()).toISOString(), ...(view.state === "finished" ? { plans: "[]" } : {}) })
    .where("token", "=", token)
    .execute();
}

async function applyPlans(ctx: CsvImportContext, admin: SessionUser, token: string, view: ImportView, plans: PlannedSave[]): Promise<void> {
  let sinceBreak = 0;
  for (const plan of plans) {
    try {
      if (plan.productId === null) await createProductWithoutPictures(ctx, admin, plan.input);
      else await updateProduct(ctx, admin, { productId: plan.productId }, plan.input);
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      // Something changed since the preview (a sale moved a stock, a name was taken): that product is left as it is.
      view.failures.push(t.row(plan.rows[0] ?? 0, error.message));
    }
    view.done += plan.rows.length;
    sinceBreak += plan.rows.length;
    if (sinceBreak >= CSV_IMPORT_BATCH_ROWS) {
      sinceBreak = 0;
      await writeProgress(ctx, token, view);
      // Lets the shop's requests in between batches: a 10,000-row import never holds the process for long.
      await nextTurn();
    }
  }
}

async function readPreview(ctx: CsvImportContext, token: string): Promise<StoredPreview> {
  const row = await ctx.db.selectFrom("catalog_imports").select(["view", "plans"]).where("token", "=", token).executeTakeFirst();
  if (!row) throw new NotFoundError(t.unknownToken);
  return { view: JSON.parse(row.view) as ImportView, plans: JSON.parse(row.plans) as PlannedSave[] };
}

/** The file's rows under its header, with the apostrophe the export puts before a formula-like cell taken off again. */
function readCsv(text: string): CatalogCsvRow[] {
  let records: Record<string, string>[];
  try {
    records = parse(text, {
      bom: true,
      columns: (header: string[]) => header.map((name) => name.trim().toLowerCase()),
      skip_empty_lines: true,
      relax_column_count: true,
      to: CSV_IMPORT_MAX_ROWS + 1,
    });
  } catch (error) {
    if (error instanceof CsvError) throw new InvalidInputError(t.notCsv(error.message), { file: t.notCsv(error.message) });
    throw error;
  }
  if (records.length > CSV_IMPORT_MAX_ROWS) throw new InvalidInputError(t.tooManyRows(CSV_IMPORT_MAX_ROWS), { file: t.tooManyRows(CSV_IMPORT_MAX_ROWS) });
  if (records.length === 0) throw new InvalidInputError(t.empty, { file: t.empty });
  const missing = REQUIRED_IMPORT_COLUMNS.filter((column) => !(column in records[0]!));
  if (missing.length) throw new InvalidInputError(t.missingColumns(missing), { file: t.missingColumns(missing) });
  return records.map((record) => {
    const row = {} as CatalogCsvRow;
    for (const column of CATALOG_CSV_COLUMNS) {
      const cell = record[column] ?? "";
      row[column] = (cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell).trim();
    }
    return row;
  });
}

interface RowOutcome {
  outcome: ImportPreviewRow["outcome"];
  details: string[];
}

/** Compares the file with the shop, a product (its rows) at a time, reading the products its SKUs name. */
async function planImport(ctx: CsvImportContext, viewer: SessionUser | null, rows: CatalogCsvRow[]): Promise<{ view: Omit<ImportView, "token" | "fileName">; plans: PlannedSave[] }> {
  const outcomes: RowOutcome[] = rows.map(() => ({ outcome: "unchanged", details: [] }));
  const refuse = (index: number, reason: string) => {
    outcomes[index] = { outcome: "refused", details: [reason] };
  };
  // The SKUs the shop has, and the product of each; names and categories likewise, all read by index in chunks.
  const skuOwner = new Map<string, string>();
  const nameOwner = new Map<string, string>();
  const categories = new Set<string>();
  const lower = (values: Iterable<string>) => [...new Set([...values].map((value) => value.toLowerCase()).filter(Boolean))];
  for (const chunk of chunks(lower(rows.map((row) => row.sku)), 500)) {
    const found = await ctx.db.selectFrom("product_variants").select(["sku", "product_id"]).where(sql<string>`lower(sku)`, "in", chunk).execute();
    for (const size of found) skuOwner.set(size.sku.toLowerCase(), size.product_id);
  }
  for (const chunk of chunks(lower(rows.map((row) => capitaliseFirst(row.product))), 500)) {
    const found = await ctx.db.selectFrom("products").select(["id", "name"]).where(sql<string>`lower(name)`, "in", chunk).execute();
    for (const product of found) nameOwner.set(product.name.toLowerCase(), product.id);
  }
  for (const chunk of chunks(lower(rows.map((row) => row.category)), 500)) {
    const found = await ctx.db.selectFrom("categories").select("name").where(sql<string>`lower(name)`, "in", chunk).execute();
    for (const category of found) categories.add(category.name.toLowerCase());
  }

  // A product's rows: by the product its SKUs belong to, else by its name (a new product).
  const groups = new Map<string, number[]>();
  const firstRowOfSku = new Map<string, number>();
  rows.forEach((row, index) => {
    const sku = row.sku.toLowerCase();
    const earlier = firstRowOfSku.get(sku);
    if (sku && earlier !== undefined) return refuse(index, t.skuTwiceInFile(earlier + 2));
    firstRowOfSku.set(sku, index);
    const key = skuOwner.get(sku) ?? `new:${row.product.toLowerCase()}`;
    groups.set(key, [...(groups.get(key) ?? []), index]);
  });

  const plans: PlannedSave[] = [];
  let sinceBreak = 0;
  for (const [key, members] of groups) {
    const indexes = members.filter((index) => outcomes[index]!.outcome !== "refused");
    if (indexes.length === 0) continue;
    const productId = key.startsWith("new:") ? null : key;
    const plan = await planProduct(ctx, viewer, rows, indexes, productId, { nameOwner, categories }, outcomes);
    if (plan) plans.push(plan);
    sinceBreak += indexes.length;
    if (sinceBreak >= CSV_IMPORT_BATCH_ROWS) {
      sinceBreak = 0;
      await nextTurn();
    }
  }

  const counts = { created: 0, changed: 0, unchanged: 0, refused: 0 };
  const shown: ImportPreviewRow[] = [];
  outcomes.forEach((outcome, index) => {
    counts[outcome.outcome] += 1;
    if (outcome.outcome !== "unchanged" && shown.length < IMPORT_ROWS_SHOWN) {
      shown.push({ row: index + 2, sku: rows[index]!.sku, product: rows[index]!.product, outcome: outcome.outcome, details: outcome.details });
    }
  });
  return {
    // A product's rows are saved together, its unchanged sizes with its changed ones: the progress counts them all.
    view: { counts, rows: shown, totalRows: rows.length, state: "preview", done: 0, toWrite: plans.reduce((sum, plan) => sum + plan.rows.length, 0), failures: [] },
    plans,
  };
}

/** One product's rows: refused (every one, with why), unchanged, or a save with what each row changes. */
async function planProduct(
  ctx: CsvImportContext,
  viewer: SessionUser | null,
  rows: CatalogCsvRow[],
  indexes: number[],
  productId: string | null,
  shop: { nameOwner: Map<string, string>; categories: Set<string> },
  outcomes: RowOutcome[],
): Promise<PlannedSave | null> {
  const refuseAll = (reasonOf: (index: number) => string) => {
    for (const index of indexes) outcomes[index] = { outcome: "refused", details: [reasonOf(index)] };
    return null;
  };
  const firstIndex = indexes[0]!;
  const first = rows[firstIndex]!;
  const rowNumber = (index: number) => index + 2;
  for (const index of indexes.slice(1)) {
    const differing = PRODUCT_COLUMNS.find((column) => rows[index]![column] !== first[column]);
    if (differing) return refuseAll((i) => (i === index ? t.productDiffers(differing, rowNumber(firstIndex)) : t.becauseOfRow(rowNumber(index))));
  }
  if (first.category && !shop.categories.has(first.category.toLowerCase())) return refuseAll(() => t.unknownCategory(first.category));
  const namedProduct = shop.nameOwner.get(capitaliseFirst(first.product).toLowerCase());
  if (namedProduct !== undefined && namedProduct !== productId) return refuseAll(() => t.nameOfAnother);

  const existing = productId === null ? null : await getProductForEdit(ctx, viewer, { productId });
  const sizes = (existing?.variants ?? []).map((size) => ({
    id: size.id,
    label: size.label,
    sku: size.sku,
    price: paiseToRupeesInput(size.pricePaise),
    compareAt: size.compareAtPaise === null ? "" : paiseToRupeesInput(size.compareAtPaise),
    stock: String(size.stock),
    stockBefore: String(size.stock),
    image: size.imageId ?? "",
  }));
  // Which size of the form each row is: one the product has (by SKU) or a new one, added after them.
  const sizeOfRow = new Map<number, number>();
  for (const index of indexes) {
    const row = rows[index]!;
    const at = sizes.findIndex((size) => size.sku.toLowerCase() === row.sku.toLowerCase());
    const values = { label: row.size, sku: row.sku, price: row.price, compareAt: row.compare_at_price, stock: row.stock };
    if (at >= 0) {
      sizes[at] = { ...sizes[at]!, ...values };
      sizeOfRow.set(at, index);
    } else {
      sizes.push({ id: "", image: "", stockBefore: "", ...values });
      sizeOfRow.set(sizes.length - 1, index);
    }
  }
  const input = {
    name: first.product,
    description: first.description,
    category: first.category,
    images: (existing?.images ?? []).map((image) => `image:${image.id}`),
    saleStartsAt: first.sale_starts_at,
    saleEndsAt: first.sale_ends_at,
    variants: sizes.map(({ stockBefore, ...size }) => (stockBefore === "" ? size : { ...size, stockBefore })),
    care: Object.fromEntries(CARE_PARTS.map(([column, part]) => [part, first[column]])),
  };
  const parsed = productFormSchema.safeParse(input);
  if (!parsed.success) {
    const reasons = new Map<number, string>();
    for (const issue of parsed.error.issues) {
      const [top, at, field] = issue.path;
      const index = top === "variants" && typeof at === "number" ? (sizeOfRow.get(at) ?? firstIndex) : firstIndex;
      if (!reasons.has(index)) reasons.set(index, reasonFor(issue, top === "variants" ? field : top === "care" ? at : top));
    }
    const [firstBad, firstReason] = [...reasons][0]!;
    return refuseAll((index) => reasons.get(index) ?? `${t.becauseOfRow(rowNumber(firstBad))}: ${firstReason}`);
  }
  const form = parsed.data;
  if (existing === null) {
    indexes.forEach((index) => (outcomes[index] = { outcome: "created", details: [index === firstIndex ? t.created : t.newSize] }));
    return { productId: null, input, rows: indexes.map(rowNumber) };
  }
  const productChanges = describeProductChanges(existing, form);
  let changed = false;
  for (const [at, index] of sizeOfRow) {
    const before = existing.variants[at];
    const after = form.variants![at]!;
    const details = index === firstIndex ? [...productChanges] : [];
    if (!before) details.push(t.newSize);
    else {
      if (before.label !== after.label) details.push(`size "${before.label}" → "${after.label}"`);
      if (before.sku !== after.sku) details.push(`SKU ${before.sku} → ${after.sku}`);
      if (before.pricePaise !== after.price) details.push(`price ${formatPrice(before.pricePaise)} → ${formatPrice(after.price)}`);
      if (before.compareAtPaise !== after.compareAt) details.push(`compare-at price ${priceOrNone(before.compareAtPaise)} → ${priceOrNone(after.compareAt)}`);
      if (before.stock !== after.stock) details.push(`stock ${before.stock} → ${after.stock}`);
    }
    outcomes[index] = details.length ? { outcome: "changed", details } : { outcome: "unchanged", details: [] };
    changed ||= details.length > 0;
  }
  return changed ? { productId, input, rows: indexes.map(rowNumber) } : null;
}

function priceOrNone(paise: number | null): string {
  return paise === null ? "none" : formatPrice(paise);
}

function describeProductChanges(existing: ProductForEdit, form: z.output<typeof productFormSchema>): string[] {
  const changes: string[] = [];
  const name = capitaliseFirst(form.name);
  if (existing.name !== name) changes.push(`name "${existing.name}" → "${name}"`);
  if (existing.description !== form.description) changes.push("description");
  if (existing.categoryName.toLowerCase() !== form.category.toLowerCase()) changes.push(`category ${existing.categoryName} → ${form.category}`);
  if ((existing.saleStartsAt ?? "") !== (form.saleStartsAt ?? "")) changes.push(`sale start ${existing.saleStartsAt ?? "none"} → ${form.saleStartsAt ?? "none"}`);
  if ((existing.saleEndsAt ?? "") !== (form.saleEndsAt ?? "")) changes.push(`sale end ${existing.saleEndsAt ?? "none"} → ${form.saleEndsAt ?? "none"}`);
  for (const [column, part] of CARE_PARTS) {
    const before = existing.care[part];
    const after = form.care?.[part] ?? null;
    if (before !== after) changes.push(`${column} ${before ?? "none"} → ${after ?? "none"}`);
  }
  return changes;
}

/** A refusal in the file's words: the column, and the form's message for it. */
function reasonFor(issue: z.core.$ZodIssue, field: PropertyKey | undefined): string {
  const m = adminMessages.productForm;
  if (field === "price" && issue.message === m.priceInvalid) return t.priceNotRupees;
  if (field === "compareAt" && issue.message === m.compareAtInvalid) return t.compareAtNotRupees;
  const columns: Record<string, string> = {
    name: "product",
    label: "size",
    compareAt: "compare_at_price",
    saleStartsAt: "sale_starts_at",
    saleEndsAt: "sale_ends_at",
    waterEveryDays: "water_every_days",
    petSafe: "pet_safe",
    heightCm: "height_cm",
  };
  const column = typeof field === "string" ? (columns[field] ?? field) : "row";
  return `${column}: ${issue.message}`;
}

function* chunks<T>(values: T[], size: number): Generator<T[]> {
  for (let start = 0; start < values.length; start += size) yield values.slice(start, start + size);
}
