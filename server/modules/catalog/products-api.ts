import { Hono } from "hono";
import { productDetailSchema, productIdParamSchema, productListQuerySchema, productPageSchema } from "#common/catalog/catalog-schemas.ts";
import { clientIp } from "../../platform/http/client-ip.ts";
import { describeRoute, json, parameters, problems } from "../../platform/http/api-docs.ts";
import type { AppEnv } from "../../app-env.ts";

export const productsApi = new Hono<AppEnv>()
  .get(
    "/",
    describeRoute({
      summary: "List products, oldest first, optionally searched (q) or filtered by category",
      parameters: parameters(productListQuerySchema, "query"),
      responses: { 200: json(productPageSchema, "A page of products"), ...problems(400, 429) },
    }),
    async (c) => c.json(await c.var.services.catalog.listProducts(c.req.query(), { clientIp: clientIp(c) })),
  )
  .get(
    "/:productId",
    describeRoute({
      summary: "One product with its images and category",
      parameters: parameters(productIdParamSchema, "path"),
      responses: { 200: json(productDetailSchema, "The product"), ...problems(400, 404) },
    }),
    async (c) => c.json(await c.var.services.catalog.getProduct(c.req.param())),
  );
