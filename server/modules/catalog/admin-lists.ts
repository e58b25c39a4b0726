import { sql } from "kysely";
import { adminCategoryListSchema, adminProductListSchema, type AdminCategoryRow, type AdminProductRow } from "#common/admin/admin-schemas.ts";
import { plannedPerRun } from "../../platform/db/pg-statements.ts";
import { parseInput } from "../../platform/errors.ts";
import { requireAdmin, type SessionUser } from "../../platform/session-user.ts";
import type { CatalogEditingContext } from "./catalog-editing-context.ts";

// The owner's lists: /admin/products and /admin/categories a page at a time, and the product form's suggestions.

/** Rows of /admin/products and /admin/categories per page: small, so a page costs the same at any size of shop. */
export const ADMIN_PAGE_SIZE = 25;

type Reads = Pick<CatalogEditingContext, "db">;

/** One page of /admin/products: lowest stock first, by key (stock, id), optionally names containing `q`. */
export async function listProducts(ctx: Reads, viewer: SessionUser | null, input: unknown): Promise<{ items: AdminProductRow[]; next: { afterStock: number; afterId: string } | null; q: string | undefined }> {
  requireAdmin(viewer);
  const query = parseInput(adminProductListSchema, input);
  let rows = ctx.db
    .selectFrom("products as p")
    .innerJoin("categories as c", "c.id", "p.category_id")
    .leftJoin("product_images as img", (join) => join.onRef("img.product_id", "=", "p.id").on("img.position", "=", 0))
    .select(["p.id", "p.name", "p.price_paise", "p.stock", "p.category_id", "c.name as category_name", "img.url", "img.width", "img.height"]);
  if (query.q) {
    const pattern = `%${query.q.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    // How many names the pattern matches decides between the (stock, id) index and a scan: planned per run.
    rows = rows.where(sql<boolean>`${plannedPerRun} lower(p.name) like ${pattern} escape '\\'`);
  }
  if (query.afterStock !== undefined && query.afterId) {
    const { afterStock, afterId } = query;
    // A row-value comparison, which both databases answer as a range of the (stock, id) index; the same
    // condition spelt with OR is read from the start of the index (measured: 50 ms a page at 50,000 products).
    rows = rows.where((eb) => eb(eb.refTuple("p.stock", "p.id"), ">", eb.tuple(afterStock, afterId)));
  }
  const found = await rows.orderBy("p.stock").orderBy("p.id").limit(ADMIN_PAGE_SIZE + 1).execute();
  const page = found.slice(0, ADMIN_PAGE_SIZE);
  const last = page.at(-1);
  // The page's sizes in one read by product (the product_variants_product index): at most a page of products' worth.
  const sizes = page.length
    ? await ctx.db
        .selectFrom("product_variants")
        .select(["id", "product_id", "label", "stock"])
        .where("product_id", "in", page.map((row) => row.id))
        .orderBy("product_id")
        .orderBy("position")
        .orderBy("id")
        .execute()
    : [];
  const sizesOf = new Map<string, typeof sizes>();
  for (const size of sizes) sizesOf.set(size.product_id, [...(sizesOf.get(size.product_id) ?? []), size]);
  return {
    items: page.map((row) => ({
      id: row.id,
      name: row.name,
      categoryId: row.category_id,
      categoryName: row.category_name,
      pricePaise: row.price_paise,
      stock: row.stock,
      image: row.url ? { url: row.url, width: row.width ?? 800, height: row.height ?? 800 } : null,
      variants: (sizesOf.get(row.id) ?? []).map((size) => ({ id: size.id, label: size.label, stock: size.stock })),
    })),
    next: found.length > ADMIN_PAGE_SIZE && last ? { afterStock: last.stock, afterId: last.id } : null,
    q: query.q,
  };
}

/** One page of /admin/categories, by name ignoring case. */
export async function listCategories(ctx: Reads, viewer: SessionUser | null, input: unknown = {}): Promise<{ items: AdminCategoryRow[]; next: string | null }> {
  requireAdmin(viewer);
  const { after } = parseInput(adminCategoryListSchema, input);
  let rows = ctx.db.selectFrom("categories").select(["id", "name", "description", "image_url", "image_width", "image_height"]);
  if (after) rows = rows.where(sql<string>`lower(name)`, ">", after.toLowerCase());
  const found = await rows.orderBy(sql`lower(name)`).limit(ADMIN_PAGE_SIZE + 1).execute();
  const page = found.slice(0, ADMIN_PAGE_SIZE);
  return {
    items: page.map((row) => ({
      id: row.id,
      name: row.name,
      description: row.description,
      image: { url: row.image_url, width: row.image_width, height: row.image_height },
    })),
    next: found.length > ADMIN_PAGE_SIZE ? (page.at(-1)?.name ?? null) : null,
  };
}

/** Category names for the product form's suggestions (the few the shop has; capped). */
export async function categoryNames(ctx: Reads, viewer: SessionUser | null): Promise<string[]> {
  requireAdmin(viewer);
  const rows = await ctx.db.selectFrom("categories").select("name").orderBy(sql`lower(name)`).limit(200).execute();
  return rows.map((row) => row.name);
}
