import type { MigrationPart } from "../../../platform/db/migrate.ts";
import { stockAlertsMigration } from "./0027-stock-alerts.ts";

/** The back-in-stock alerts' part of the migration history (server/migrations.ts puts every owner's together). */
export const alertsMigrations: readonly MigrationPart[] = [{ name: "0027-stock-alerts", migration: stockAlertsMigration }];
