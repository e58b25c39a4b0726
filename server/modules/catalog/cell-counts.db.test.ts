import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { FACET_CELL_COUNT, facetCell, PRICE_BAND_COUNT, priceBand, pricedCell } from "#common/catalog/list-filters.ts";
import { createCategory, createProduct, setSelling } from "../../../tests/support/factories.ts";
import { openDatabase } from "../../platform/db/client.ts";
import { createTestDatabase, dialectUnderTest, migrateToLatest, migrateUpTo, type TestDatabase } from "../../../tests/support/test-database.ts";
import { foldCellCountChanges, readBandCounts, readCellCounts, type CellCounts, WHOLE_SHOP } from "./cell-counts.ts";

let database: TestDatabase;

beforeEach(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  await database.cleanup();
});

/** The counts that are not zero, by cell (or priced cell). */
const nonZero = (counts: CellCounts) => Object.fromEntries(counts.flatMap((n, cell) => (n ? [[cell, n]] : [])));

/**
 * Each scope's counts as a count of the products themselves would give them, per cell and per priced cell (the price
 * band computed here from each price): what the kept counts must equal.
 */
async function countedFromProducts(db = database.db) {
  const rows = await sql<{ scope: string; cell: number; price_paise: number }>`
    select '' as scope, care_cell as cell, price_paise from products
    union all
    select category_id, care_cell, price_paise from products`.execute(db);
  const scopes = new Map<string, { cells: Record<number, number>; priced: Record<number, number> }>();
  for (const row of rows.rows) {
    if (!scopes.has(row.scope)) scopes.set(row.scope, { cells: {}, priced: {} });
    const scope = scopes.get(row.scope)!;
    scope.cells[row.cell] = (scope.cells[row.cell] ?? 0) + 1;
    const priced = pricedCell(row.cell, priceBand(row.price_paise));
    scope.priced[priced] = (scope.priced[priced] ?? 0) + 1;
  }
  return scopes;
}

/** Asserts the kept counts of the whole shop and of each scope named equal a count of the products. */
async function expectCountsMatchProducts(scopes: string[], db = database.db) {
  const truth = await countedFromProducts(db);
  for (const scope of [WHOLE_SHOP, ...scopes]) {
    expect(nonZero(await readCellCounts(db, scope)), `cells of scope '${scope}'`).toEqual(truth.get(scope)?.cells ?? {});
    const bands = await readBandCounts(db, scope, 0, PRICE_BAND_COUNT - 1);
    const priced = Object.fromEntries([...bands].flatMap(([band, counts]) => Object.entries(nonZero(counts)).map(([cell, n]) => [pricedCell(Number(cell), band), n])));
    expect(priced, `cells by price band of scope '${scope}'`).toEqual(truth.get(scope)?.priced ?? {});
  }
}

/**
 * After 0036 is undone, what 0035's fold did: on PostgreSQL its change rows (a cell each) added to the settled
 * arrays; on SQLite its triggers counted in place.
 */
async function foldUndoneChanges() {
  const changes = await sql<{ scope: string; cell: number; delta: number }>`delete from product_cell_count_changes returning scope, cell, delta`.execute(database.db);
  for (const { scope, cell, delta } of changes.rows) {
    const row = await sql<{ counts: string }>`select counts from product_cell_counts where scope = ${scope}`.execute(database.db);
    const counts = row.rows[0] ? (JSON.parse(row.rows[0].counts) as number[]) : new Array<number>(FACET_CELL_COUNT).fill(0);
    counts[cell] = (counts[cell] ?? 0) + delta;
    await sql`insert into product_cell_counts (scope, counts) values (${scope}, ${JSON.stringify(counts)}) on conflict (scope) do update set counts = excluded.counts`.execute(database.db);
  }
}

const cellOf = (light: "low" | "medium", inStock: boolean) => facetCell({ light, petSafe: "yes", difficulty: "beginner", place: "indoor", inStock });

