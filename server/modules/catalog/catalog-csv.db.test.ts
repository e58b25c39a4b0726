import { stringify } from "csv-stringify/sync";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CATALOG_CSV_COLUMNS, catalogCsvMessages as t, CSV_IMPORT_MAX_BYTES, type CatalogCsvRow } from "#common/admin/catalog-csv.ts";
import { careProfile, createCategory, createProduct, createProductWithSizes } from "../../../tests/support/factories.ts";
import { createShopper } from "../../../tests/support/shoppers.ts";
import { createTestDatabase, dialectUnderTest, type TestDatabase } from "../../../tests/support/test-database.ts";
import { createLocalChangeFeed } from "../../platform/change-feed/change-feed.ts";
import { setTestClock } from "../../platform/clock.ts";
import { ForbiddenError, UnauthorizedError } from "../../platform/errors.ts";
import type { SessionUser } from "../../platform/session-user.ts";
import { careColumns } from "./care-columns.ts";
import { createCatalogEditingService, type CatalogEditingService, type CatalogImages } from "./index.ts";
import { IMPORT_STALLED_AFTER_MS } from "./catalog-csv-import.ts";

// The catalogue's CSV (docs/decisions/058): what the export writes, what the preview says of a file without writing,
// and what the import then writes through the product form's save.

const noPictures: CatalogImages = {
  fromUpload: () => Promise.reject(new Error("no uploads in these tests")),
  removeUpload: () => Promise.resolve(),
  remove: () => Promise.resolve(),
};

let database: TestDatabase;
let admin: SessionUser;
let shopper: SessionUser;
let service: CatalogEditingService;

beforeEach(async () => {
  database = await createTestDatabase();
  admin = await createShopper(database.db, dialectUnderTest, { isAdmin: true });
  shopper = await createShopper(database.db, dialectUnderTest);
  service = createCatalogEditingService({ database, changes: createLocalChangeFeed(), images: noPictures });
});
afterEach(async () => {
  setTestClock(Date.now());
  await database.cleanup();
});

/** Another server copy on the same database: a service of its own, sharing nothing with `service` but the tables. */
const anotherCopy = () => createCatalogEditingService({ database, changes: createLocalChangeFeed(), images: noPictures });

async function exportRows(): Promise<CatalogCsvRow[]> {
  const rows: string[][] = [];
  for await (const page of service.exportCatalog(admin)) rows.push(...page);
  return rows.map((cells) => Object.fromEntries(CATALOG_CSV_COLUMNS.map((column, index) => [column, cells[index]!])) as CatalogCsvRow);
}

function csvFile(rows: Partial<CatalogCsvRow>[], name = "catalogue.csv"): File {
  const text = stringify([CATALOG_CSV_COLUMNS as unknown as string[], ...rows.map((row) => CATALOG_CSV_COLUMNS.map((column) => row[column] ?? ""))]);
  return new File([text], name, { type: "text/csv" });
}

async function snapshot() {
  const [products, variants] = await Promise.all([
    database.db.selectFrom("products").selectAll().orderBy("id").execute(),
    database.db.selectFrom("product_variants").selectAll().orderBy("id").execute(),
  ]);
  return { products, variants };
}

async function seedShop() {
  const indoor = await createCategory(database.db, { name: "Indoor" });
  const fern = await createProduct(database.db, { name: "Boston fern", price_paise: 49_900, stock: 4, category_id: indoor.id, ...careColumns(careProfile()) });
  const lily = await createProductWithSizes(
    database.db,
    [
      { label: "Small", price_paise: 29_950, stock: 3 },
      { label: "Large", price_paise: 89_900, stock: 2, compare_at_paise: 99_900 },
    ],
    { name: "Peace lily", category_id: indoor.id, description: "=HYPERLINK(\"http://evil.example\")" },
  );
  return { indoor, fern, lily };
}

