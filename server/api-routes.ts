import { Hono, type Handler } from "hono";
import type { Infrastructure, Services } from "./create-services.ts";
import type { PlatformEnv } from "./platform/http/http-env.ts";
import { buildApiDocument } from "./platform/http/api-docs.ts";
import { jsonBodies, reachesEndpointBefore } from "./platform/http/request-guards.ts";
import { adminCategoriesApi, adminProductsApi } from "./modules/admin/index.ts";
import { adminOrdersApi, ordersApi } from "./modules/orders/index.ts";
import { cartApi, createVisitorCartCookies } from "./modules/cart/index.ts";
import { authApi, authApiPaths, meApi, profilePictureApi, profilesApi, verificationApi } from "./modules/accounts/index.ts";
import { categoriesApi, productsApi } from "./modules/catalog/index.ts";
import { adminMessagesApi, contactApi } from "./modules/contact/index.ts";
import { adminActivityApi } from "./modules/audit/index.ts";
import { adminCouponsApi } from "./modules/coupons/index.ts";
import { adminOverviewApi } from "./modules/overview/index.ts";
import { reviewsApi } from "./modules/reviews/index.ts";
import { wishlistApi } from "./modules/wishlist/index.ts";
import { uploadsApi } from "./platform/uploads/uploads-api.ts";

const JSON_BODY_LIMIT = 64 * 1024;

/** The answer to a path under /api that no route takes, whatever its method, body or content type. */
const noSuchEndpoint: Handler<PlatformEnv> = (c) => c.json({ message: "There is no such API endpoint." }, 404);

/**
 * The JSON API under /api: thin handlers, every rule in the services; each route describes itself for the document.
 * Each module's API is handed the services it calls, so no handler reaches for anything else.
 */
export function apiRoutes(services: Services, infrastructure: Pick<Infrastructure, "uploads" | "sealer">, publicOrigin: string) {
  const api = new Hono<PlatformEnv>()
    // Multipart upload first: it has its own size limit and is not JSON.
    .route("/profiles", profilePictureApi(services.profiles))
    // Resumable uploads (tus): 5 MiB chunks, streamed to disk, their size checked by tus itself.
    .route("/uploads", uploadsApi(infrastructure.uploads))
    .use("*", ...jsonBodies(JSON_BODY_LIMIT, { reachesEndpoint: reachesEndpointBefore(noSuchEndpoint) }))
    .route("/auth", authApi(services.authHandler, () => services.accounts.signInProviders().map((provider) => provider.id)))
    .route("/me", meApi)
    .route("/verification", verificationApi(services.accounts))
    .route("/profiles", profilesApi(services.profiles))
    .route("/admin/orders", adminOrdersApi(services.orders))
    .route("/admin/products", adminProductsApi(services.adminCatalog))
    .route("/admin/categories", adminCategoriesApi(services.adminCatalog))
    .route("/admin/messages", adminMessagesApi(services.contact))
    .route("/admin/overview", adminOverviewApi(services.overview))
    .route("/admin/coupons", adminCouponsApi(services.coupons))
    .route("/admin/activity", adminActivityApi(services.audit))
    .route("/cart", cartApi(services.cart, createVisitorCartCookies({ https: publicOrigin.startsWith("https:"), sealer: infrastructure.sealer })))
    .route("/orders", ordersApi(services.orders))
    .route("/wishlist", wishlistApi(services.wishlist))
    .route("/products/:productId/reviews", reviewsApi(services.reviews))
    .route("/products", productsApi(services.catalog, services.productEvents))
    .route("/categories", categoriesApi(services.catalog))
    .route("/contact", contactApi(services.contact));

  // Generated on first request from the route table above (the same objects the server mounts), then kept.
  let document: Promise<unknown> | undefined;
  return api
    .get("/openapi.json", async (c) => {
      document ??= apiDocument(api, publicOrigin);
      return c.json(await document);
    })
    .all("*", noSuchEndpoint);
}

/** The OpenAPI 3.1 document of the routes mounted in `api`. */
export function apiDocument(api: Hono<PlatformEnv>, publicOrigin: string) {
  return buildApiDocument(api, {
    serverUrl: `${publicOrigin}/api`,
    title: "Plant Shop API",
    description: "Catalogue, cart, orders, contact, accounts and profiles of Plant Shop. Errors are JSON { message, fieldErrors?, code? }.",
    extraPaths: authApiPaths,
  });
}
