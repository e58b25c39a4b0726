import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import {
  productDetailSchema,
  productIdParamSchema,
  productListQuerySchema,
  productPageSchema,
  productSuggestionsSchema,
  suggestionQuerySchema,
} from "#common/catalog/catalog-schemas.ts";
import { clientIp } from "../../platform/http/client-ip.ts";
import { describeRoute, json, notModified, parameters, problems } from "../../platform/http/api-docs.ts";
import type { AppEnv } from "../../app-env.ts";

export const productsApi = new Hono<AppEnv>()
  .get(
    "/",
    describeRoute({
      summary: "List products, oldest first (by key: pass nextCursor as `after`), optionally searched (q, ranked, typos forgiven) or filtered by category",
      parameters: parameters(productListQuerySchema, "query"),
      responses: { 200: json(productPageSchema, "A page of products"), ...problems(400, 429), ...notModified },
    }),
    async (c) => c.json(await c.get("services").catalog.listProducts(c.req.query(), { clientIp: clientIp(c) })),
  )
  .get(
    "/suggestions",
    describeRoute({
      summary: "Up to 8 products whose name, description or category matches what is typed (typos forgiven), best first",
      parameters: parameters(suggestionQuerySchema, "query"),
      responses: { 200: json(productSuggestionsSchema, "The suggestions"), ...problems(400, 429), ...notModified },
    }),
    async (c) => c.json(await c.get("services").catalog.suggestProducts(c.req.query(), { clientIp: clientIp(c) })),
  )
  .get(
    "/:productId",
    describeRoute({
      summary: "One product with its images and category",
      parameters: parameters(productIdParamSchema, "path"),
      responses: { 200: json(productDetailSchema, "The product"), ...problems(400, 404), ...notModified },
    }),
    async (c) => c.json(await c.get("services").catalog.getProduct(c.req.param())),
  )
  /**
   * A product's changes as Server-Sent Events (decision 019): first `event: ready` with the product's updatedAt,
   * then `event: change` with the aspects that changed, and a comment every ~25 s while idle. Open to everyone,
   * as the product page is; a missing product is a 404.
   */
  .get(
    "/:productId/events",
    describeRoute({
      summary: "The product's changes as Server-Sent Events, for live product pages",
      description:
        "A stream that stays open: first `event: ready` with `{ updatedAt }`, then `event: change` with `{ aspects }` " +
        "(stock, details, images, reviews, deleted, or resync: re-read everything) each time the product changes, and a " +
        "comment line about every 25 seconds while idle. Events carry no values: the page re-reads the product.",
      parameters: parameters(productIdParamSchema, "path"),
      responses: {
        200: { description: "The event stream", content: { "text/event-stream": { schema: { type: "string" } } } },
        ...problems(400, 404),
      },
    }),
    async (c) => {
      // Subscribed before the version is read: a change committed after the read is then heard, whenever its
      // notice arrives, and sent after `ready`; one committed before it shows in the version itself.
      const changes = c.get("services").productEvents.listen(c.req.param("productId"));
      let version: { updatedAt: string };
      try {
        version = await c.get("services").catalog.getProductVersion(c.req.param());
      } catch (error) {
        changes.stop(); // a 400 or 404 answered without a stream
        throw error;
      }
      const response = streamSSE(c, async (stream) => {
        // Resolves when the connection ends: the client went, or the server is shutting down (hub.close()).
        await new Promise<void>((resolve) => {
          if (changes.ended) return resolve();
          const send = (text: string) => void stream.write(text);
          stream.onAbort(() => {
            changes.stop();
            resolve();
          });
          // Sent at once: the page learns whether what it shows is older than the product now (a change between
          // its render and this subscription), and proxies pass the headers on.
          send(`event: ready\ndata: ${JSON.stringify({ updatedAt: version.updatedAt })}\n\n`);
          changes.deliverTo({
            changed: (aspects) => send(`event: change\ndata: ${JSON.stringify({ aspects })}\n\n`),
            heartbeat: () => send(": keep-alive\n\n"),
            end: resolve,
          });
        });
      });
      // Never stored by the browser or a proxy, never buffered by nginx.
      response.headers.set("Cache-Control", "no-store");
      response.headers.set("X-Accel-Buffering", "no");
      return response;
    },
  );
