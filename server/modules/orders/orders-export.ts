import type { Kysely } from "kysely";
import { ordersExportSchema } from "#common/admin/catalog-csv.ts";
import { instantToWallTime, wallTimeToInstant } from "#common/shared/dates.ts";
import { paiseToDecimal } from "#common/shared/money.ts";
import { legacyOrderNumber } from "#common/orders/order-types.ts";
import type { DB } from "../../platform/db/schema.ts";
import { parseInput } from "../../platform/errors.ts";
import { requireAdmin, type SessionUser } from "../../platform/session-user.ts";
import { addDays } from "../../platform/shop-day.ts";

// The accountant's orders export (docs/decisions/058): one line per order line for a range of the shop's days,
// read a page of orders at a time by key (created_at, id), oldest first.

const EXPORT_PAGE = 200;

/** Rupees with two decimals and no grouping ('1499.50'): what a spreadsheet sums. */
const rupees = (paise: number) => paiseToDecimal(paise);

/**
 * The range's lines, a page at a time. The admin check and the range's check run at the call, before any read; the
 * days are the shop's (SHOP_TIME_ZONE), as on the rest of the admin pages.
 */
export function exportOrders(db: Kysely<DB>, timeZone: string, viewer: SessionUser | null, input: unknown): AsyncGenerator<string[][]> {
  requireAdmin(viewer);
  const range = parseInput(ordersExportSchema, input);
  const from = wallTimeToInstant(`${range.from}T00:00`, timeZone)!;
  const until = wallTimeToInstant(`${addDays(range.to, 1)}T00:00`, timeZone)!;
  return orderPages(db, timeZone, from, until);
}

async function* orderPages(db: Kysely<DB>, timeZone: string, from: string, until: string): AsyncGenerator<string[][]> {
  let after: { createdAt: string; id: string } | null = null;
  for (;;) {
    let query = db
      .selectFrom("orders")
      .select(["id", "number", "created_at", "ship_name", "status", "coupon_code", "discount_paise", "shipping_paise", "total_paise", "payment_method"])
      .where("created_at", "<", until);
    query = after === null ? query.where("created_at", ">=", from) : query.where((eb) => eb(eb.refTuple("created_at", "id"), ">", eb.tuple(after!.createdAt, after!.id)));
    const orders = await query.orderBy("created_at").orderBy("id").limit(EXPORT_PAGE).execute();
    if (orders.length === 0) return;
    const ids = orders.map((order) => order.id);
    const [lines, payments] = await Promise.all([
      db.selectFrom("order_lines").select(["order_id", "sku", "name", "variant_label", "quantity", "unit_price_paise"]).where("order_id", "in", ids).orderBy("order_id").orderBy("position").execute(),
      db.selectFrom("order_payments").select(["order_id", "reference"]).where("order_id", "in", ids).execute(),
    ]);
    const linesOf = new Map<string, typeof lines>();
    for (const line of lines) linesOf.set(line.order_id, [...(linesOf.get(line.order_id) ?? []), line]);
    const referenceOf = new Map(payments.map((payment) => [payment.order_id, payment.reference]));
    const rows: string[][] = [];
    for (const order of orders) {
      for (const line of linesOf.get(order.id) ?? []) {
        rows.push([
          order.number ?? legacyOrderNumber(order.id),
          // The shop's wall time as "2026-11-01 09:30", which spreadsheets read as a date and time.
          instantToWallTime(order.created_at, timeZone).replace("T", " "),
          order.ship_name,
          order.status,
          line.sku ?? "",
          line.variant_label ? `${line.name} (${line.variant_label})` : line.name,
          String(line.quantity),
          rupees(line.unit_price_paise),
          rupees(line.unit_price_paise * line.quantity),
          order.coupon_code ?? "",
          rupees(order.discount_paise),
          rupees(order.shipping_paise),
          rupees(order.total_paise),
          order.payment_method,
          referenceOf.get(order.id) ?? "",
        ]);
      }
    }
    yield rows;
    const last = orders.at(-1)!;
    after = { createdAt: new Date(last.created_at).toISOString(), id: last.id };
    if (orders.length < EXPORT_PAGE) return;
  }
}
