import { sql, type Kysely } from "kysely";
import { FACET_CELL_COUNT, priceBandSql, pricedCellSql } from "#common/catalog/list-filters.ts";
import type { MigrationContext } from "../../../platform/db/migrate.ts";
import { addCellCountTriggers, dropCellCountTriggers, packCellCounts } from "./0035-facet-cell-counts.ts";

/**
 * The kept counts (0035-facet-cell-counts) by price band as well as by cell, so a price range is counted from them
 * too (docs/decisions/063). `product_price_band_counts` holds a scope's counts per cell for one price band (of
 * common/catalog/list-filters.ts) in a row, a JSON array of a number per cell: a range reads the rows of its bands, at
 * most PRICE_BAND_COUNT of them whatever the catalogue's size, and a product's move rewrites one small array, as for
 * the cells. (One array of every cell in every band, 13,920 numbers a scope, tried first, made each SQLite insert
 * rewrite 28 KB four times: a bulk load of 100,000 products took 270 s instead of 37.)
 *
 * A change row now names its priced cell (cell × PRICE_BAND_COUNT + band), whose cell is the quotient, so one change
 * row keeps both the cell's count and the band's. Both tables are re-packed from the products and the triggers
 * re-made: they fire as well when a price change moves a product to another band. A price write within its band
 * (most edits), a sale, a review: nothing.
 */
export function priceBandCountsMigration({ dialect }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>) {
      await dropCellCountTriggers(db, dialect);
      await sql`delete from product_cell_count_changes`.execute(db);
      await sql`delete from product_cell_counts`.execute(db);
      await sql`alter table product_cell_count_changes rename column cell to priced_cell`.execute(db);
      await sql`create table product_price_band_counts (scope text not null, band integer not null, counts text not null, primary key (scope, band))`.execute(db);
      await packBandCounts(db);
      if (dialect === "postgres") await addPostgresTriggers(db);
      else await addSqliteTriggers(db);
    },
    async down(db: Kysely<unknown>) {
      await dropCellCountTriggers(db, dialect);
      await sql`drop table product_price_band_counts`.execute(db);
      await sql`delete from product_cell_count_changes`.execute(db);
      await sql`delete from product_cell_counts`.execute(db);
      await sql`alter table product_cell_count_changes rename column priced_cell to cell`.execute(db);
      await packCellCounts(db);
      await addCellCountTriggers(db, dialect);
    },
  };
}

/** Every scope's counts per cell, and per cell in each band its products are in: one grouped read. */
async function packBandCounts(db: Kysely<unknown>) {
  const band = sql.raw(priceBandSql("price_paise"));
  const { rows } = await sql<{ scope: string; cell: number; band: number; n: number | string }>`
    select '' as scope, care_cell as cell, ${band} as band, count(*) as n from products group by care_cell, ${band}
    union all
    select category_id, care_cell, ${band}, count(*) from products group by category_id, care_cell, ${band}`.execute(db);
  const zeros = () => new Array<number>(FACET_CELL_COUNT).fill(0);
  const scopes = new Map<string, { cells: number[]; bands: Map<number, number[]> }>();
  for (const row of rows) {
    let scope = scopes.get(row.scope);
    if (!scope) scopes.set(row.scope, (scope = { cells: zeros(), bands: new Map() }));
    const band = Number(row.band);
    if (!scope.bands.has(band)) scope.bands.set(band, zeros());
    scope.cells[row.cell]! += Number(row.n);
    scope.bands.get(band)![row.cell] = Number(row.n);
  }
  for (const [scope, { cells, bands }] of scopes) {
    await sql`insert into product_cell_counts (scope, counts) values (${scope}, ${JSON.stringify(cells)})`.execute(db);
    for (const [band, counts] of bands) {
      await sql`insert into product_price_band_counts (scope, band, counts) values (${scope}, ${band}, ${JSON.stringify(counts)})`.execute(db);
    }
  }
}

// As 0035's, with the priced cell: on PostgreSQL change rows only (a shared row's update would make checkouts that
// sell plants out wait on each other), on SQLite the cell's and the band's arrays updated in place.

async function addPostgresTriggers(db: Kysely<unknown>) {
  await sql.raw(`create function product_cell_counts_track() returns trigger language plpgsql as $$
    begin
      if tg_op in ('UPDATE', 'DELETE') then
        insert into product_cell_count_changes (scope, priced_cell, delta)
          values ('', ${pricedCellSql("old.")}, -1), (old.category_id, ${pricedCellSql("old.")}, -1);
      end if;
      if tg_op in ('UPDATE', 'INSERT') then
        insert into product_cell_count_changes (scope, priced_cell, delta)
          values ('', ${pricedCellSql("new.")}, 1), (new.category_id, ${pricedCellSql("new.")}, 1);
      end if;
      return null;
    end
  $$`).execute(db);
  await sql`create trigger products_cell_counts_insert_delete after insert or delete on products
    for each row execute function product_cell_counts_track()`.execute(db);
  await sql.raw(`create trigger products_cell_counts_update after update on products
    for each row when (${pricedCellSql("old.")} is distinct from ${pricedCellSql("new.")} or old.category_id is distinct from new.category_id)
    execute function product_cell_counts_track()`).execute(db);
}

async function addSqliteTriggers(db: Kysely<unknown>) {
  const zeros = JSON.stringify(new Array<number>(FACET_CELL_COUNT).fill(0));
  const bump = (cell: string, delta: number) => `counts = json_replace(counts, '$[' || ${cell} || ']', json_extract(counts, '$[' || ${cell} || ']') + ${delta})`;
  /** Adds `delta` to the row's cell in `scope` and in its band there, making either row first when there is none. */
  const add = (scope: string, row: string, delta: number) => {
    const band = priceBandSql(`${row}price_paise`);
    return `insert into product_cell_counts (scope, counts) values (${scope}, '${zeros}') on conflict (scope) do nothing;
     update product_cell_counts set ${bump(`${row}care_cell`, delta)} where scope = ${scope};
     insert into product_price_band_counts (scope, band, counts) values (${scope}, ${band}, '${zeros}') on conflict (scope, band) do nothing;
     update product_price_band_counts set ${bump(`${row}care_cell`, delta)} where scope = ${scope} and band = ${band};`;
  };
  // An inserted row's care_cell is set by the facet trigger's own UPDATE (0025), which the update trigger counts as
  // a move out of the cell inserted, as in 0035.
  await sql.raw(`create trigger products_cell_counts_insert after insert on products begin
    ${add("''", "new.", 1)} ${add("new.category_id", "new.", 1)} end`).execute(db);
  await sql.raw(`create trigger products_cell_counts_delete after delete on products begin
    ${add("''", "old.", -1)} ${add("old.category_id", "old.", -1)} end`).execute(db);
  await sql.raw(`create trigger products_cell_counts_update after update of care_cell, category_id, price_paise on products
    when ${pricedCellSql("old.")} is not ${pricedCellSql("new.")} or old.category_id is not new.category_id begin
    ${add("''", "old.", -1)} ${add("old.category_id", "old.", -1)}
    ${add("''", "new.", 1)} ${add("new.category_id", "new.", 1)} end`).execute(db);
}
