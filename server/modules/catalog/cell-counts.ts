import { sql, type Kysely } from "kysely";
import type { Database } from "../../platform/db/client.ts";
import type { DB } from "../../platform/db/schema.ts";
import { FACET_CELL_COUNT, PRICE_BAND_COUNT, pricedCell } from "#common/catalog/list-filters.ts";

// How many products each facet cell holds, per scope (migration 0035-facet-cell-counts, docs/decisions/062), and
// each priced cell, a cell in a price band (migration 0036-price-band-counts, docs/decisions/063): the filter panel's
// counts and a list's total are sums over one row of a scope, whatever the catalogue's size.

/** The scope of the whole shop's counts; a category's are under its id. */
export const WHOLE_SHOP = "";

/** A count per cell (or per priced cell), every one of them: the same to read and sum at any catalogue's size. */
export type CellCounts = readonly number[];

const PRICED_CELL_COUNT = FACET_CELL_COUNT * PRICE_BAND_COUNT;

/**
 * A scope's counts per cell in one statement: its settled row plus the changes not folded yet, one snapshot of both,
 * so a fold committing meanwhile is seen whole or not at all.
 */
export async function readCellCounts(db: Kysely<DB>, scope: string): Promise<CellCounts> {
  const { rows } = await sql<PackedRow>`
    select counts as packed, null as cell, null as delta from product_cell_counts where scope = ${scope}
    union all
    select null, priced_cell / ${sql.lit(PRICE_BAND_COUNT)}, sum(delta) from product_cell_count_changes where scope = ${scope}
      group by priced_cell / ${sql.lit(PRICE_BAND_COUNT)}`.execute(db);
  return unpack(rows, FACET_CELL_COUNT);
}

/** A scope's counts per priced cell (pricedCell), as readCellCounts reads per cell: for a price range's counts. */
export async function readPricedCellCounts(db: Kysely<DB>, scope: string): Promise<CellCounts> {
  const { rows } = await sql<PackedRow>`
    select priced_counts as packed, null as cell, null as delta from product_cell_counts where scope = ${scope}
    union all
    select null, priced_cell, sum(delta) from product_cell_count_changes where scope = ${scope} group by priced_cell`.execute(db);
  return unpack(rows, PRICED_CELL_COUNT);
}

interface PackedRow {
  packed: string | null;
  cell: number | null;
  delta: number | string | null;
}

function unpack(rows: PackedRow[], length: number): CellCounts {
  const packed = rows.find((row) => row.packed !== null)?.packed;
  const counts = packed ? (JSON.parse(packed) as number[]) : new Array<number>(length).fill(0);
  for (const row of rows) if (row.cell !== null) counts[row.cell] = (counts[row.cell] ?? 0) + Number(row.delta);
  return counts;
}

/** The products in `cells` (every cell when undefined). */
export function sumCells(counts: CellCounts, cells: readonly number[] | undefined): number {
  let total = 0;
  if (!cells) for (const n of counts) total += n;
  else for (const cell of cells) total += counts[cell] ?? 0;
  return total;
}

/** The products in `cells` (every cell when undefined) and `bands`, from priced counts. */
export function sumPricedCells(priced: CellCounts, cells: readonly number[] | undefined, bands: readonly number[]): number {
  let total = 0;
  const each = (cell: number) => {
    for (const band of bands) total += priced[pricedCell(cell, band)] ?? 0;
  };
  if (!cells) for (let cell = 0; cell < FACET_CELL_COUNT; cell++) each(cell);
  else for (const cell of cells) each(cell);
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
      const settled = await trx.selectFrom("product_cell_counts").select(["counts", "priced_counts"]).where("scope", "=", scope).executeTakeFirst();
      const counts = settled ? (JSON.parse(settled.counts) as number[]) : new Array<number>(FACET_CELL_COUNT).fill(0);
      const priced = settled ? (JSON.parse(settled.priced_counts) as number[]) : new Array<number>(PRICED_CELL_COUNT).fill(0);
      for (const { priced_cell, delta } of changes) {
        priced[priced_cell] = (priced[priced_cell] ?? 0) + delta;
        const cell = Math.floor(priced_cell / PRICE_BAND_COUNT);
        counts[cell] = (counts[cell] ?? 0) + delta;
      }
      const packed = { counts: JSON.stringify(counts), priced_counts: JSON.stringify(priced) };
      await trx
        .insertInto("product_cell_counts")
        .values({ scope, ...packed })
        .onConflict((oc) => oc.column("scope").doUpdateSet(packed))
        .execute();
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
