import type { Kysely } from "kysely";
import type { MigrationContext } from "../../../platform/db/migrate.ts";

/**
 * An account's security events (sign-ins, failed sign-ins, password and e-mail changes, two-factor, ended sessions,
 * linked providers), listed to the account's owner. They go with the account (cascade); each account keeps only its
 * newest ones (security-events.ts).
 */
export function securityEventsMigration({ timestamp }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("security_events")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("method", "text")
        .addColumn("ip", "text")
        .addColumn("user_agent", "text")
        .addColumn("created_at", timestamp, (c) => c.notNull())
        .execute();
      // Newest first per account: the page's list and the trimming of older events are one index range.
      await db.schema.createIndex("security_events_user_created").on("security_events").columns(["user_id", "created_at", "id"]).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable("security_events").execute();
    },
  };
}
