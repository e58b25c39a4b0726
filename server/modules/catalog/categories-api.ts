import { Hono } from "hono";
import {
  categoryIdParamSchema,
  categoryListQuerySchema,
  categoryListSchema,
  categoryPageQuerySchema,
  categoryWithProductsSchema,
} from "#common/catalog/catalog-schemas.ts";
import { describeRoute, json, notModified, parameters, problems } from "../../platform/http/api-docs.ts";
import type { PlatformEnv } from "../../platform/http/http-env.ts";
import type { CatalogService } from "./catalog.ts";

export const categoriesApi = (catalog: CatalogService) => new Hono<PlatformEnv>()
  .get(
    "/",
    describeRoute({
      summary: "A page of categories, oldest first; the next page by key (`after`)",
      parameters: parameters(categoryListQuerySchema, "query"),
      responses: { 200: json(categoryListSchema, "The categories"), ...problems(400), ...notModified },
    }),
    async (c) => c.json(await catalog.listCategories(c.req.query())),
  )
  .get(
    "/:categoryId",
    describeRoute({
      summary: "One category with one page of its products (12 a page), oldest first",
      parameters: [...parameters(categoryIdParamSchema, "path"), ...parameters(categoryPageQuerySchema.pick({ page: true }), "query")],
      responses: { 200: json(categoryWithProductsSchema, "The category"), ...problems(400, 404), ...notModified },
    }),
    async (c) => c.json(await catalog.getCategory({ page: c.req.query("page"), ...c.req.param() })),
  );