describe(`the catalogue export (${dialectUnderTest})`, () => {
  it("writes one row per size with the product's columns repeated, prices in rupees and the care profile", async () => {
    const { fern, lily } = await seedShop();
    const rows = await exportRows();
    expect(rows).toHaveLength(3);
    const fernRow = rows.find((row) => row.sku === `SKU-${fern.id}`)!;
    expect(fernRow).toMatchObject({ product: "Boston fern", category: "Indoor", size: "", price: "499", compare_at_price: "", stock: "4", light: careProfile().light! });
    const lilyRows = rows.filter((row) => row.product === "Peace lily");
    expect(lilyRows.map((row) => [row.size, row.price, row.compare_at_price, row.stock])).toEqual([
      ["Small", "299.50", "", "3"],
      ["Large", "899", "999", "2"],
    ]);
    expect(lilyRows.map((row) => row.sku)).toEqual(lily.sizeIds.map((id) => `SKU-${id}`));
  });

  it("reads past the first page of products: every one of 450 products is written once", async () => {
    const category = await createCategory(database.db);
    for (let i = 0; i < 450; i++) await createProduct(database.db, { category_id: category.id, images: [] });
    let pages = 0;
    const skus = new Set<string>();
    for await (const page of service.exportCatalog(admin)) {
      pages += 1;
      for (const row of page) skus.add(row[CATALOG_CSV_COLUMNS.indexOf("sku")]!);
    }
    expect(skus.size).toBe(450);
    expect(pages).toBeGreaterThan(1);
  });

  it("refuses a shopper and a visitor before reading anything", () => {
    expect(() => service.exportCatalog(shopper)).toThrow(ForbiddenError);
    expect(() => service.exportCatalog(null)).toThrow(UnauthorizedError);
  });
});

/** The seeded shop's export with the first row's stock set to `stock`, previewed: one product to write. */
async function previewOfStockEdit(stock: string) {
  await seedShop();
  const rows = await exportRows();
  rows[0]!.stock = stock;
  return { rows, view: await service.previewImport(admin, csvFile(rows)) };
}

