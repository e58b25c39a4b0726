import type { Kysely } from "kysely";

/** The orders export reads a range of days by key (created_at, id): this index answers it without a scan (docs/decisions/058). */
export function ordersByDateMigration() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex("orders_created_id").on("orders").columns(["created_at", "id"]).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex("orders_created_id").execute();
    },
  };
}
