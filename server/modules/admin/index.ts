// The admin module's public face: the owner's catalogue. The composition root and the tests import only this.
export { ADMIN_PAGE_SIZE, capitaliseFirst, createAdminCatalogService, type AdminCatalogService, type CatalogImages } from "./admin-catalog.ts";
export { adminCategoriesApi, adminProductsApi } from "./admin-catalog-api.ts";
export { catalogImagesFromMedia } from "./catalog-images.ts";
