import { sql, type Kysely } from "kysely";
import type { MigrationContext } from "../../../platform/db/migrate.ts";

/** The cells of migration 0025 (5 × 3 × 4 × 4 × 2). A migration that adds cells re-packs every row to its new count. */
const CELLS = 480;

/**
 * How many products each facet cell (migration 0025) holds, in the whole shop (scope '') and in each category (scope
 * = its id), so a filter panel's counts and a list's total are read from one row whatever the catalogue's size
 * (docs/decisions/062).
 *
 * - `product_cell_counts` holds a scope's settled counts packed in one row: a JSON array, a number per cell. One row
 *   costs the same to read for 10 products as for 100,000; a row per cell cost a read per cell present.
 * - `product_cell_count_changes` holds what product writes changed since: +1 in a product's new cell, -1 in its old
 *   one, for both scopes. A count is the settled one plus its changes; `foldCellCountChanges` moves changes into the
 *   settled rows now and then.
 *
 * On PostgreSQL the triggers only ever insert change rows: a checkout that empties a plant moves it out of its
 * in-stock cell, and an UPDATE of a shared counts row there would make every two checkouts selling out a plant
 * wait on each other, or deadlock, since they lock their plants in product order. Inserts take no lock another
 * transaction waits on. On SQLite, with one writer at a time, the triggers update the settled rows in place and
 * nothing is ever left to fold.
 *
 * The update trigger runs only when the cell or the category changes: a sale that leaves stock above zero, a
 * review, a price or a name writes nothing here.
 */
export function facetCellCountsMigration({ dialect }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>) {
      await sql`create table product_cell_counts (scope text primary key, counts text not null)`.execute(db);
      const id = dialect === "postgres" ? sql`bigint generated always as identity primary key` : sql`integer primary key autoincrement`;
      await sql`create table product_cell_count_changes (id ${id}, scope text not null, cell integer not null, delta integer not null)`.execute(db);
      await sql`create index product_cell_count_changes_scope on product_cell_count_changes (scope, cell, delta)`.execute(db);
      await packCellCounts(db);
      await addCellCountTriggers(db, dialect);
    },
    async down(db: Kysely<unknown>) {
      await dropCellCountTriggers(db, dialect);
      await sql`drop table product_cell_count_changes`.execute(db);
      await sql`drop table product_cell_counts`.execute(db);
    },
  };
}

/** The counts of the products the shop already has: one grouped read, once (and again when 0036 is undone). */
export async function packCellCounts(db: Kysely<unknown>) {
  const { rows } = await sql<{ scope: string; cell: number; n: number | string }>`
    select '' as scope, care_cell as cell, count(*) as n from products group by care_cell
    union all
    select category_id, care_cell, count(*) from products group by category_id, care_cell`.execute(db);
  const scopes = new Map<string, number[]>();
  for (const row of rows) {
    const counts = scopes.get(row.scope) ?? new Array<number>(CELLS).fill(0);
    counts[row.cell] = Number(row.n);
    scopes.set(row.scope, counts);
  }
  for (const [scope, counts] of scopes) await sql`insert into product_cell_counts (scope, counts) values (${scope}, ${JSON.stringify(counts)})`.execute(db);
}

/** Drops this migration's triggers (or 0036's, which have the same names). */
export async function dropCellCountTriggers(db: Kysely<unknown>, dialect: MigrationContext["dialect"]) {
  if (dialect === "postgres") {
    await sql`drop trigger if exists products_cell_counts_insert_delete on products`.execute(db);
    await sql`drop trigger if exists products_cell_counts_update on products`.execute(db);
    await sql`drop function if exists product_cell_counts_track()`.execute(db);
  } else {
    for (const trigger of ["insert", "update", "delete"]) await sql.raw(`drop trigger if exists products_cell_counts_${trigger}`).execute(db);
  }
}

/** This migration's triggers (made again when 0036, which replaces them, is undone). */
export async function addCellCountTriggers(db: Kysely<unknown>, dialect: MigrationContext["dialect"]) {
  if (dialect === "postgres") await addPostgresTriggers(db);
  else await addSqliteTriggers(db);
}

async function addPostgresTriggers(db: Kysely<unknown>) {
  await sql`create function product_cell_counts_track() returns trigger language plpgsql as $$
    begin
      if tg_op in ('UPDATE', 'DELETE') then
        insert into product_cell_count_changes (scope, cell, delta) values ('', old.care_cell, -1), (old.category_id, old.care_cell, -1);
      end if;
      if tg_op in ('UPDATE', 'INSERT') then
        insert into product_cell_count_changes (scope, cell, delta) values ('', new.care_cell, 1), (new.category_id, new.care_cell, 1);
      end if;
      return null;
    end
  $$`.execute(db);
  await sql`create trigger products_cell_counts_insert_delete after insert or delete on products
    for each row execute function product_cell_counts_track()`.execute(db);
  // care_cell is a stored generated column: the new row's value is known to an AFTER trigger's condition.
  await sql`create trigger products_cell_counts_update after update on products
    for each row when (old.care_cell is distinct from new.care_cell or old.category_id is distinct from new.category_id)
    execute function product_cell_counts_track()`.execute(db);
}

async function addSqliteTriggers(db: Kysely<unknown>) {
  const zeros = JSON.stringify(new Array<number>(CELLS).fill(0));
  /** Adds `delta` to `cell`'s count in `scope`, making the scope's row first when it has none (a new category). */
  const add = (scope: string, cell: string, delta: number) =>
    `insert into product_cell_counts (scope, counts) values (${scope}, '${zeros}') on conflict (scope) do nothing;
     update product_cell_counts set counts = json_replace(counts, '$[' || ${cell} || ']', json_extract(counts, '$[' || ${cell} || ']') + ${delta})
       where scope = ${scope};`;
  // An inserted row's care_cell is set by the facet trigger's own UPDATE (0025), which the update trigger below
  // counts as a move out of the cell inserted: NEW keeps the values as inserted, whichever trigger runs first.
  await sql.raw(`create trigger products_cell_counts_insert after insert on products begin
    ${add("''", "new.care_cell", 1)} ${add("new.category_id", "new.care_cell", 1)} end`).execute(db);
  await sql.raw(`create trigger products_cell_counts_delete after delete on products begin
    ${add("''", "old.care_cell", -1)} ${add("old.category_id", "old.care_cell", -1)} end`).execute(db);
  await sql.raw(`create trigger products_cell_counts_update after update of care_cell, category_id on products
    when old.care_cell is not new.care_cell or old.category_id is not new.category_id begin
    ${add("''", "old.care_cell", -1)} ${add("old.category_id", "old.care_cell", -1)}
    ${add("''", "new.care_cell", 1)} ${add("new.category_id", "new.care_cell", 1)} end`).execute(db);
}
