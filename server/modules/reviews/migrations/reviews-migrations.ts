import type { MigrationPart } from "../../../platform/db/migrate.ts";
import { reviewsMigration } from "./0008-reviews.ts";

/** The reviews' part of the migration history (server/migrations.ts puts every owner's together). */
export const reviewsMigrations: readonly MigrationPart[] = [{ name: "0008-reviews", migration: reviewsMigration }];
