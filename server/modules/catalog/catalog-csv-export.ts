import type { CatalogCsvRow } from "#common/admin/catalog-csv.ts";
import { CATALOG_CSV_COLUMNS } from "#common/admin/catalog-csv.ts";
import { instantToWallTime } from "#common/shared/dates.ts";
import { paiseToRupeesInput } from "#common/shared/money.ts";
import { requireAdmin, type SessionUser } from "../../platform/session-user.ts";
import type { CatalogEditingContext } from "./catalog-editing-context.ts";
import { CARE_COLUMNS } from "./care-columns.ts";

// The catalogue as CSV (docs/decisions/058): one row per size, read a page of products at a time by key.

/** Products read per page of the export; their sizes are read with them in one query. */
const EXPORT_PAGE = 200;

type Reads = Pick<CatalogEditingContext, "db" | "timeZone">;

/**
 * Every product with its sizes, in id order, a page at a time: what the import takes back. The admin check runs
 * at the call, before the first page is read.
 */
export function exportCatalog(ctx: Reads, viewer: SessionUser | null): AsyncGenerator<string[][]> {
  requireAdmin(viewer);
  return catalogPages(ctx);
}

async function* catalogPages(ctx: Reads): AsyncGenerator<string[][]> {
  let after: string | null = null;
  for (;;) {
    let query = ctx.db
      .selectFrom("products as p")
      .innerJoin("categories as c", "c.id", "p.category_id")
      .select(["p.id", "p.name", "p.description", "p.sale_starts_at", "p.sale_ends_at", "c.name as category_name", ...CARE_COLUMNS]);
    if (after !== null) query = query.where("p.id", ">", after);
    const products = await query.orderBy("p.id").limit(EXPORT_PAGE).execute();
    if (products.length === 0) return;
    const sizes = await ctx.db
      .selectFrom("product_variants")
      .select(["product_id", "label", "sku", "price_paise", "compare_at_paise", "stock"])
      .where("product_id", "in", products.map((product) => product.id))
      .orderBy("product_id")
      .orderBy("position")
      .orderBy("id")
      .execute();
    const sizesOf = new Map<string, typeof sizes>();
    for (const size of sizes) sizesOf.set(size.product_id, [...(sizesOf.get(size.product_id) ?? []), size]);
    const rows: string[][] = [];
    for (const product of products) {
      for (const size of sizesOf.get(product.id) ?? []) {
        const row: CatalogCsvRow = {
          product: product.name,
          description: product.description,
          category: product.category_name,
          size: size.label,
          sku: size.sku,
          price: paiseToRupeesInput(size.price_paise),
          compare_at_price: size.compare_at_paise === null ? "" : paiseToRupeesInput(size.compare_at_paise),
          stock: String(size.stock),
          // In the shop's time zone, as the product form shows and takes them.
          sale_starts_at: product.sale_starts_at === null ? "" : instantToWallTime(product.sale_starts_at, ctx.timeZone),
          sale_ends_at: product.sale_ends_at === null ? "" : instantToWallTime(product.sale_ends_at, ctx.timeZone),
          light: product.care_light ?? "",
          watering: product.care_watering ?? "",
          water_every_days: product.care_water_every_days === null ? "" : String(product.care_water_every_days),
          pet_safe: product.care_pet_safe ?? "",
          difficulty: product.care_difficulty ?? "",
          place: product.care_place ?? "",
          height_cm: product.care_height_cm === null ? "" : String(product.care_height_cm),
          flowering: product.care_flowering ?? "",
        };
        rows.push(CATALOG_CSV_COLUMNS.map((column) => row[column]));
      }
    }
    yield rows;
    after = products.at(-1)!.id;
    if (products.length < EXPORT_PAGE) return;
  }
}
