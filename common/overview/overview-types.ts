import { z } from "zod";
import { lowStockProductSchema } from "../catalog/catalog-schemas.ts";
import { daySalesSchema } from "../orders/order-schemas.ts";
import type { DaySales } from "../orders/order-types.ts";

/** A product counts as low in stock at this many or fewer (the overview lists them, fewest first). */
export const LOW_STOCK_THRESHOLD = 5;
/** How many low-stock products the overview lists; the products page has the rest. */
export const LOW_STOCK_LIST_SIZE = 10;
/** Unhandled messages are counted up to this; more shows as "99+". */
export const UNHANDLED_COUNT_CAP = 100;
/** The chart's span: today and the days before it. */
export const OVERVIEW_DAYS = 30;

// The chart's days are the orders module's daily figures; today and the span add them up.
const { day, ...salesSummary } = daySalesSchema.shape;

/** The owner's overview (GET /api/admin/overview). */
export const overviewSchema = z
  .strictObject({
    timeZone: z.string().meta({ description: "The IANA time zone \"today\" is measured in (SHOP_TIME_ZONE)" }),
    today: z.strictObject({ ...salesSummary, day }),
    lastDays: z.strictObject({ ...salesSummary, from: day, to: day }),
    days: z.array(daySalesSchema).meta({ description: "Every day of the span, oldest first, days without orders included (as zeros)" }),
    lowStock: z.strictObject({
      threshold: z.int(),
      products: z.array(
        lowStockProductSchema.extend({
          waiting: z
            .strictObject({ count: z.int().min(0), atLeast: z.boolean() })
            .meta({ description: "How many people wait for a back-in-stock e-mail of this size (counted up to a cap: atLeast)" }),
        }),
      ),
      more: z.boolean(),
    }),
    unhandledMessages: z.strictObject({ count: z.int().min(0), atLeast: z.boolean().meta({ description: "The count is capped; the real number may be higher" }) }),
  })
  .meta({ id: "Overview" });

export type { DaySales };
export type SalesSummary = Pick<DaySales, "orders" | "cancelled" | "revenuePaise">;
export type Overview = z.infer<typeof overviewSchema>;
