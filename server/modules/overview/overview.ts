import {
  LOW_STOCK_LIST_SIZE,
  LOW_STOCK_THRESHOLD,
  OVERVIEW_DAYS,
  UNHANDLED_COUNT_CAP,
  type DaySales,
  type Overview,
  type SalesSummary,
} from "#common/overview/overview-types.ts";
import type { Database } from "../../platform/db/client.ts";
import { addDays, shopDay } from "../../platform/shop-day.ts";
import { requireAdmin, type SessionUser } from "../../platform/session-user.ts";
import { listLowStockProducts } from "../catalog/index.ts";
import { countWaiting } from "../alerts/index.ts";
import { countUnhandledMessages } from "../contact/index.ts";
import { readDailyTotals } from "../orders/index.ts";

export interface OverviewDependencies {
  database: Pick<Database, "db" | "dialect">;
  /** The shop's time zone (SHOP_TIME_ZONE): what "today" means. */
  timeZone: string;
  /** The clock, for tests that need a day other than today. */
  now?: () => Date;
}

export type OverviewService = ReturnType<typeof createOverviewService>;

/**
 * The owner's overview (docs/decisions/024). Every figure is read from something kept small: the daily totals the orders
 * module maintains as orders are placed and cancelled (30 rows), a range of the products-by-stock index, and a
 * capped count of the unhandled messages. Nothing here grows with the number of orders, products or messages.
 */
export function createOverviewService(deps: OverviewDependencies) {
  const { db } = deps.database;
  const now = deps.now ?? (() => new Date());

  return {
    async getOverview(viewer: SessionUser | null): Promise<Overview> {
      requireAdmin(viewer);
      const today = shopDay(now(), deps.timeZone);
      const from = addDays(today, -(OVERVIEW_DAYS - 1));
      const [totals, lowStock, unhandled] = await Promise.all([
        readDailyTotals(db, from, today),
        listLowStockProducts(db, LOW_STOCK_THRESHOLD, LOW_STOCK_LIST_SIZE + 1),
        countUnhandledMessages(db, UNHANDLED_COUNT_CAP),
      ]);
      const listed = lowStock.slice(0, LOW_STOCK_LIST_SIZE);
      // The shop's best signal of what to grow next: who waits for each size listed (one bounded statement).
      const waiting = await countWaiting(db, listed.map((size) => size.variantId));
      const byDay = new Map(totals.map((t) => [t.day, t]));
      const days: DaySales[] = Array.from({ length: OVERVIEW_DAYS }, (_, i) => {
        const day = addDays(from, i);
        return byDay.get(day) ?? { day, orders: 0, cancelled: 0, revenuePaise: 0 };
      });
      const sum = (list: DaySales[]): SalesSummary => ({
        orders: list.reduce((n, d) => n + d.orders, 0),
        cancelled: list.reduce((n, d) => n + d.cancelled, 0),
        revenuePaise: list.reduce((n, d) => n + d.revenuePaise, 0),
      });
      return {
        timeZone: deps.timeZone,
        today: { day: today, ...sum(days.slice(-1)) },
        lastDays: { from, to: today, ...sum(days) },
        days,
        lowStock: { threshold: LOW_STOCK_THRESHOLD, products: listed.map((size) => ({ ...size, waiting: waiting.get(size.variantId) ?? { count: 0, atLeast: false } })), more: lowStock.length > LOW_STOCK_LIST_SIZE },
        unhandledMessages: { count: Math.min(unhandled, UNHANDLED_COUNT_CAP - 1), atLeast: unhandled >= UNHANDLED_COUNT_CAP },
      };
    },
  };
}
