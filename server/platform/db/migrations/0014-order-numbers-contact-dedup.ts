import { type Kysely } from "kysely";

/**
 * - Orders keep the number people quote (docs/decisions/036-order-numbers-and-repeated-messages.md): drawn at
 *   random, 60 bits, unique by index. Orders placed before keep theirs, made from their id as it always was: their
 *   column stays null (both databases let a unique index hold many nulls), so no old number changes and two old
 *   orders that happen to share theirs cannot stop this migration.
 * - A contact message carries a digest of its sender and text, so a repeat within a few minutes is found by index
 *   and stored once. Messages stored before have none and are never taken for a repeat.
 */
export function orderNumbersContactDedupMigration() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("orders").addColumn("number", "text").execute();
      await db.schema.createIndex("orders_number_unique").unique().on("orders").column("number").execute();

      await db.schema.alterTable("contact_messages").addColumn("content_hash", "text").execute();
      await db.schema.createIndex("contact_messages_repeat").on("contact_messages").columns(["content_hash", "created_at"]).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex("contact_messages_repeat").execute();
      await db.schema.alterTable("contact_messages").dropColumn("content_hash").execute();
      await db.schema.dropIndex("orders_number_unique").execute();
      await db.schema.alterTable("orders").dropColumn("number").execute();
    },
  };
}
