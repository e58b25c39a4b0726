import type { Kysely } from "kysely";
import type { MigrationContext } from "../../../platform/db/migrate.ts";

/**
 * When each session was last used, to within a few minutes (session-last-use.ts), for the account's security page.
 * Better Auth does not know the column and never writes it; its rows start with none (the page then shows when the
 * session started).
 */
export function sessionLastUsedMigration({ timestamp }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("sessions").addColumn("lastUsedAt", timestamp).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable("sessions").dropColumn("lastUsedAt").execute();
    },
  };
}
