import type { Kysely } from "kysely";

/**
 * The room unfinished uploads hold against the quotas, one row per upload (or per creation not yet given its id by
 * tus). In the database rather than in each process, so that several server copies sharing a bucket share one
 * tally and one check (docs/decisions/035).
 */
export function uploadHoldsMigration() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("upload_holds")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("uploader", "text", (c) => c.notNull())
        .addColumn("bytes", "bigint", (c) => c.notNull())
        .addColumn("held_since", "bigint", (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable("upload_holds").execute();
    },
  };
}
