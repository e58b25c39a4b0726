import { CATALOG_CSV_COLUMNS } from "#common/admin/catalog-csv.ts";
import { csvDownload } from "../../../shared/lib/csv-download.ts";
import { loadOrRefuse } from "../../../shared/lib/service-errors.ts";
import { requireAdmin } from "../../../shared/lib/session.ts";
import type { Route } from "./+types/export-products";

// /admin/products/export.csv: the whole catalogue, one row per size, written as it is read (docs/decisions/058).
export async function loader({ context, request }: Route.LoaderArgs) {
  const admin = requireAdmin(context, request);
  const pages = await loadOrRefuse(async () => context.services.adminCatalog.exportCatalog(admin));
  return csvDownload(`catalogue-${new Date().toISOString().slice(0, 10)}.csv`, CATALOG_CSV_COLUMNS, pages);
}


