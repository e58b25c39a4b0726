import type { Kysely } from "kysely";
import type { MigrationContext } from "../../../platform/db/migrate.ts";

/** The messages sent through the contact form. */
export function contactMessagesMigration({ timestamp }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("contact_messages")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("email", "text", (c) => c.notNull())
        .addColumn("subject", "text", (c) => c.notNull())
        .addColumn("message", "text", (c) => c.notNull())
        .addColumn("client_ip", "text")
        .addColumn("created_at", timestamp, (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable("contact_messages").execute();
    },
  };
}
