import type { MigrationPart } from "../../../platform/db/migrate.ts";
import { couponsMigration } from "./0021-coupons.ts";

/** The coupons' part of the migration history (server/migrations.ts puts every owner's together). */
export const couponsMigrations: readonly MigrationPart[] = [{ name: "0021-coupons", migration: couponsMigration }];
