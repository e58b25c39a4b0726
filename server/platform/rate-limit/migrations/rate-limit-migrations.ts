import type { MigrationPart } from "../../db/migrate.ts";
import { rateLimitsMigration } from "./0001-catalog.ts";

/** The rate limiter's part of the migration history (server/migrations.ts puts every owner's together). */
export const rateLimitMigrations: readonly MigrationPart[] = [{ name: "0001-catalog", migration: rateLimitsMigration }];
