import { sql, type Kysely } from "kysely";
import type { MigrationContext } from "../../db/migrate.ts";

export const MAIL_STATUSES = ["pending", "sent", "failed"] as const;

/**
 * Every e-mail the shop sends, written by the request that causes it (in its transaction) and sent by the mail
 * worker (server/platform/mail/mail-outbox.ts, docs/decisions/016-mail-outbox.md). A pending row is due at
 * `next_attempt_at`; a worker that claims it moves that time forward by a lease, so another process skips it
 * and a crashed one's claim runs out by itself.
 */
export function mailOutboxMigration({ timestamp }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("mail_outbox")
        .addColumn("id", "text", (c) => c.primaryKey())
        // What the mail is and what it is about (an order's or an account's id): enough for a log line.
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("reference", "text")
        .addColumn("recipient", "text", (c) => c.notNull())
        .addColumn("subject", "text", (c) => c.notNull())
        // Cleared once the mail is sent or given up: a link with a token stays in the database no longer than needed.
        .addColumn("text_body", "text")
        .addColumn("html_body", "text")
        .addColumn("status", "text", (c) => c.notNull().check(sql.raw(`status in (${MAIL_STATUSES.map((s) => `'${s}'`).join(", ")})`)))
        .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("next_attempt_at", timestamp, (c) => c.notNull())
        // The claim of the worker sending it now; only that worker may record the outcome.
        .addColumn("claim", "text")
        .addColumn("last_error", "text")
        .addColumn("created_at", timestamp, (c) => c.notNull())
        .addColumn("finished_at", timestamp)
        .execute();
      await db.schema.createIndex("mail_outbox_due").on("mail_outbox").columns(["status", "next_attempt_at"]).execute();
      await db.schema.createIndex("mail_outbox_finished").on("mail_outbox").columns(["status", "finished_at"]).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable("mail_outbox").execute();
    },
  };
}
