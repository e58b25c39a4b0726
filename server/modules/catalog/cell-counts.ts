import { sql, type Kysely } from "kysely";
import type { Database } from "../../platform/db/client.ts";
import type { DB } from "../../platform/db/schema.ts";
import { FACET_CELL_COUNT, PRICE_BAND_COUNT, splitPricedCell } from "#common/catalog/list-filters.ts";

// How many products each facet cell holds, per scope (migration 0035-facet-cell-counts, docs/decisions/062), and in
// each price band of a scope (migration 0036-price-band-counts, docs/decisions/063): the filter panel's counts and a
// list's total are sums over a scope's row, or the rows of a price range's bands, whatever the catalogue's size.

/** The scope of the whole shop's counts; a category's are under its id. */
export const WHOLE_SHOP = "";

/** A count per cell, every one of them: the same to read and sum at any catalogue's size. */
export type CellCounts = readonly number[];

/** Counts per cell of some price bands, by band (a band not read, or without products: undefined). */
export type BandCounts = ReadonlyMap<number, CellCounts>;

const zeros = () => new Array<number>(FACET_CELL_COUNT).fill(0);

/**
 * A scope's counts per cell in one statement: its settled row plus the changes not folded yet, one snapshot of both,
 * so a fold committing meanwhile is seen whole or not at all.
 */
export async function readCellCounts(db: Kysely<DB>, scope: string): Promise<CellCounts> {
  const { rows } = await sql<{ packed: string | null; cell: number | null; delta: number | string | null }>`
    select counts as packed, null as cell, null as delta from product_cell_counts where scope = ${scope}
    union all
    select null, priced_cell / ${sql.lit(PRICE_BAND_COUNT)}, sum(delta) from product_cell_count_changes where scope = ${scope}
      group by priced_cell / ${sql.lit(PRICE_BAND_COUNT)}`.execute(db);
  const packed = rows.find((row) => row.packed !== null)?.packed;
  const counts = packed ? (JSON.parse(packed) as number[]) : zeros();
  for (const row of rows) if (row.cell !== null) counts[row.cell] = (counts[row.cell] ?? 0) + Number(row.delta);
  return counts;
}

/**
 * A scope's counts per cell in the bands from `first` to `last` (a price range's bands are consecutive), with the
 * changes not folded yet, in one statement as readCellCounts: at most PRICE_BAND_COUNT rows, each an array of a
 * count per cell.
 */
export async function readBandCounts(db: Kysely<DB>, scope: string, first: number, last: number): Promise<BandCounts> {
  const { rows } = await sql<{ band: number | null; packed: string | null; priced_cell: number | null; delta: number | string | null }>`
    select band, counts as packed, null as priced_cell, null as delta from product_price_band_counts where scope = ${scope} and band between ${first} and ${last}
    union all
    select null, null, priced_cell, sum(delta) from product_cell_count_changes where scope = ${scope} group by priced_cell`.execute(db);
  const bands = new Map<number, number[]>();
  for (const row of rows) if (row.band !== null && row.packed !== null) bands.set(Number(row.band), JSON.parse(row.packed) as number[]);
  for (const row of rows) {
    if (row.priced_cell === null) continue;
    const { cell, band } = splitPricedCell(row.priced_cell);
    if (band < first || band > last) continue;
    let counts = bands.get(band);
    if (!counts) bands.set(band, (counts = zeros()));
    counts[cell] = (counts[cell] ?? 0) + Number(row.delta);
  }
  return bands;
}

/** The products in `cells` (every cell when undefined). */
export function sumCells(counts: CellCounts, cells: readonly number[] | undefined): number {
  let total = 0;
  if (!cells) for (const n of counts) total += n;
  else for (const cell of cells) total += counts[cell] ?? 0;
  return total;
}

/** The products in `cells` (every cell when undefined) and `bands`. */
export function sumBandCells(bandCounts: BandCounts, cells: readonly number[] | undefined, bands: readonly number[]): number {
  let total = 0;
  for (const band of bands) {
    const counts = bandCounts.get(band);
    if (counts) total += sumCells(counts, cells);
  }
  return total;
}

/** Folds are taken one at a time across server copies by this advisory lock's key (any number unique to it). */
const FOLD_LOCK = 740_035;

/**
 * Moves PostgreSQL's change rows into the settled counts, in one transaction, so a read sums few of them. A copy
 * finding another copy folding leaves it to that one. On SQLite the triggers update the settled counts themselves.
 * Answers how many change rows were folded.
 */
export async function foldCellCountChanges(database: Pick<Database, "db" | "dialect">): Promise<number> {
  if (database.dialect !== "postgres") return 0;
  return database.db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(${FOLD_LOCK}) as locked`.execute(trx);
    if (!rows[0]?.locked) return 0;
    const moved = await trx.deleteFrom("product_cell_count_changes").returning(["scope", "priced_cell", "delta"]).execute();
    const byScope = new Map<string, { priced_cell: number; delta: number }[]>();
    for (const change of moved) {
      const changes = byScope.get(change.scope);
      if (changes) changes.push(change);
      else byScope.set(change.scope, [change]);
    }
    for (const [scope, changes] of byScope) {
      const settled = await trx.selectFrom("product_cell_counts").select("counts").where("scope", "=", scope).executeTakeFirst();
      const counts = settled ? (JSON.parse(settled.counts) as number[]) : zeros();
      const touched = [...new Set(changes.map((change) => splitPricedCell(change.priced_cell).band))];
      const bandRows = await trx.selectFrom("product_price_band_counts").select(["band", "counts"]).where("scope", "=", scope).where("band", "in", touched).execute();
      const bands = new Map(bandRows.map((row) => [Number(row.band), JSON.parse(row.counts) as number[]]));
      for (const { priced_cell, delta } of changes) {
        const { cell, band } = splitPricedCell(priced_cell);
        counts[cell] = (counts[cell] ?? 0) + delta;
        if (!bands.has(band)) bands.set(band, zeros());
        const inBand = bands.get(band)!;
        inBand[cell] = (inBand[cell] ?? 0) + delta;
      }
      await trx
        .insertInto("product_cell_counts")
        .values({ scope, counts: JSON.stringify(counts) })
        .onConflict((oc) => oc.column("scope").doUpdateSet({ counts: JSON.stringify(counts) }))
        .execute();
      for (const [band, inBand] of bands) {
        await trx
          .insertInto("product_price_band_counts")
          .values({ scope, band, counts: JSON.stringify(inBand) })
          .onConflict((oc) => oc.columns(["scope", "band"]).doUpdateSet({ counts: JSON.stringify(inBand) }))
          .execute();
      }
    }
    return moved.length;
  });
}

/** How often each copy folds: the change rows a read may sum are what the shop's writes made in this time. */
export const FOLD_INTERVAL_MS = 5_000;

/**
 * Folds every FOLD_INTERVAL_MS on PostgreSQL (nothing on SQLite); the timer never keeps the process alive. The stop
 * answers once a fold under way has ended, so the database can be closed after it.
 */
export function startCellCountFolding(database: Pick<Database, "db" | "dialect">, onError: (error: unknown) => void): () => Promise<void> {
  if (database.dialect !== "postgres") return async () => {};
  let running: Promise<void> | undefined;
  const fold = () => {
    running ??= foldCellCountChanges(database).then(
      () => {},
      (error: unknown) => onError(error),
    ).finally(() => (running = undefined));
  };
  const timer = setInterval(fold, FOLD_INTERVAL_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