describe(`the facet cells' kept counts (${dialectUnderTest})`, () => {
  it("equal a count of the products after inserts, care edits, selling out, restocking, a move of category and a deletion, before and after a fold", async () => {
    const ferns = await createCategory(database.db);
    const palms = await createCategory(database.db);
    const make = (category: string, light: "low" | "medium", stock: number) =>
      createProduct(database.db, { category_id: category, care_light: light, care_pet_safe: "yes", care_difficulty: "beginner", care_place: "indoor", stock });
    const a = await make(ferns.id, "low", 3);
    const b = await make(ferns.id, "low", 0);
    const c = await make(palms.id, "medium", 5);
    const scopes = [ferns.id, palms.id];
    expect(nonZero(await readCellCounts(database.db, ferns.id))).toEqual({ [cellOf("low", true)]: 1, [cellOf("low", false)]: 1 });
    await expectCountsMatchProducts(scopes);

    await database.db.updateTable("products").set({ care_light: "medium" }).where("id", "=", a.id).execute();
    await expectCountsMatchProducts(scopes);
    await setSelling(database.db, c.id, { stock: 0 });
    await setSelling(database.db, b.id, { stock: 4 });
    await expectCountsMatchProducts(scopes);
    // A sale that leaves stock above zero and a price change move no product between cells; the price moves it
    // between bands: to the band of ₹123, then to a mark's own band (₹250), then within its band (nothing to write).
    await setSelling(database.db, b.id, { stock: 2, price_paise: 12_300 });
    await expectCountsMatchProducts(scopes);
    await setSelling(database.db, c.id, { price_paise: 25_000 });
    await expectCountsMatchProducts(scopes);
    const changeRows = async () => (await database.db.selectFrom("product_cell_count_changes").select("id").execute()).length;
    const before = await changeRows();
    await setSelling(database.db, c.id, { price_paise: 25_000 });
    await setSelling(database.db, a.id, { price_paise: 99_800 });
    expect(await changeRows()).toBe(before);
    await database.db.updateTable("products").set({ category_id: palms.id }).where("id", "=", b.id).execute();
    await expectCountsMatchProducts(scopes);
    await foldCellCountChanges(database);
    await expectCountsMatchProducts(scopes);

    await database.db.deleteFrom("product_variants").where("product_id", "=", a.id).execute();
    await database.db.deleteFrom("product_images").where("product_id", "=", a.id).execute();
    await database.db.deleteFrom("products").where("id", "=", a.id).execute();
    await expectCountsMatchProducts(scopes);
    await foldCellCountChanges(database);
    await expectCountsMatchProducts(scopes);
    expect(nonZero(await readCellCounts(database.db, ferns.id))).toEqual({});
    expect(nonZero(await readCellCounts(database.db, palms.id))).toEqual({ [cellOf("medium", false)]: 1, [cellOf("low", true)]: 1 });
  });

  for (const upTo of ["0034-orders-export", "0035-facet-cell-counts"])
    it(`are written by the migrations for the products a shop migrated up to ${upTo} already has`, async () => {
      const earlier = await createTestDatabase({ upTo });
      try {
        const category = await createCategory(earlier.db);
        await createProduct(earlier.db, { category_id: category.id, care_light: "low", stock: 0, price_paise: 30_000 });
        await createProduct(earlier.db, { category_id: category.id, care_light: "low", stock: 2, price_paise: 30_001 });
        await createProduct(earlier.db, { care_light: "medium", care_pet_safe: "yes" });
        await migrateToLatest(earlier);
        const truth = await countedFromProducts(earlier.db);
        expect(Object.keys(truth.get(WHOLE_SHOP)!.priced)).toHaveLength(3);
        await expectCountsMatchProducts([category.id], earlier.db);
      } finally {
        await earlier.cleanup();
      }
    });

  it("are counted per cell again, by 0035's triggers, when the price bands' migration is undone", async () => {
    const category = await createCategory(database.db);
    await createProduct(database.db, { category_id: category.id, care_light: "low", stock: 1 });
    await migrateUpTo(database, "0035-facet-cell-counts");
    await createProduct(database.db, { category_id: category.id, care_light: "low", stock: 0 });
    await createProduct(database.db, { care_light: "medium" });
    await foldUndoneChanges();
    const { rows } = await sql<{ scope: string; cell: number; n: number | string }>`
      select '' as scope, care_cell as cell, count(*) as n from products group by care_cell
      union all
      select category_id, care_cell, count(*) from products group by category_id, care_cell`.execute(database.db);
    const settled = await sql<{ scope: string; counts: string }>`select scope, counts from product_cell_counts`.execute(database.db);
    const kept = new Map(settled.rows.map((row) => [row.scope, JSON.parse(row.counts) as number[]]));
    // Three cells in the shop, two in the category, one in the category the factory made for the third.
    expect(rows.length).toBe(6);
    for (const row of rows) expect(kept.get(row.scope)?.[row.cell], `scope '${row.scope}', cell ${row.cell}`).toBe(Number(row.n));
  });

  it("leave nothing to fold on SQLite and no change rows on PostgreSQL once folded", async () => {
    const category = await createCategory(database.db);
    for (let i = 0; i < 5; i++) await createProduct(database.db, { category_id: category.id, stock: i % 2 });
    const folded = await foldCellCountChanges(database);
    // On PostgreSQL each product's insert made two change rows (the shop's and its category's); SQLite counted in place.
    expect(folded).toBe(dialectUnderTest === "postgres" ? 2 * 5 : 0);
    expect(await database.db.selectFrom("product_cell_count_changes").select("id").execute()).toEqual([]);
    await expectCountsMatchProducts([category.id]);
  });
});

