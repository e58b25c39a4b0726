import { sql, type Kysely } from "kysely";
import type { MigrationContext } from "../../../platform/db/migrate.ts";

/**
 * The tables Better Auth uses (users, sessions, accounts, verifications), with its column names and types,
 * written here so that one migration history creates the whole schema. A test checks that Better Auth's own
 * schema diff finds nothing missing (server/modules/accounts/auth/auth-schema.db.test.ts).
 */
export function accountsMigration({ dialect }: MigrationContext) {
  const postgres = dialect === "postgres";
  const date = sql.raw(postgres ? "timestamptz" : "date");
  const bool = sql.raw(postgres ? "boolean" : "integer");
  const now = sql`CURRENT_TIMESTAMP`;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("users")
        .addColumn("id", "text", (c) => c.notNull().primaryKey())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("email", "text", (c) => c.notNull().unique())
        .addColumn("emailVerified", bool, (c) => c.notNull())
        .addColumn("image", "text")
        .addColumn("createdAt", date, (c) => (postgres ? c.defaultTo(now).notNull() : c.notNull()))
        .addColumn("updatedAt", date, (c) => (postgres ? c.defaultTo(now).notNull() : c.notNull()))
        .addColumn("username", "text", (c) => c.unique())
        .addColumn("displayUsername", "text")
        .addColumn("role", "text")
        .addColumn("banned", bool)
        .addColumn("banReason", "text")
        .addColumn("banExpires", date)
        .addColumn("phone", "text")
        .addColumn("address", "text")
        .addColumn("location", "text")
        .execute();

      await db.schema
        .createTable("sessions")
        .addColumn("id", "text", (c) => c.notNull().primaryKey())
        .addColumn("expiresAt", date, (c) => c.notNull())
        .addColumn("token", "text", (c) => c.notNull().unique())
        .addColumn("createdAt", date, (c) => (postgres ? c.defaultTo(now).notNull() : c.notNull()))
        .addColumn("updatedAt", date, (c) => c.notNull())
        .addColumn("ipAddress", "text")
        .addColumn("userAgent", "text")
        .addColumn("userId", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("impersonatedBy", "text")
        .execute();

      await db.schema
        .createTable("accounts")
        .addColumn("id", "text", (c) => c.notNull().primaryKey())
        .addColumn("accountId", "text", (c) => c.notNull())
        .addColumn("providerId", "text", (c) => c.notNull())
        .addColumn("userId", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("accessToken", "text")
        .addColumn("refreshToken", "text")
        .addColumn("idToken", "text")
        .addColumn("accessTokenExpiresAt", date)
        .addColumn("refreshTokenExpiresAt", date)
        .addColumn("scope", "text")
        .addColumn("password", "text")
        .addColumn("createdAt", date, (c) => (postgres ? c.defaultTo(now).notNull() : c.notNull()))
        .addColumn("updatedAt", date, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable("verifications")
        .addColumn("id", "text", (c) => c.notNull().primaryKey())
        .addColumn("identifier", "text", (c) => c.notNull())
        .addColumn("value", "text", (c) => c.notNull())
        .addColumn("expiresAt", date, (c) => c.notNull())
        .addColumn("createdAt", date, (c) => (postgres ? c.defaultTo(now).notNull() : c.notNull()))
        .addColumn("updatedAt", date, (c) => (postgres ? c.defaultTo(now).notNull() : c.notNull()))
        .execute();

      await db.schema.createIndex("sessions_userId_idx").on("sessions").column("userId").execute();
      await db.schema.createIndex("accounts_userId_idx").on("accounts").column("userId").execute();
      await db.schema.createIndex("verifications_identifier_idx").on("verifications").column("identifier").execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ["verifications", "accounts", "sessions", "users"]) await db.schema.dropTable(table).execute();
    },
  };
}
