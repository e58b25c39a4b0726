import { type Kysely } from "kysely";

/**
 * A contact message carries a digest of its sender and text, so a repeat within a few minutes is found by index
 * and stored once (docs/decisions/036-order-numbers-and-repeated-messages.md). Messages stored before have none
 * and are never taken for a repeat.
 */
export function messageDigestMigration() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("contact_messages").addColumn("content_hash", "text").execute();
      await db.schema.createIndex("contact_messages_repeat").on("contact_messages").columns(["content_hash", "created_at"]).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex("contact_messages_repeat").execute();
      await db.schema.alterTable("contact_messages").dropColumn("content_hash").execute();
    },
  };
}
