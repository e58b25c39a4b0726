import { sql, type Kysely } from "kysely";
import type { MigrationContext } from "../../../platform/db/migrate.ts";

/**
 * Better Auth's two-factor plugin: its table (named two_factors through the plugin's schema option, as our tables
 * are named) and the users' twoFactorEnabled flag, with the plugin's column names and types (as 0002-accounts wrote
 * the library's other tables; auth-schema.db.test.ts checks that the library finds nothing missing).
 */
export function twoFactorMigration({ dialect }: MigrationContext) {
  const postgres = dialect === "postgres";
  const date = sql.raw(postgres ? "timestamptz" : "date");
  const bool = sql.raw(postgres ? "boolean" : "integer");
  const no = sql.raw(postgres ? "false" : "0");
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("users").addColumn("twoFactorEnabled", bool, (c) => c.defaultTo(no)).execute();
      await db.schema
        .createTable("two_factors")
        .addColumn("id", "text", (c) => c.notNull().primaryKey())
        .addColumn("secret", "text", (c) => c.notNull())
        .addColumn("backupCodes", "text", (c) => c.notNull())
        .addColumn("userId", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("verified", bool, (c) => c.defaultTo(sql.raw(postgres ? "true" : "1")))
        .addColumn("failedVerificationCount", "integer", (c) => c.defaultTo(0))
        .addColumn("lockedUntil", date)
        .execute();
      await db.schema.createIndex("two_factors_secret_idx").on("two_factors").column("secret").execute();
      await db.schema.createIndex("two_factors_userId_idx").on("two_factors").column("userId").execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable("two_factors").execute();
      await db.schema.alterTable("users").dropColumn("twoFactorEnabled").execute();
    },
  };
}
