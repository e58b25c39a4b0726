import { Hono } from "hono";
import type { AppEnv } from "./app-env.ts";
import { jsonBodies } from "./platform/http/request-guards.ts";
import { adminApi } from "./modules/orders/admin-orders-api.ts";
import { authApi } from "./modules/accounts/auth-handler.ts";
import { adminOrdersApi, cartApi, ordersApi } from "./modules/orders/shopping-api.ts";
import { categoriesApi } from "./modules/catalog/categories-api.ts";
import { contactApi } from "./modules/contact/contact-api.ts";
import { buildOpenApiDocument } from "./openapi.ts";
import { productsApi } from "./modules/catalog/products-api.ts";
import { meApi, profilePictureApi, profilesApi } from "./modules/accounts/profiles-api.ts";

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
