import { sql, type Kysely, type QueryCreator } from "kysely";
import { insertValuesWhen, type SelectQuery } from "../../platform/db/insert-values-when.ts";
import type { DaySales } from "#common/orders/order-types.ts";
import type { DB } from "../../platform/db/schema.ts";

/**
 * Counts a new order on its day, inside the transaction that places it, so the totals commit or roll back with
 * the order. One row per day is a hot row on PostgreSQL: the caller does this last, so the row lock is held
 * only until commit.
 */
export async function countPlacedOrder(trx: Kysely<DB>, day: string, totalPaise: number): Promise<void> {
  await placedOrderCount(trx, day, totalPaise).execute();
}

/**
 * The statement of countPlacedOrder, to run alone or inside another (PostgreSQL: a CTE of the statement that takes
 * the stock, so that the hot rows are held for one round trip less). With `when`, it counts only if that query
 * has a row.
 */
export function placedOrderCount(trx: QueryCreator<DB>, day: string, totalPaise: number, when?: SelectQuery) {
  return insertValuesWhen(trx.insertInto("order_daily_totals"), { day, orders_placed: 1, orders_cancelled: 0, revenue_paise: totalPaise }, when)
    .onConflict((conflict) =>
      conflict.column("day").doUpdateSet({
        orders_placed: sql`order_daily_totals.orders_placed + 1`,
        revenue_paise: sql`order_daily_totals.revenue_paise + excluded.revenue_paise`,
      }),
    );
}

/**
 * Takes a cancelled order out of the revenue of the day it was counted on (the day stored on the order, so a
 * later change of SHOP_TIME_ZONE cannot move it to another day), inside the cancelling transaction.
 */
export async function countCancelledOrder(trx: Kysely<DB>, day: string, totalPaise: number): Promise<void> {
  await trx
    .updateTable("order_daily_totals")
    .set({ orders_cancelled: sql`orders_cancelled + 1`, revenue_paise: sql`revenue_paise - ${totalPaise}` })
    .where("day", "=", day)
    .execute();
}

/**
 * The totals of the days from `fromDay` to `toDay` (inclusive) that had orders, at most one per day: the orders
 * placed that day and not cancelled since, those cancelled, and the revenue of the first.
 */
export async function readDailyTotals(db: Kysely<DB>, fromDay: string, toDay: string): Promise<DaySales[]> {
  const rows = await db
    .selectFrom("order_daily_totals")
    .selectAll()
    .where("day", ">=", fromDay)
    .where("day", "<=", toDay)
    .orderBy("day")
    .execute();
  return rows.map((row) => ({
    day: row.day,
    orders: Number(row.orders_placed) - Number(row.orders_cancelled),
    cancelled: Number(row.orders_cancelled),
    revenuePaise: Number(row.revenue_paise),
  }));
}
