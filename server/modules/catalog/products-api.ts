import { Hono } from "hono";
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
import { currentUser } from "../../platform/http/request-context.ts";
import type { PlatformEnv } from "../../platform/http/http-env.ts";
import type { CatalogService } from "./catalog.ts";
import { liveStreamClient, type LiveStreamRefusal, type ProductEvents } from "./product-events.ts";

/**
 * The answer to a stream refused for its cap (decision 033): JSON, as every refusal, with a Retry-After. Its
 * own client's cap frees only when that client closes pages; the server's as anyone's do, so sooner.
 */
const STREAM_REFUSALS = {
  client: { status: 429, retryAfterSeconds: 60, message: "Too many live pages are open from here. Close some, or reload this page to see its stock." },
  server: { status: 503, retryAfterSeconds: 30, message: "The shop has too many live pages open. Reload this page to see its stock." },
} as const satisfies Record<LiveStreamRefusal["refused"], { status: number; retryAfterSeconds: number; message: string }>;

const encoder = new TextEncoder();
/** An event stream's headers: never stored by the browser or a proxy, never buffered by nginx. */
const STREAM_HEADERS = { "Content-Type": "text/event-stream", "Cache-Control": "no-store", "X-Accel-Buffering": "no" };

export const productsApi = (catalog: CatalogService, productEvents: ProductEvents) => new Hono<PlatformEnv>()
  .get(
    "/",
    describeRoute({
      summary: "List products, oldest first (by key: pass nextCursor as `after`), optionally searched (q, ranked, typos forgiven) or filtered by category",
      description:
        "Page with `after` (the nextCursor of the page before): it costs the same at any depth. `offset` is served up to " +
        "1,000 only (beyond, a 400 pointing to `after`): an offset costs the rows it skips, and no list counts or search " +
        "ranks past 1,000 anyway. A search pages by offset within its ranked matches and has no nextCursor.",
      parameters: parameters(productListQuerySchema, "query"),
      responses: { 200: json(productPageSchema, "A page of products"), ...problems(400, 429), ...notModified },
    }),
    // The repeatable filters come as lists (light=low&light=medium), the rest as single values.
    async (c) => c.json(await catalog.listProducts({ ...c.req.query(), light: c.req.queries("light"), care: c.req.queries("care") }, { clientIp: clientIp(c) })),
  )
  .get(
    "/suggestions",
    describeRoute({
      summary: "Up to 8 products whose name, description or category matches what is typed (typos forgiven), best first",
      parameters: parameters(suggestionQuerySchema, "query"),
      responses: { 200: json(productSuggestionsSchema, "The suggestions"), ...problems(400, 429), ...notModified },
    }),
    async (c) => c.json(await catalog.suggestProducts(c.req.query(), { clientIp: clientIp(c) })),
  )
  .get(
    "/:productId",
    describeRoute({
      summary: "One product with its images and category",
      parameters: parameters(productIdParamSchema, "path"),
      responses: { 200: json(productDetailSchema, "The product"), ...problems(400, 404), ...notModified },
    }),
    async (c) => c.json(await catalog.getProduct(c.req.param())),
  )
  /**
   * A product's changes as Server-Sent Events (decision 019): first `event: ready` with the product's updatedAt,
   * then `event: change` with the aspects that changed, and a comment every ~25 s while idle. Open to everyone,
   * as the product page is; a missing product is a 404. Each client (a signed-in account, else an address) may
   * hold a few dozen at once and the process a share of its open files: past either, 429 or 503 with Retry-After.
   */
  .get(
    "/:productId/events",
    describeRoute({
      summary: "The product's changes as Server-Sent Events, for live product pages",
      description:
        "A stream that stays open: first `event: ready` with `{ updatedAt }`, then `event: change` with `{ aspects }` " +
        "(stock, details, images, reviews, deleted, or resync: re-read everything) each time the product changes, and a " +
        "comment line about every 25 seconds while idle. Events carry no values: the page re-reads the product. " +
        "A client (a signed-in account, else an address) may hold LIVE_STREAMS_PER_CLIENT (32) streams at once: more " +
        "are refused with 429; past the server's own bound, 503. Both carry Retry-After.",
      parameters: parameters(productIdParamSchema, "path"),
      responses: {
        200: { description: "The event stream", content: { "text/event-stream": { schema: { type: "string" } } } },
        ...problems(400, 404, 429, 503),
      },
    }),
    async (c) => {
      // HEAD (which Hono answers with this GET route) gets the stream's status and headers only: a stream opened
      // for it would never be read nor cancelled, and held its slot until the server stopped.
      if (c.req.method === "HEAD") {
        await catalog.getProductVersion(c.req.param());
        return c.body(null, 200, STREAM_HEADERS);
      }
      const client = liveStreamClient({ accountId: (await currentUser(c))?.id ?? null, clientIp: clientIp(c) });
      // Subscribed before the version is read: a change committed after the read is then heard, whenever its
      // notice arrives, and sent after `ready`; one committed before it shows in the version itself.
      const changes = productEvents.listen(c.req.param("productId"), client);
      if (changes.refused) {
        const refusal = STREAM_REFUSALS[changes.refused];
        c.header("Retry-After", String(refusal.retryAfterSeconds));
        c.header("Cache-Control", "no-store");
        return c.json({ message: refusal.message }, refusal.status);
      }
      let version: { updatedAt: string };
      try {
        version = await catalog.getProductVersion(c.req.param());
      } catch (error) {
        changes.stop(); // a 400 or 404 answered without a stream
        throw error;
      }
      // One plain byte stream per connection. Hono's streamSSE adds a TransformStream, its writer and reader and a
      // second reader on top of it for every connection, which idle streams hold for as long as they are open.
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          const finish = () => {
            changes.stop(); // however it ended, its slot is given back (at most once)
            try {
              controller.close();
            } catch {
              // already closed or cancelled
            }
          };
          if (changes.ended) return finish();
          const send = (text: string) => {
            try {
              controller.enqueue(encoder.encode(text));
            } catch {
              // the client went: cancel() below releases the stream
            }
          };
          // Sent at once: the page learns whether what it shows is older than the product now (a change between
          // its render and this subscription), and proxies pass the headers on.
          send(`event: ready\ndata: ${JSON.stringify({ updatedAt: version.updatedAt })}\n\n`);
          changes.deliverTo({
            changed: (aspects) => send(`event: change\ndata: ${JSON.stringify({ aspects })}\n\n`),
            heartbeat: () => send(": keep-alive\n\n"),
            end: finish, // the server is shutting down
          });
        },
        // The client went (Node cancels the body when the connection closes).
        cancel() {
          changes.stop();
        },
      });
      return c.body(body, 200, STREAM_HEADERS);
    },
  );
