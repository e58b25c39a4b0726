import { sql, type Kysely } from "kysely";
import type { Database } from "../../platform/db/client.ts";
import type { DB } from "../../platform/db/schema.ts";
import { FACET_CELL_COUNT } from "#common/catalog/list-filters.ts";

// How many products each facet cell holds, per scope (migration 0035-facet-cell-counts, docs/decisions/062): the
// filter panel's counts and a list's total are sums over one row of a scope, whatever the catalogue's size.

/** The scope of the whole shop's counts; a category's are under its id. */
export const WHOLE_SHOP = "";

/** Each cell's product count in a scope (cells without products left out). */
export type CellCounts = ReadonlyMap<number, number>;

/**
 * A scope's counts in one statement: its settled row plus the changes not folded yet, one snapshot of both, so a
 * fold committing meanwhile is seen whole or not at all.
 */
export async function readCellCounts(db: Kysely<DB>, scope: string): Promise<CellCounts> {
  const { rows } = await sql<{ packed: string | null; cell: number | null; delta: number | string | null }>`
    select counts as packed, null as cell, null as delta from product_cell_counts where scope = ${scope}
    union all
    select null, cell, sum(delta) from product_cell_count_changes where scope = ${scope} group by cell`.execute(db);
  const counts = new Map<number, number>();
  for (const row of rows) {
    if (row.packed !== null) (JSON.parse(row.packed) as number[]).forEach((n, cell) => n && counts.set(cell, (counts.get(cell) ?? 0) + n));
    else if (row.cell !== null) counts.set(row.cell, (counts.get(row.cell) ?? 0) + Number(row.delta));
  }
  for (const [cell, n] of counts) if (n <= 0) counts.delete(cell);
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
    const moved = await trx.deleteFrom("product_cell_count_changes").returning(["scope", "cell", "delta"]).execute();
    const byScope = new Map<string, { cell: number; delta: number }[]>();
    for (const change of moved) {
      const changes = byScope.get(change.scope);
      if (changes) changes.push(change);
      else byScope.set(change.scope, [change]);
    }
    for (const [scope, changes] of byScope) {
      const settled = await trx.selectFrom("product_cell_counts").select("counts").where("scope", "=", scope).executeTakeFirst();
      const counts = settled ? (JSON.parse(settled.counts) as number[]) : new Array<number>(FACET_CELL_COUNT).fill(0);
      for (const { cell, delta } of changes) counts[cell] = (counts[cell] ?? 0) + delta;
      await trx
        .insertInto("product_cell_counts")
        .values({ scope, counts: JSON.stringify(counts) })
        .onConflict((oc) => oc.column("scope").doUpdateSet({ counts: JSON.stringify(counts) }))
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
