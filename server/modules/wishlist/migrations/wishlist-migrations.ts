import type { MigrationPart } from "../../../platform/db/migrate.ts";
import { wishlistMigration } from "./0026-wishlist.ts";

/** The wishlist's part of the migration history (server/migrations.ts puts every owner's together). */
export const wishlistMigrations: readonly MigrationPart[] = [{ name: "0026-wishlist", migration: wishlistMigration }];
