import { Hono } from "hono";
import type { AppEnv } from "../http/env.ts";
import { jsonBodies } from "../http/request-guards.ts";
import { adminApi } from "./admin.ts";
import { authApi } from "./auth-handler.ts";
import { adminOrdersApi, cartApi, ordersApi } from "./shopping.ts";
import { categoriesApi } from "./categories.ts";
import { contactApi } from "./contact.ts";
import { buildOpenApiDocument } from "./openapi.ts";
import { productsApi } from "./products.ts";
import { meApi, profilePictureApi, profilesApi } from "./profiles.ts";

const JSON_BODY_LIMIT = 64 * 1024;

/** The JSON API under /api: thin handlers, every rule in the services. */
export function apiRoutes(publicOrigin: string) {
  const openApi = buildOpenApiDocument(publicOrigin);
  return (
    new Hono<AppEnv>()
      // Multipart upload first: it has its own size limit and is not JSON.
      .route("/profiles", profilePictureApi)
      .use("*", ...jsonBodies(JSON_BODY_LIMIT))
      .route("/auth", authApi)
      .route("/me", meApi)
      .route("/profiles", profilesApi)
      .route("/admin/orders", adminOrdersApi)
      .route("/admin", adminApi)
      .route("/cart", cartApi)
      .route("/orders", ordersApi)
      .route("/products", productsApi)
      .route("/categories", categoriesApi)
      .route("/contact", contactApi)
      .get("/openapi.json", (c) => c.json(openApi))
      .all("*", (c) => c.json({ message: "There is no such API endpoint." }, 404))
  );
}
