import { sql, type Kysely } from "kysely";
import type { MigrationContext } from "../../../platform/db/migrate.ts";

/**
 * Delivery zones by PIN code (docs/decisions/053). A zone's entries are kept as typed (to edit them again) and as
 * the decimal prefixes they are made of, whose primary key (prefix first) answers a PIN code's zone with at most
 * six index seeks, however many zones there are. The shop's non-dispatch weekdays and holidays have a table each.
 */
export function deliveryZonesMigration({ dialect, timestamp }: MigrationContext) {
  const bool = sql.raw(dialect === "postgres" ? "boolean" : "integer");
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("delivery_zones")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("name", "text", (c) => c.notNull().unique())
        .addColumn("areas", "text", (c) => c.notNull())
        .addColumn("fee_paise", "bigint", (c) => c.notNull().check(sql`fee_paise >= 0`))
        .addColumn("free_above_paise", "bigint", (c) => c.check(sql`free_above_paise >= 0`))
        .addColumn("days_min", "integer", (c) => c.notNull().check(sql`days_min >= 0`))
        .addColumn("days_max", "integer", (c) => c.notNull().check(sql`days_max >= days_min`))
        .addColumn("cod_allowed", bool, (c) => c.notNull())
        .addColumn("cod_limit_paise", "bigint", (c) => c.check(sql`cod_limit_paise >= 0`))
        .addColumn("created_at", timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("delivery_zone_prefixes")
        .addColumn("prefix", "text", (c) => c.notNull())
        .addColumn("zone_id", "text", (c) => c.notNull().references("delivery_zones.id").onDelete("cascade"))
        .addColumn("span", "integer", (c) => c.notNull().check(sql`span > 0`))
        .addPrimaryKeyConstraint("delivery_zone_prefixes_pk", ["prefix", "zone_id"])
        .execute();
      // The cascade of a zone's deletion finds its rows by this.
      await db.schema.createIndex("delivery_zone_prefixes_zone").on("delivery_zone_prefixes").column("zone_id").execute();
      await db.schema
        .createTable("delivery_closed_weekdays")
        .addColumn("weekday", "integer", (c) => c.primaryKey().check(sql`weekday between 0 and 6`))
        .execute();
      await db.schema.createTable("delivery_holidays").addColumn("day", "text", (c) => c.primaryKey()).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable("delivery_holidays").execute();
      await db.schema.dropTable("delivery_closed_weekdays").execute();
      await db.schema.dropTable("delivery_zone_prefixes").execute();
      await db.schema.dropTable("delivery_zones").execute();
    },
  };
}
