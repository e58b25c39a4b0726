import type { MigrationPart } from "../../../platform/db/migrate.ts";
import { deliveryZonesMigration } from "./0031-delivery-zones.ts";

/** The delivery zones' part of the migration history (server/migrations.ts puts every owner's together). */
export const deliveryMigrations: readonly MigrationPart[] = [{ name: "0031-delivery-zones", migration: deliveryZonesMigration }];
