import type { Kysely } from "kysely";

/** The rate limiter's counters, one row per key and window. */
export function rateLimitsMigration() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("rate_limits")
        .addColumn("key", "text", (c) => c.primaryKey())
        .addColumn("hits", "integer", (c) => c.notNull())
        .addColumn("resets_at", "bigint", (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable("rate_limits").execute();
    },
  };
}
