import { Hono } from "hono";
import type { AppEnv } from "./app-env.ts";
import { jsonBodies } from "./platform/http/request-guards.ts";
import { adminApi, adminOrdersApi, cartApi, ordersApi } from "./modules/orders/index.ts";
import { authApi, meApi, profilePictureApi, profilesApi } from "./modules/accounts/index.ts";
import { categoriesApi, productsApi } from "./modules/catalog/index.ts";
import { adminMessagesApi, contactApi } from "./modules/contact/index.ts";
import { adminOverviewApi } from "./modules/overview/index.ts";
import { buildOpenApiDocument } from "./openapi.ts";

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
      .route("/admin/messages", adminMessagesApi)
      .route("/admin/overview", adminOverviewApi)
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
