import { sql, type Kysely } from "kysely";
import type { MigrationContext } from "../../../platform/db/migrate.ts";

/**
 * Back-in-stock alerts: who waits for which size. One per size and address; the indexes are those the module's
 * queries walk: a size's confirmed waiting list oldest first (a restock), the unconfirmed by age (the weekly
 * forgetting), an address's alerts (its limit, unsubscribing), the confirmation link's digest, and an account's (its
 * deletion cascades here).
 */
export function stockAlertsMigration({ timestamp }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("stock_alerts")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("variant_id", "text", (c) => c.notNull().references("product_variants.id").onDelete("cascade"))
        .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("cascade"))
        .addColumn("email", "text", (c) => c.notNull())
        .addColumn("confirmed_at", timestamp)
        .addColumn("token_hash", "text")
        .addColumn("created_at", timestamp, (c) => c.notNull())
        .addUniqueConstraint("stock_alerts_variant_email", ["variant_id", "email"])
        .execute();
      await db.schema
        .createIndex("stock_alerts_waiting")
        .on("stock_alerts")
        .columns(["variant_id", "created_at", "id"])
        .where(sql.ref("confirmed_at"), "is not", null)
        .execute();
      await db.schema.createIndex("stock_alerts_unconfirmed").on("stock_alerts").columns(["created_at", "id"]).where(sql.ref("confirmed_at"), "is", null).execute();
      await db.schema.createIndex("stock_alerts_email").on("stock_alerts").column("email").execute();
      await db.schema.createIndex("stock_alerts_user").on("stock_alerts").column("user_id").execute();
      await db.schema.createIndex("stock_alerts_token").on("stock_alerts").column("token_hash").unique().execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable("stock_alerts").execute();
    },
  };
}
