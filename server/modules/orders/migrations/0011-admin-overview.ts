import { sql, type Kysely } from "kysely";
import type { MigrationContext } from "../../../platform/db/migrate.ts";
import { DEFAULT_SHOP_TIME_ZONE } from "../../../platform/shop-day.ts";

/**
 * The owner's overview (docs/decisions/024-admin-overview.md): order_daily_totals keeps each day's orders and
 * revenue, maintained in the transaction that places or cancels an order, so the overview reads 30 rows instead
 * of scanning every order. (Low stock reads products_stock (stock, id), made by 0010-admin-catalog.)
 */
export function dailyTotalsMigration({ dialect }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>) {
      // Which day's totals an order is in, so its cancellation comes off the same day whatever SHOP_TIME_ZONE says then.
      await db.schema.alterTable("orders").addColumn("counted_on", "text").execute();
      await db.schema
        .createTable("order_daily_totals")
        // The day in the shop's time zone, YYYY-MM-DD.
        .addColumn("day", "text", (c) => c.primaryKey())
        .addColumn("orders_placed", "integer", (c) => c.notNull().check(sql`orders_placed >= 0`))
        .addColumn("orders_cancelled", "integer", (c) => c.notNull().check(sql`orders_cancelled >= 0`))
        // Totals (with shipping) of that day's orders not cancelled; 64-bit like the orders' amounts.
        .addColumn("revenue_paise", "bigint", (c) => c.notNull().check(sql`revenue_paise >= 0`))
        .execute();

      // Orders placed before this release are counted once, here, on their day in the default zone, India's
      // (decision 024). It has had no daylight saving since 1945, so on SQLite a fixed +05:30 is the same thing.
      await (dialect === "postgres"
        ? sql`update orders set counted_on = to_char(created_at at time zone ${sql.lit(DEFAULT_SHOP_TIME_ZONE)}, 'YYYY-MM-DD')`
        : sql`update orders set counted_on = date(created_at, '+330 minutes')`
      ).execute(db);
      await sql`insert into order_daily_totals (day, orders_placed, orders_cancelled, revenue_paise)
        select counted_on, count(*),
               sum(case when status = 'cancelled' then 1 else 0 end),
               sum(case when status = 'cancelled' then 0 else total_paise end)
        from orders group by counted_on`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable("order_daily_totals").execute();
      await db.schema.alterTable("orders").dropColumn("counted_on").execute();
    },
  };
}
