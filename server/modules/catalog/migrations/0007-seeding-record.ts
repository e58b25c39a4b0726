import type { Kysely } from "kysely";
import type { MigrationContext } from "../../../platform/db/migrate.ts";

/**
 * Which one-time seeds have run (docs/decisions/017-seeding-once-and-ci.md). Sample data is added when the database is
 * new, and a row here says it happened, so an owner's later deletions and renames survive a restart.
 */
export function seedingRecordMigration({ timestamp }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("seed_runs")
        .addColumn("name", "text", (c) => c.primaryKey())
        .addColumn("ran_at", timestamp, (c) => c.notNull())
        .addColumn("categories_created", "integer", (c) => c.notNull())
        .addColumn("products_created", "integer", (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable("seed_runs").execute();
    },
  };
}
