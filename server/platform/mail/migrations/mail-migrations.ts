import type { MigrationPart } from "../../db/migrate.ts";
import { mailOutboxMigration } from "./0006-mail-outbox.ts";
import { mailHeadersMigration } from "./0029-mail-headers.ts";

/** The mail outbox's part of the migration history (server/migrations.ts puts every owner's together). */
export const mailMigrations: readonly MigrationPart[] = [
  { name: "0006-mail-outbox", migration: mailOutboxMigration },
  { name: "0029-mail-headers", migration: mailHeadersMigration },
];
