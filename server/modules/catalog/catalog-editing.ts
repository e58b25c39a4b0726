import type { ImportView } from "#common/admin/catalog-csv.ts";
import type { AdminCategoryRow, AdminProductRow, ProductForEdit } from "#common/admin/admin-schemas.ts";
import { requireAdmin, type SessionUser } from "../../platform/session-user.ts";
import { catalogEditingContext, type CatalogEditingDependencies } from "./catalog-editing-context.ts";
import { categoryNames, listCategories, listProducts } from "./admin-lists.ts";
import { deleteCategory, renameCategory, setCategoryImage } from "./category-editing.ts";
import { deleteProduct } from "./product-deletion.ts";
import { createProduct, getProductForEdit, updateProduct } from "./product-form.ts";
import { exportCatalog } from "./catalog-csv-export.ts";
import { getImport, previewImport, startImport } from "./catalog-csv-import.ts";
import { setStock, setVariantStock } from "./stock-in-place.ts";

export type { CatalogEditingDependencies, CatalogImages, UploadedImage } from "./catalog-editing-context.ts";
export { ADMIN_PAGE_SIZE } from "./admin-lists.ts";
export { capitaliseFirst } from "./product-form.ts";
export type { AdminCategoryRow, AdminProductRow, ProductForEdit };

// The owner's catalogue editing as the rest of the server sees it: each operation lives in its own file (the
// product form in product-form.ts, its pictures in editing-pictures.ts, a product's deletion in
// product-deletion.ts, the in-place stock in stock-in-place.ts, categories in category-editing.ts, the owner's
// lists in admin-lists.ts) and is bound here, once, to the dependencies it is given.

export type CatalogEditingService = ReturnType<typeof createCatalogEditingService>;

/**
 * The owner's catalogue (docs/product.md, Admin): products, their pictures and categories, every operation for admins
 * only. The admin module's API handlers and pages call it; stock and price are written through ./inventory.ts.
 */
export function createCatalogEditingService(deps: CatalogEditingDependencies) {
  const ctx = catalogEditingContext(deps);
  return {
    requireAdmin,
    createProduct: (viewer: SessionUser | null, input: unknown) => createProduct(ctx, viewer, input),
    updateProduct: (viewer: SessionUser | null, idInput: unknown, input: unknown) => updateProduct(ctx, viewer, idInput, input),
    getProductForEdit: (viewer: SessionUser | null, idInput: unknown): Promise<ProductForEdit> => getProductForEdit(ctx, viewer, idInput),
    setStock: (viewer: SessionUser | null, idInput: unknown, input: unknown): Promise<{ productId: string; stock: number }> => setStock(ctx, viewer, idInput, input),
    setVariantStock: (viewer: SessionUser | null, idInput: unknown, input: unknown): Promise<{ productId: string; variantId: string; stock: number; productStock: number }> =>
      setVariantStock(ctx, viewer, idInput, input),
    deleteProduct: (viewer: SessionUser | null, idInput: unknown): Promise<{ productId: string }> => deleteProduct(ctx, viewer, idInput),
    listProducts: (viewer: SessionUser | null, input: unknown): Promise<{ items: AdminProductRow[]; next: { afterStock: number; afterId: string } | null; q: string | undefined }> =>
      listProducts(ctx, viewer, input),
    listCategories: (viewer: SessionUser | null, input: unknown = {}): Promise<{ items: AdminCategoryRow[]; next: string | null }> => listCategories(ctx, viewer, input),
    categoryNames: (viewer: SessionUser | null): Promise<string[]> => categoryNames(ctx, viewer),
    renameCategory: (viewer: SessionUser | null, idInput: unknown, input: unknown): Promise<{ categoryId: string; name: string }> => renameCategory(ctx, viewer, idInput, input),
    setCategoryImage: (viewer: SessionUser | null, idInput: unknown, input: unknown): Promise<{ categoryId: string }> => setCategoryImage(ctx, viewer, idInput, input),
    /** The whole catalogue as CSV rows, a page at a time (docs/decisions/058). */
    exportCatalog: (viewer: SessionUser | null): AsyncGenerator<string[][]> => exportCatalog(ctx, viewer),
    /** Reads an uploaded CSV into a preview kept under a token; writes nothing of the catalogue. */
    previewImport: (viewer: SessionUser | null, file: File | null): Promise<ImportView> => previewImport(ctx, viewer, file),
    getImport: (viewer: SessionUser | null, input: unknown): Promise<ImportView> => getImport(ctx, viewer, input),
    startImport: (viewer: SessionUser | null, input: unknown): Promise<{ view: ImportView; finished: Promise<ImportView> }> => startImport(ctx, viewer, input),
    deleteCategory: (viewer: SessionUser | null, idInput: unknown): Promise<{ categoryId: string }> => deleteCategory(ctx, viewer, idInput),
  };
}
