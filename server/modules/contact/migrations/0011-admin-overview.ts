import { sql, type Kysely } from "kysely";
import type { MigrationContext } from "../../../platform/db/migrate.ts";

/**
 * The owner's inbox (docs/decisions/024-admin-overview.md): contact messages can be marked handled, and the inbox
 * pages by (created_at, id), all or only the unhandled.
 */
export function handledMessagesMigration({ timestamp }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("contact_messages").addColumn("handled_at", timestamp).execute();
      await db.schema.createIndex("contact_messages_newest").on("contact_messages").columns(["created_at", "id"]).execute();
      // Only the unhandled ones: the index stays as small as the owner's backlog.
      await sql`create index contact_messages_unhandled on contact_messages (created_at, id) where handled_at is null`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex("contact_messages_unhandled").execute();
      await db.schema.dropIndex("contact_messages_newest").execute();
      await db.schema.alterTable("contact_messages").dropColumn("handled_at").execute();
    },
  };
}
