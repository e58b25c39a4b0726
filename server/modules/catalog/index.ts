// The catalog module's public face: the composition root, the other modules and the tests import only this.
export { createCatalogService, type CatalogService } from "./catalog.ts";
export { categoriesApi } from "./categories-api.ts";
export { productsApi } from "./products-api.ts";
export type { ProductAspect } from "./changes.ts";
export { registerCatalogCacheRules } from "./cache-rules.ts";
export { createProductEvents, liveStreamClient, liveStreamsAllowed, type LiveStreamRefusal, type ProductEvents } from "./product-events.ts";
export { sampleCategories, sampleProducts } from "./sample-data.ts";
export { seedSampleData } from "./seed.ts";
export { seoFiles } from "./seo-files.ts";
export { listLowStockProducts, type LowStockProduct } from "./low-stock.ts";
export { createSitemapService, SITEMAP_MAX_URLS } from "./sitemaps.ts";
export { encodeCursor } from "./list-cursor.ts";
export { countFacetsWithList, readFilteredPage } from "./filtered-lists.ts";
export { foldCellCountChanges, startCellCountFolding } from "./cell-counts.ts";
export { createProductSearch, type ProductSearch } from "./search/product-search.ts";
export { watchSaleBoundaries, type SaleBoundaries } from "./sale-boundaries.ts";
export { catalogMigrations } from "./migrations/catalog-migrations.ts";
export {
  ADMIN_PAGE_SIZE,
  capitaliseFirst,
  createCatalogEditingService,
  type CatalogEditingService,
  type CatalogImages,
} from "./catalog-editing.ts";
export { catalogImagesFromMedia } from "./catalog-images.ts";
export {
  noRestockListener,
  productStockTaking,
  putBackStock,
  readStock,
  variantStockTaking,
  withStockTaken,
  type Restock,
  type RestockListener,
  type StockTaking,
} from "./inventory.ts";
export { firstVariantOf, listVariants, variantsForLines } from "./variants.ts";
export { categoryNames, countReviewChange, coverImages, linePriceAt, lockProduct, productExists, productsForLines, type LineSaleColumns } from "./product-references.ts";
export { CSV_IMPORT_PAGE_BODY } from "./page-body-limits.ts";
