import type { MigrationPart } from "../../../platform/db/migrate.ts";
import { auditTrailMigration } from "./0033-audit-trail.ts";

/** The audit trail's part of the migration history (server/migrations.ts puts every owner's together). */
export const auditMigrations: readonly MigrationPart[] = [{ name: "0033-audit-trail", migration: auditTrailMigration }];
