import { Hono, type Context } from "hono";
import {
  adminCategoryListSchema,
  adminCategoryPageSchema,
  adminProductListSchema,
  adminProductPageSchema,
  categoryChangedSchema,
  categoryImageSchema,
  categoryRenamedSchema,
  categoryRenameSchema,
  deletedProductSchema,
  newProductFormSchema,
  productForEditSchema,
  productFormSchema,
  savedProductSchema,
  stockSetSchema,
  stockUpdateSchema,
  variantIdParamSchema,
  variantStockSetSchema,
} from "#common/admin/admin-schemas.ts";
import { categoryIdParamSchema, productIdParamSchema } from "#common/catalog/catalog-schemas.ts";
import type { PlatformEnv } from "../../platform/http/http-env.ts";
import type { CatalogEditingService } from "../catalog/index.ts";
import { describeRoute, json, jsonBody, parameters, problems } from "../../platform/http/api-docs.ts";
import { currentUser } from "../../platform/http/request-context.ts";
import { readJson } from "../../platform/http/read-json.ts";

/** Who is asking, refused unless an admin before anything of the request is read (401 visitor, 403 user). */
const adminCheck = (adminCatalog: CatalogEditingService) => async (c: Context<PlatformEnv>) => adminCatalog.requireAdmin(await currentUser(c));

const productParameters = parameters(productIdParamSchema, "path");
const categoryParameters = parameters(categoryIdParamSchema, "path");

/** /api/admin/products: the owner's catalogue. Every rule and the admin check are in the service. */
export function adminProductsApi(adminCatalog: CatalogEditingService) {
  const admin = adminCheck(adminCatalog);
  return new Hono<PlatformEnv>()
  .get(
    "/",
    describeRoute({
      summary: "Every product, lowest stock first, 25 a page by key; searched by name (admins)",
      parameters: parameters(adminProductListSchema, "query"),
      responses: { 200: json(adminProductPageSchema, "A page of products"), ...problems(400, 401, 403) },
    }),
    async (c) => c.json(await adminCatalog.listProducts(await admin(c), c.req.query())),
  )
  .post(
    "/",
    describeRoute({
      summary: "Add a product, and with it a new category when the name is new (admins); images are upload:<id> tokens of finished tus uploads",
      requestBody: jsonBody(newProductFormSchema),
      responses: { 201: json(savedProductSchema, "Added"), ...problems(400, 401, 403, 409, 413, 429) },
    }),
    async (c) => {
      const user = await admin(c);
      return c.json(await adminCatalog.createProduct(user, await readJson(c)), 201);
    },
  )
  .get(
    "/:productId",
    describeRoute({
      summary: "A product as its edit form shows it (admins)",
      parameters: productParameters,
      responses: { 200: json(productForEditSchema, "The product"), ...problems(400, 401, 403, 404) },
    }),
    async (c) => c.json(await adminCatalog.getProductForEdit(await admin(c), c.req.param())),
  )
  .put(
    "/:productId",
    describeRoute({
      summary: "Update a product (admins); images are image:<id> (kept) and upload:<id> (new) tokens, the first the cover",
      parameters: productParameters,
      requestBody: jsonBody(productFormSchema),
      responses: { 200: json(savedProductSchema, "Updated"), ...problems(400, 401, 403, 404, 409, 413, 429) },
    }),
    async (c) => {
      const user = await admin(c);
      return c.json(await adminCatalog.updateProduct(user, c.req.param(), await readJson(c)));
    },
  )
  .patch(
    "/:productId/stock",
    describeRoute({
      summary: "Set the stock of a product sold in one size (admins); a product with several sizes sets each size's",
      parameters: productParameters,
      requestBody: jsonBody(stockUpdateSchema),
      responses: { 200: json(stockSetSchema, "Set"), ...problems(400, 401, 403, 404, 409) },
    }),
    async (c) => {
      const user = await admin(c);
      return c.json(await adminCatalog.setStock(user, c.req.param(), await readJson(c)));
    },
  )
  .patch(
    "/:productId/variants/:variantId/stock",
    describeRoute({
      summary: "Set one size's stock (admins); the product's total follows",
      parameters: parameters(variantIdParamSchema, "path"),
      requestBody: jsonBody(stockUpdateSchema),
      responses: { 200: json(variantStockSetSchema, "Set"), ...problems(400, 401, 403, 404, 409) },
    }),
    async (c) => {
      const user = await admin(c);
      return c.json(await adminCatalog.setVariantStock(user, c.req.param(), await readJson(c)));
    },
  )
  .delete(
    "/:productId",
    describeRoute({
      summary: "Delete a product (admins): gone from the shop, carts and search; orders keep their copies",
      parameters: productParameters,
      responses: { 200: json(deletedProductSchema, "Deleted"), ...problems(400, 401, 403, 404) },
    }),
    async (c) => c.json(await adminCatalog.deleteProduct(await admin(c), c.req.param())),
  );
}

/** /api/admin/categories. */
export function adminCategoriesApi(adminCatalog: CatalogEditingService) {
  const admin = adminCheck(adminCatalog);
  return new Hono<PlatformEnv>()
  .get(
    "/",
    describeRoute({
      summary: "Categories by name, paged by key (admins)",
      parameters: parameters(adminCategoryListSchema, "query"),
      responses: { 200: json(adminCategoryPageSchema, "A page of categories"), ...problems(400, 401, 403) },
    }),
    async (c) => c.json(await adminCatalog.listCategories(await admin(c), c.req.query())),
  )
  .patch(
    "/:categoryId",
    describeRoute({
      summary: "Rename a category (admins); names are unique ignoring case",
      parameters: categoryParameters,
      requestBody: jsonBody(categoryRenameSchema),
      responses: { 200: json(categoryRenamedSchema, "Renamed"), ...problems(400, 401, 403, 404, 409) },
    }),
    async (c) => {
      const user = await admin(c);
      return c.json(await adminCatalog.renameCategory(user, c.req.param(), await readJson(c)));
    },
  )
  .put(
    "/:categoryId/image",
    describeRoute({
      summary: "Change a category's image (admins) to a finished upload",
      parameters: categoryParameters,
      requestBody: jsonBody(categoryImageSchema),
      responses: { 200: json(categoryChangedSchema, "Changed"), ...problems(400, 401, 403, 404, 413, 429) },
    }),
    async (c) => {
      const user = await admin(c);
      return c.json(await adminCatalog.setCategoryImage(user, c.req.param(), await readJson(c)));
    },
  )
  .delete(
    "/:categoryId",
    describeRoute({
      summary: "Delete a category (admins); refused while products use it",
      parameters: categoryParameters,
      responses: { 200: json(categoryChangedSchema, "Deleted"), ...problems(400, 401, 403, 404, 409) },
    }),
    async (c) => c.json(await adminCatalog.deleteCategory(await admin(c), c.req.param())),
  );
}
