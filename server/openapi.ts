import { z } from "zod";
import {
  categoryIdParamSchema,
  categoryListPageQuerySchema,
  productIdParamSchema,
  productListQuerySchema,
  suggestionQuerySchema,
} from "#common/catalog/catalog-schemas.ts";
import { profileSchema } from "#common/accounts/account-schemas.ts";
import { addToCartSchema, checkoutSchema, setQuantitySchema } from "#common/cart/cart-schemas.ts";
import { contactMessageSchema } from "#common/contact/contact-schemas.ts";

type JsonSchema = Record<string, unknown>;

const inputSchema = (schema: z.ZodType): JsonSchema => z.toJSONSchema(schema, { io: "input", target: "draft-2020-12" });

/** Query or path parameters, one per property of the shared schema. */
function parameters(schema: z.ZodObject, where: "query" | "path") {
  const json = inputSchema(schema) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === "path" || (json.required ?? []).includes(name),
    schema: property,
  }));
}

const problem = { $ref: "#/components/schemas/Problem" };
const errors = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((status) => [
      String(status),
      { description: ERROR_DESCRIPTIONS[status] ?? "Error", content: { "application/json": { schema: problem } } },
    ]),
  );
const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "Invalid input; fieldErrors names each field",
  401: "Not logged in",
  403: "Sent from another site",
  404: "Not found",
  409: "Conflicts with the current state (e.g. not enough stock)",
  413: "Body too large",
  415: "Body is not JSON",
  429: "Too many requests; see Retry-After",
};
const json = (schemaRef: string, description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: `#/components/schemas/${schemaRef}` } } },
});

const image = {
  type: "object",
  required: ["url", "width", "height", "alt"],
  properties: { url: { type: "string" }, width: { type: "integer" }, height: { type: "integer" }, alt: { type: "string" } },
};
const productFields = {
  id: { type: "string" },
  name: { type: "string" },
  description: { type: "string" },
  pricePaise: { type: "integer", description: "Price in paise (1 rupee = 100 paise)" },
  stock: { type: "integer", minimum: 0 },
  categoryId: { type: "string" },
  createdAt: { type: "string", format: "date-time" },
};

const pathParameter = (name: string) => ({ name, in: "path", required: true, schema: { type: "string" } });
const userIdParameter = pathParameter("userId");

