import type { MigrationPart } from "../../db/migrate.ts";
import { uploadHoldsMigration } from "./0038-upload-holds.ts";

/** The uploads' part of the migration history (server/migrations.ts puts every owner's together). */
export const uploadMigrations: readonly MigrationPart[] = [{ name: "0038-upload-holds", migration: uploadHoldsMigration }];
