import { ORDERS_CSV_COLUMNS } from "#common/admin/catalog-csv.ts";
import { csvDownload } from "../../../shared/lib/csv-download.ts";
import { loadOrRefuse } from "../../../shared/lib/service-errors.ts";
import { requireAdmin } from "../../../shared/lib/session.ts";
import type { Route } from "./+types/export-orders";

// /admin/orders/export.csv?from=YYYY-MM-DD&to=YYYY-MM-DD: the order lines of those days, for the accountant.
export async function loader({ context, request }: Route.LoaderArgs) {
  const admin = requireAdmin(context, request);
  const range = Object.fromEntries(new URL(request.url).searchParams);
  const pages = await loadOrRefuse(async () => context.services.orders.exportOrders(admin, range));
  return csvDownload(`orders-${range.from}-to-${range.to}.csv`, ORDERS_CSV_COLUMNS, pages);
}