describe(`the catalogue import (${dialectUnderTest})`, () => {
  it("previews an unchanged export as all unchanged, and importing it changes no row", async () => {
    await seedShop();
    const before = await snapshot();
    const view = await service.previewImport(admin, csvFile(await exportRows()));
    expect(view.counts).toEqual({ created: 0, changed: 0, unchanged: 3, refused: 0 });
    expect(view.rows).toEqual([]);
    const { finished } = await service.startImport(admin, { token: view.token });
    expect((await finished).state).toBe("finished");
    expect(await snapshot()).toEqual(before);
  });

  it("previews created, changed and refused rows with what and why, and writes nothing", async () => {
    const { fern } = await seedShop();
    const rows = await exportRows();
    const fernRow = rows.find((row) => row.sku === `SKU-${fern.id}`)!;
    fernRow.price = "549";
    fernRow.stock = "9";
    const badLily = rows.find((row) => row.size === "Small")!;
    badLily.price = "cheap";
    const newPlant = { product: "Money plant", description: "Trails nicely.", category: "Indoor", sku: "MONEY-1", price: "199", stock: "12" };
    const unknownCategory = { product: "Cactus", description: "Spiky.", category: "Desert", sku: "CACTUS-1", price: "99", stock: "1" };
    const before = await snapshot();

    const view = await service.previewImport(admin, csvFile([...rows, newPlant, unknownCategory]));

    expect(view.counts).toEqual({ created: 1, changed: 1, unchanged: 0, refused: 3 });
    const byRow = new Map(view.rows.map((row) => [row.sku, row]));
    expect(byRow.get(`SKU-${fern.id}`)).toMatchObject({ outcome: "changed", details: ["price Rs. 499 → Rs. 549", "stock 4 → 9"] });
    expect(byRow.get(badLily.sku)).toMatchObject({ outcome: "refused", details: [t.priceNotRupees] });
    // The lily's other size is refused with it: the product is saved whole or not at all.
    const largeLily = rows.find((row) => row.size === "Large")!;
    expect(byRow.get(largeLily.sku)?.outcome).toBe("refused");
    expect(byRow.get(largeLily.sku)?.details[0]).toContain(`row ${rows.indexOf(badLily) + 2}`);
    expect(byRow.get("MONEY-1")).toMatchObject({ outcome: "created", row: rows.length + 2 });
    expect(byRow.get("CACTUS-1")).toMatchObject({ outcome: "refused", details: [t.unknownCategory("Desert")] });
    expect(await snapshot()).toEqual(before);
  });

  it("counts a product's unchanged sizes in the import's progress with its changed one, so it ends at all of the rows it saved", async () => {
    await seedShop();
    const rows = await exportRows();
    rows.find((row) => row.size === "Small")!.price = "321";

    const view = await service.previewImport(admin, csvFile(rows));
    expect(view.counts.changed).toBe(1);
    const done = await (await service.startImport(admin, { token: view.token })).finished;

    // The lily's two sizes are saved together: two rows written, of two to write.
    expect(done).toMatchObject({ state: "finished", done: 2, toWrite: 2, failures: [] });
  });

  it("applies the preview through the product form's save, and the same file a second time previews as unchanged", async () => {
    const { fern } = await seedShop();
    const rows = await exportRows();
    rows.find((row) => row.sku === `SKU-${fern.id}`)!.price = "549.50";
    const file = [...rows, { product: "money plant", description: "Trails nicely.", category: "indoor", sku: "MONEY-1", price: "199", stock: "12", light: "low" }];

    const view = await service.previewImport(admin, csvFile(file));
    const started = await service.startImport(admin, { token: view.token });
    const done = await started.finished;

    expect(done).toMatchObject({ state: "finished", done: 2, toWrite: 2, failures: [] });
    const fernNow = await database.db.selectFrom("product_variants").select(["price_paise", "stock"]).where("sku", "=", `SKU-${fern.id}`).executeTakeFirstOrThrow();
    expect(fernNow).toEqual({ price_paise: 54_950, stock: 4 });
    const money = await database.db.selectFrom("products").select(["id", "name", "price_paise", "stock", "care_light"]).where("name", "=", "Money plant").executeTakeFirstOrThrow();
    expect(money).toMatchObject({ price_paise: 19_900, stock: 12, care_light: "low" });
    expect((await service.getImport(admin, { token: view.token })).state).toBe("finished");

    const again = await service.previewImport(admin, csvFile(file));
    expect(again.counts).toEqual({ created: 0, changed: 0, unchanged: 4, refused: 0 });
  });

  it("does not start the same import twice", async () => {
    const { view } = await previewOfStockEdit("40");
    const first = await service.startImport(admin, { token: view.token });
    await first.finished;
    await expect(service.startImport(admin, { token: view.token })).rejects.toThrow(t.alreadyStarted);
  });

  it("shows one copy's preview on another, which starts it; the first then shows its progress and cannot start it again", async () => {
    const { rows, view } = await previewOfStockEdit("41");
    const other = anotherCopy();
    expect(await other.getImport(admin, { token: view.token })).toEqual(view);

    const started = await other.startImport(admin, { token: view.token });
    // Written before the start answered: whichever copy the page's next request reaches sees it running.
    expect(await service.getImport(admin, { token: view.token })).toMatchObject({ state: "running", done: 0 });
    await expect(service.startImport(admin, { token: view.token })).rejects.toThrow(t.alreadyStarted);
    await started.finished;
    expect(view.toWrite).toBeGreaterThan(0);
    expect(await service.getImport(admin, { token: view.token })).toMatchObject({ state: "finished", done: view.toWrite, failures: [] });
    const stored = await database.db.selectFrom("product_variants").select("stock").where("sku", "=", rows[0]!.sku).executeTakeFirstOrThrow();
    expect(stored.stock).toBe(41);
  });

  it("lets exactly one of two copies start an import both are asked to start at once", async () => {
    const { view } = await previewOfStockEdit("42");
    const outcomes = await Promise.allSettled([service.startImport(admin, { token: view.token }), anotherCopy().startImport(admin, { token: view.token })]);
    const started = outcomes.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : []));
    const refused = outcomes.flatMap((outcome) => (outcome.status === "rejected" ? [outcome.reason as Error] : []));
    expect(started).toHaveLength(1);
    expect(refused.map((error) => error.message)).toEqual([t.alreadyStarted]);
    expect(await started[0]!.finished).toMatchObject({ state: "finished", done: view.toWrite, failures: [] });
  });

  it("shows an import left running by a copy that stopped writing its progress as stopped, once no progress came for five minutes", async () => {
    const { view } = await previewOfStockEdit("43");
    const started = await service.startImport(admin, { token: view.token });
    await started.finished;
    // What a copy restarted in the middle leaves: the row still running, at the progress it last wrote.
    const running = { ...(await service.getImport(admin, { token: view.token })), state: "running", done: 0 };
    const leftAt = Date.now();
    await database.db.updateTable("catalog_imports").set({ state: "running", view: JSON.stringify(running), updated_at: new Date(leftAt).toISOString() }).where("token", "=", view.token).execute();

    setTestClock(leftAt + IMPORT_STALLED_AFTER_MS - 60 * 1000);
    expect(await anotherCopy().getImport(admin, { token: view.token })).toMatchObject({ state: "running", done: 0 });
    setTestClock(leftAt + IMPORT_STALLED_AFTER_MS + 60 * 1000);
    expect(await anotherCopy().getImport(admin, { token: view.token })).toMatchObject({ state: "stopped", done: 0 });
    await expect(anotherCopy().startImport(admin, { token: view.token })).rejects.toThrow(t.alreadyStarted);
  });

  it("forgets a preview a day old when another is made, and keeps one made since", async () => {
    await seedShop();
    const file = csvFile(await exportRows());
    const old = await service.previewImport(admin, file);
    setTestClock(Date.now() + 23 * 60 * 60 * 1000);
    const recent = await service.previewImport(admin, file);
    // A day and a minute after the first.
    setTestClock(Date.now() + 24 * 60 * 60 * 1000 + 60 * 1000);
    const latest = await service.previewImport(admin, file);
    await expect(service.getImport(admin, { token: old.token })).rejects.toThrow(t.unknownToken);
    expect((await service.getImport(admin, { token: recent.token })).token).toBe(recent.token);
    expect((await service.getImport(admin, { token: latest.token })).token).toBe(latest.token);
  });

  it("takes back a cell the export guarded against formulas as it was", async () => {
    const { lily } = await seedShop();
    const rows = await exportRows();
    // The export's cells are raw; the download adds the apostrophe (app/shared/lib/csv-download.ts), as here.
    const guarded = rows.map((row) => ({ ...row, description: row.description.startsWith("=") ? `'${row.description}` : row.description }));
    const view = await service.previewImport(admin, csvFile(guarded));
    expect(view.counts.unchanged).toBe(3);
    const stored = await database.db.selectFrom("products").select("description").where("id", "=", lily.product.id).executeTakeFirstOrThrow();
    expect(stored.description.startsWith("=")).toBe(true);
  });

  it("refuses a file that is too large, one without the needed columns, and an unknown token, with their messages", async () => {
    const big = new File(["x".repeat(CSV_IMPORT_MAX_BYTES + 1)], "big.csv");
    await expect(service.previewImport(admin, big)).rejects.toThrow(t.tooLarge(CSV_IMPORT_MAX_BYTES));
    await expect(service.previewImport(admin, new File(["name,price\nFern,10\n"], "x.csv"))).rejects.toThrow(t.missingColumns(["product", "category", "sku", "stock"]));
    await expect(service.previewImport(admin, new File(['product,"sku\n'], "x.csv"))).rejects.toThrow(/could not be read as CSV/);
    await expect(service.getImport(admin, { token: "A".repeat(24) })).rejects.toThrow(t.unknownToken);
  });

  it("refuses a shopper and a visitor at every step", async () => {
    await seedShop();
    const view = await service.previewImport(admin, csvFile(await exportRows()));
    const file = csvFile(await exportRows());
    await expect(service.previewImport(shopper, file)).rejects.toThrow(ForbiddenError);
    await expect(service.previewImport(null, file)).rejects.toThrow(UnauthorizedError);
    await expect(service.getImport(shopper, { token: view.token })).rejects.toThrow(ForbiddenError);
    await expect(service.startImport(shopper, { token: view.token })).rejects.toThrow(ForbiddenError);
    await expect(service.startImport(null, { token: view.token })).rejects.toThrow(UnauthorizedError);
  });
});
