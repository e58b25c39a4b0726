import { sql, type Kysely } from "kysely";
import type { MigrationContext } from "../../../platform/db/migrate.ts";

/**
 * The owner's activity (docs/decisions/057): one row per change an admin made, written in the change's transaction.
 * The id is a counter, so the newest-first page is the primary key read backwards; the two other indexes serve the
 * filters by person and by thing. Nothing refers to other tables: a record outlives the account and the thing.
 */
export function auditTrailMigration({ dialect, timestamp }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("audit_events")
        .addColumn("id", dialect === "postgres" ? "bigint" : "integer", (c) => (dialect === "postgres" ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey().autoIncrement()))
        .addColumn("created_at", timestamp, (c) => c.notNull())
        .addColumn("actor_id", "text")
        .addColumn("actor_name", "text", (c) => c.notNull())
        .addColumn("actor_email", "text")
        .addColumn("client_ip", "text")
        .addColumn("thing_kind", "text", (c) => c.notNull())
        .addColumn("thing_id", "text")
        .addColumn("thing_label", "text", (c) => c.notNull())
        .addColumn("summary", "text", (c) => c.notNull())
        .addColumn("changes", "text", (c) => c.notNull().check(sql`length(changes) <= 65536`))
        .execute();
      await db.schema.createIndex("audit_events_actor").on("audit_events").columns(["actor_id", "id"]).execute();
      await db.schema.createIndex("audit_events_thing").on("audit_events").columns(["thing_kind", "thing_id", "id"]).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable("audit_events").execute();
    },
  };
}
