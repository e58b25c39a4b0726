import type { MigrationPart } from "../../../platform/db/migrate.ts";
import { contactMessagesMigration } from "./0001-catalog.ts";
import { handledMessagesMigration } from "./0011-admin-overview.ts";
import { messageDigestMigration } from "./0014-order-numbers-contact-dedup.ts";

/** The contact messages' parts of the migration history (server/migrations.ts puts every owner's together). */
export const contactMigrations: readonly MigrationPart[] = [
  { name: "0001-catalog", migration: contactMessagesMigration },
  { name: "0011-admin-overview", migration: handledMessagesMigration },
  { name: "0014-order-numbers-contact-dedup", migration: messageDigestMigration },
];
