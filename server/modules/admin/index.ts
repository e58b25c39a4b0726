// The admin module's public face: the owner's catalogue screens' API (the catalog module owns the editing itself).
// The composition root and the tests import only this.
export { adminCategoriesApi, adminProductsApi } from "./admin-catalog-api.ts";