if (dialectUnderTest === "postgres")
  describe("the facet cells' kept counts under concurrent writes (PostgreSQL)", () => {
    it("let two open transactions sell out plants of the same cell without either waiting on the other", async () => {
      const category = await createCategory(database.db);
      const [first, second] = [
        await createProduct(database.db, { category_id: category.id, care_light: "low", stock: 1 }),
        await createProduct(database.db, { category_id: category.id, care_light: "low", stock: 1 }),
      ];
      let releaseFirst!: () => void;
      const firstMayCommit = new Promise<void>((resolve) => (releaseFirst = resolve));
      let firstWrote!: () => void;
      const firstHasWritten = new Promise<void>((resolve) => (firstWrote = resolve));
      const firstTransaction = database.db.transaction().execute(async (trx) => {
        await trx.updateTable("products").set({ stock: 0 }).where("id", "=", first.id).execute();
        firstWrote();
        await firstMayCommit;
      });
      await firstHasWritten;
      // With a shared counter row the second would wait for the first, which waits for the second: a lock wait
      // would end this transaction with an error instead of hanging the test.
      await database.db.transaction().execute(async (trx) => {
        await sql`set local lock_timeout = '5s'`.execute(trx);
        await trx.updateTable("products").set({ stock: 0 }).where("id", "=", second.id).execute();
      });
      releaseFirst();
      await firstTransaction;
      expect(nonZero(await readCellCounts(database.db, category.id))).toEqual({ [facetCell({ light: "low", petSafe: null, difficulty: null, place: null, inStock: false })]: 2 });
    });

    it("stay exact when many transactions sell out and restock plants in crossing orders while copies fold at the same time", async () => {
      const categories = [await createCategory(database.db), await createCategory(database.db)];
      const plants: { id: string }[] = [];
      for (let i = 0; i < 12; i++) {
        plants.push(await createProduct(database.db, { category_id: categories[i % 2]!.id, care_light: i % 3 ? "low" : "medium", stock: i % 2 }));
      }
      // A second pool on the same database, as another server copy has.
      const otherCopy = openDatabase({ databaseUrl: database.postgresUrl!, poolSize: 5 });
      try {
        const writers = Array.from({ length: 16 }, (_, w) =>
          database.db.transaction().execute(async (trx) => {
            // Each writer locks its plants in id order, as a checkout does, and flips each one's in-stock bit.
            const mine = plants.filter((_, i) => (i + w) % 3 === 0).sort((x, y) => (x.id < y.id ? -1 : 1));
            for (const plant of mine) {
              await trx
                .updateTable("products")
                .set((eb) => ({ stock: sql`case when ${eb.ref("stock")} > 0 then 0 else 3 end` }))
                .where("id", "=", plant.id)
                .execute();
            }
          }),
        );
        const folds = Array.from({ length: 6 }, (_, i) => foldCellCountChanges(i % 2 ? otherCopy : database));
        await Promise.all([...writers, ...folds]);
        await expectCountsMatchProducts(categories.map((c) => c.id));
        await foldCellCountChanges(otherCopy);
        await expectCountsMatchProducts(categories.map((c) => c.id));
        expect(await database.db.selectFrom("product_cell_count_changes").select("id").execute()).toEqual([]);
      } finally {
        await otherCopy.destroy();
      }
    });
  });
