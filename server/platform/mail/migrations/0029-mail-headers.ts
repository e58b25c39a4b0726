import type { Kysely } from "kysely";

/**
 * Headers a mail carries beside the usual ones (a back-in-stock mail's List-Unsubscribe), stored with the mail so
 * that a mail queued before a restart still goes with them. Sealed like the bodies and cleared with them once the
 * mail is sent or given up: the unsubscribe link in them carries a token. Null for a mail without any.
 */
export function mailHeadersMigration() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("mail_outbox").addColumn("headers", "text").execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable("mail_outbox").dropColumn("headers").execute();
    },
  };
}
