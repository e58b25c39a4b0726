import { sql, type Kysely } from "kysely";
import type { MigrationContext } from "../../../platform/db/migrate.ts";
import { facetCellSql } from "#common/catalog/list-filters.ts";
import { SQLITE_AVERAGE } from "./0025-list-filters.ts";

/**
 * SQLite's facet trigger (0025-list-filters) recomputed `care_cell` and `rating_average` on every write of a plant's
 * stock, and SQLite rewrites every index holding a column an UPDATE sets, whether or not its value changed: six
 * covering indexes for each unit sold. Guarded, it runs only when what the two columns are made of changes (the
 * in-stock bit, a care part, the review totals), so a sale that leaves stock above zero writes the row alone. A
 * probe of 40,000 stock writes on 2,000 plants: about 140 µs a write before, 70 µs after (docs/performance.md,
 * "Stock writes and the facet trigger"). PostgreSQL computes its generated column itself and needs nothing here.
 */
export function facetTriggerGuardMigration({ dialect }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect !== "sqlite") return;
      await replaceUpdateTrigger(db, `when (new.stock > 0) is not (old.stock > 0)
        or new.care_light is not old.care_light or new.care_pet_safe is not old.care_pet_safe
        or new.care_difficulty is not old.care_difficulty or new.care_place is not old.care_place
        or new.review_count is not old.review_count or new.rating_total is not old.rating_total`);
    },
    async down(db: Kysely<unknown>) {
      if (dialect !== "sqlite") return;
      await replaceUpdateTrigger(db, "");
    },
  };
}

async function replaceUpdateTrigger(db: Kysely<unknown>, guard: string) {
  const set = sql.raw(`update products set care_cell = ${facetCellSql()}, rating_average = ${SQLITE_AVERAGE}`);
  await sql`drop trigger if exists products_facets_update`.execute(db);
  await sql`create trigger products_facets_update after update of care_light, care_pet_safe, care_difficulty, care_place, stock, review_count, rating_total on products
    ${sql.raw(guard)} begin ${set} where rowid = new.rowid; end`.execute(db);
}
