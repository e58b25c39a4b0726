import { sql, type Kysely } from "kysely";
import type { Database } from "../../platform/db/client.ts";
import type { DB } from "../../platform/db/schema.ts";

// How many products each facet cell holds, per scope (migration 0035-facet-cell-counts, docs/decisions/062): the
// filter panel's counts and a list's total are sums over at most 480 rows of a scope, whatever the catalogue's size.

/** The scope of the whole shop's counts; a category's are under its id. */
export const WHOLE_SHOP = "";

/** Each cell's product count in a scope (cells without products left out). */
export type CellCounts = ReadonlyMap<number, number>;

/**
 * A scope's counts in one statement: the settled rows plus the changes not folded yet, one snapshot of both, so a
 * fold committing meanwhile is seen whole or not at all.
 */
export async function readCellCounts(db: Kysely<DB>, scope: string): Promise<CellCounts> {
  const rows = await db
    .selectFrom(
      db
        .selectFrom("product_cell_counts")
        .select(["cell", "products as n"])
        .where("scope", "=", scope)
        .unionAll(db.selectFrom("product_cell_count_changes").select(["cell", "delta as n"]).where("scope", "=", scope))
        .as("c"),
    )
    .select(["c.cell", (eb) => eb.fn.sum<number | string>("c.n").as("n")])
    .groupBy("c.cell")
    .execute();
  const counts = new Map<number, number>();
  for (const row of rows) if (Number(row.n) > 0) counts.set(row.cell, Number(row.n));
  return counts;
}

/** The products in `cells` (every cell when undefined). */
export function sumCells(counts: CellCounts, cells: readonly number[] | undefined): number {
  let total = 0;
  if (!cells) for (const n of counts.values()) total += n;
  else for (const cell of cells) total += counts.get(cell) ?? 0;
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
    const folded = await sql<{ folded: string }>`
      with moved as (delete from product_cell_count_changes returning scope, cell, delta),
      summed as (select scope, cell, sum(delta)::integer as delta, count(*) as rows from moved group by scope, cell),
      settled as (
        insert into product_cell_counts (scope, cell, products)
        select scope, cell, delta from summed
        on conflict (scope, cell) do update set products = product_cell_counts.products + excluded.products
      )
      select coalesce(sum(rows), 0) as folded from summed`.execute(trx);
    await sql`delete from product_cell_counts where products = 0`.execute(trx);
    return Number(folded.rows[0]?.folded ?? 0);
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
