import { sql, type Kysely } from "kysely";
import type { MigrationContext } from "../../../platform/db/migrate.ts";

/**
 * A catalogue import's preview and progress in the database instead of a file of one server's DATA_DIR and a map of
 * its process (docs/decisions/058): with several server copies, the copy that shows the preview, the one that starts
 * the import and the ones the page's polling reaches are any of them. `state` is its own column so that a start is
 * one conditional update, taken by one copy only.
 */
export function catalogImportsMigration({ timestamp }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("catalog_imports")
        .addColumn("token", "text", (c) => c.primaryKey())
        .addColumn("state", "text", (c) => c.notNull().check(sql`state in ('preview', 'running', 'finished')`))
        .addColumn("view", "text", (c) => c.notNull())
        .addColumn("plans", "text", (c) => c.notNull())
        .addColumn("created_at", timestamp, (c) => c.notNull())
        .addColumn("updated_at", timestamp, (c) => c.notNull())
        .execute();
      // Previews older than a day are deleted by age at each new preview: the index keeps that a range.
      await db.schema.createIndex("catalog_imports_created").on("catalog_imports").column("created_at").execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable("catalog_imports").execute();
    },
  };
}