/** The OpenAPI 3.1 description of the JSON API; inputs are generated from the schemas the handlers use. */
export function buildOpenApiDocument(serverUrl: string) {
  return {
    openapi: "3.1.0",
    info: { title: "Plant Shop API", version: "1.0.0", description: "Catalogue, contact, accounts and profiles of Plant Shop. Errors are JSON { message, fieldErrors? }." },
    servers: [{ url: `${serverUrl}/api` }],
    paths: {
      "/products": {
        get: {
          summary: "List products, oldest first, optionally searched by name or filtered by category",
          parameters: parameters(productListQuerySchema, "query"),
          responses: { 200: json("ProductPage", "A page of products"), ...errors(400) },
        },
      },
      "/products/suggestions": {
        get: {
          summary: "Up to 8 products whose name, description or category matches what is typed (typos forgiven), best first",
          parameters: parameters(suggestionQuerySchema, "query"),
          responses: { 200: json("SuggestionList", "The suggestions"), ...errors(400, 429) },
        },
      },
      "/products/{productId}": {
        get: {
          summary: "One product with its images and category",
          parameters: parameters(productIdParamSchema, "path"),
          responses: { 200: json("ProductDetail", "The product"), ...errors(400, 404) },
        },
      },
      "/categories": {
        get: {
          summary: "All categories",
          responses: { 200: json("CategoryList", "The categories") },
        },
      },
      "/categories/{categoryId}": {
        get: {
          summary: "One category with pages 1..page of its products, 12 to a page",
          parameters: [...parameters(categoryIdParamSchema, "path"), ...parameters(categoryListPageQuerySchema, "query")],
          responses: { 200: json("CategoryWithProducts", "The category"), ...errors(400, 404) },
        },
      },
      "/me": {
        get: {
          summary: "The signed-in person",
          responses: { 200: json("SessionUser", "Signed in"), ...errors(401) },
        },
      },
      "/profiles/{userId}": {
        get: {
          summary: "A profile: the public part, or everything for its owner",
          parameters: [userIdParameter],
          responses: { 200: json("Profile", "The profile"), ...errors(404) },
        },
        patch: {
          summary: "Update one's own profile (anyone else gets 404)",
          parameters: [userIdParameter],
          requestBody: { required: true, content: { "application/json": { schema: inputSchema(profileSchema) } } },
          responses: { 200: json("Profile", "Saved"), ...errors(400, 403, 404, 409, 415) },
        },
      },
      "/profiles/{userId}/picture": {
        post: {
          summary: "Replace one's own profile picture (png, jpg, jpeg, svg, gif, webp, bmp, tiff or ico; at most 10 MB)",
          parameters: [userIdParameter],
          requestBody: {
            required: true,
            content: { "multipart/form-data": { schema: { type: "object", properties: { image: { type: "string", format: "binary" } } } } },
          },
          responses: { 200: json("Profile", "Saved"), ...errors(400, 403, 404, 413) },
        },
      },
      "/admin/contact-messages": {
        get: {
          summary: "The Contact Us inbox, newest first (admins only)",
          responses: { 200: { description: "Messages" }, ...errors(401, 403) },
        },
      },
      "/cart": {
        get: { summary: "The signed-in shopper's cart with current prices and totals", responses: { 200: { description: "The cart" }, ...errors(401) } },
      },
      "/cart/items": {
        post: {
          summary: "Add a product (quantity 1 by default; never beyond the stock)",
          requestBody: { required: true, content: { "application/json": { schema: inputSchema(addToCartSchema) } } },
          responses: { 201: { description: "The cart" }, ...errors(400, 401, 404, 409, 415) },
        },
      },
      "/cart/items/{itemId}": {
        patch: {
          summary: "Set a line's quantity; 0 or less removes it",
          parameters: [pathParameter("itemId")],
          requestBody: { required: true, content: { "application/json": { schema: inputSchema(setQuantitySchema) } } },
          responses: { 200: { description: "The cart" }, ...errors(400, 401, 404, 409, 415) },
        },
        delete: { summary: "Remove a line", parameters: [pathParameter("itemId")], responses: { 200: { description: "The cart" }, ...errors(401, 404) } },
      },
      "/orders": {
        get: { summary: "The signed-in shopper's orders, newest first", responses: { 200: { description: "Orders" }, ...errors(401) } },
        post: {
          summary: "Place an order from the cart (Cash on Delivery); the same idempotencyKey never makes a second order",
          requestBody: { required: true, content: { "application/json": { schema: inputSchema(checkoutSchema) } } },
          responses: { 201: { description: "The order" }, ...errors(400, 401, 403, 409, 415) },
        },
      },
      "/orders/{orderId}": {
        get: { summary: "One of one's orders (404 for anybody else's)", parameters: [pathParameter("orderId")], responses: { 200: { description: "The order" }, ...errors(401, 404) } },
      },
      "/orders/{orderId}/cancel": {
        post: { summary: "Cancel one's own pending order; its stock returns (404 for anybody else's, admins too: they use PATCH /admin/orders/{orderId})", parameters: [pathParameter("orderId")], responses: { 200: { description: "The order" }, ...errors(401, 404, 409) } },
      },
      "/admin/orders": {
        get: {
          summary: "All orders, newest first, 20 a page (admins only)",
          parameters: [
            { name: "status", in: "query", required: false, schema: { enum: ["pending", "processing", "shipped", "delivered", "cancelled"] } },
            { name: "page", in: "query", required: false, schema: { type: "integer", minimum: 1 } },
          ],
          responses: { 200: { description: "A page of orders" }, ...errors(401, 403) },
        },
      },
      "/admin/orders/{orderId}": {
        get: { summary: "Any order (admins only)", parameters: [pathParameter("orderId")], responses: { 200: { description: "The order" }, ...errors(401, 403, 404) } },
        patch: {
          summary: "Move an order: pending → processing → shipped → delivered, or cancelled from pending or processing",
          parameters: [pathParameter("orderId")],
          requestBody: { required: true, content: { "application/json": { schema: { type: "object", required: ["status"], properties: { status: { enum: ["processing", "shipped", "delivered", "cancelled"] } } } } } },
          responses: { 200: { description: "The order" }, ...errors(400, 401, 403, 404, 409) },
        },
      },
      "/auth/{endpoint}": {
        post: {
          summary:
            "Better Auth's endpoints: sign-up/email, sign-in/email, sign-out, get-session, verify-email, send-verification-email, request-password-reset, reset-password, change-password and the session list; the others answer 404",
          parameters: [{ name: "endpoint", in: "path", required: true, schema: { type: "string" } }],
          responses: { 200: { description: "Done" }, ...errors(400, 401, 403, 415, 429) },
        },
      },
      "/contact": {
        post: {
          summary: "Send a Contact Us message to the shop",
          requestBody: { required: true, content: { "application/json": { schema: inputSchema(contactMessageSchema) } } },
          responses: {
            201: {
              description: "Stored",
              content: {
                "application/json": { schema: { type: "object", required: ["id"], properties: { id: { type: "string" } } } },
              },
            },
            ...errors(400, 403, 413, 415, 429),
          },
        },
      },
    },
    components: {
      schemas: {
        Problem: {
          type: "object",
          required: ["message"],
          properties: {
            message: { type: "string", description: "What went wrong, for a person to read" },
            fieldErrors: { type: "object", additionalProperties: { type: "string" } },
          },
        },
        Image: image,
        SessionUser: {
          type: "object",
          required: ["id", "name", "email", "username", "image", "emailVerified", "isAdmin"],
          properties: {
            id: { type: "string" },
            name: { type: "string" },
            email: { type: "string" },
            username: { type: "string" },
            image: { type: ["string", "null"] },
            emailVerified: { type: "boolean" },
            isAdmin: { type: "boolean" },
          },
        },
        Profile: {
          type: "object",
          required: ["id", "name", "username", "location", "avatarUrl", "isOwner"],
          properties: {
            id: { type: "string" },
            name: { type: "string" },
            username: { type: "string" },
            location: { type: "string" },
            avatarUrl: { type: "string" },
            isOwner: { type: "boolean" },
            email: { type: "string", description: "Owner only" },
            phone: { type: "string", description: "Owner only" },
            address: { type: "string", description: "Owner only" },
          },
        },
        ProductSummary: {
          type: "object",
          required: [...Object.keys(productFields), "image"],
          properties: { ...productFields, image: { oneOf: [{ $ref: "#/components/schemas/Image" }, { type: "null" }] } },
        },
        ProductDetail: {
          type: "object",
          required: [...Object.keys(productFields), "images", "category", "updatedAt"],
          properties: {
            ...productFields,
            images: { type: "array", items: { $ref: "#/components/schemas/Image" } },
            category: {
              type: "object",
              required: ["id", "name"],
              properties: { id: { type: "string" }, name: { type: "string" } },
            },
            updatedAt: { type: "string", format: "date-time" },
          },
        },
        ProductPage: {
          type: "object",
          required: ["items", "total", "totalCapped", "limit", "offset", "hasMore", "nextCursor"],
          properties: {
            items: { type: "array", items: { $ref: "#/components/schemas/ProductSummary" } },
            total: { type: "integer", description: "Counted up to 1000; see totalCapped" },
            totalCapped: { type: "boolean", description: "More products than total (shown as 1,000+)" },
            limit: { type: "integer" },
            offset: { type: "integer" },
            hasMore: { type: "boolean" },
            nextCursor: { type: ["string", "null"], description: "Pass as `after` for the next page by key" },
          },
        },
        SuggestionList: {
          type: "object",
          required: ["items"],
          properties: {
            items: {
              type: "array",
              items: { type: "object", required: ["id", "name"], properties: { id: { type: "string" }, name: { type: "string" } } },
            },
          },
        },
        Category: {
          type: "object",
          required: ["id", "name", "description", "image"],
          properties: {
            id: { type: "string" },
            name: { type: "string" },
            description: { type: "string" },
            image: { $ref: "#/components/schemas/Image" },
          },
        },
        CategoryList: {
          type: "object",
          required: ["items"],
          properties: { items: { type: "array", items: { $ref: "#/components/schemas/Category" } } },
        },
        CategoryWithProducts: {
          allOf: [
            { $ref: "#/components/schemas/Category" },
            {
              type: "object",
              required: ["products", "page", "hasMore"],
              properties: {
                products: { type: "array", items: { $ref: "#/components/schemas/ProductSummary" } },
                page: { type: "integer" },
                hasMore: { type: "boolean" },
              },
            },
          ],
        },
      },
    },
  };
}
