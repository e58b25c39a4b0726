import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createProduct } from "../support/factories.ts";
import { checkoutInput, createShopper } from "../support/shoppers.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

let app: TestApp;
let url: string;
const aborts: AbortController[] = [];

beforeEach(async () => {
  app = await createTestApp();
  url = await app.listen();
});
afterEach(async () => {
  for (const abort of aborts.splice(0)) abort.abort();
  await app.cleanup();
});

/** Opens a product's event stream over real HTTP; `next()` answers the stream's text up to the next blank line. */
async function openEvents(productId: string) {
  const abort = new AbortController();
  aborts.push(abort);
  const response = await fetch(`${url}/api/products/${productId}/events`, { signal: abort.signal });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  return {
    response,
    abort: () => abort.abort(),
    /** The next message (an event or a comment), or null when the server ended the stream. */
    async next(): Promise<string | null> {
      for (;;) {
        const end = buffered.indexOf("\n\n");
        if (end >= 0) {
          const message = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          return message;
        }
        const { value, done } = await reader.read();
        if (done) return null;
        buffered += value;
      }
    },
  };
}

async function eventually(check: () => void, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

describe("GET /api/products/:productId/events", () => {
  it("streams uncached Server-Sent Events and sends when it last changed, then a change event when an order takes the product's stock", async () => {
    const plant = await createProduct(app.database.db, { stock: 5 });
    const other = await createProduct(app.database.db, { stock: 5 });
    const events = await openEvents(plant.id);
    expect(events.response.status).toBe(200);
    expect(events.response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(events.response.headers.get("cache-control")).toBe("no-store");
    expect(events.response.headers.get("x-accel-buffering")).toBe("no");
    expect(events.response.headers.get("content-encoding")).toBeNull();
    const { updatedAt } = await app.services.catalog.getProduct({ productId: plant.id });
    expect(await events.next()).toBe(`event: ready\ndata: {"updatedAt":"${updatedAt}"}`);

    // An order of another plant first: this stream hears nothing of it.
    const shopper = await createShopper(app.database.db, app.database.dialect);
    await app.services.cart.addToCart(shopper, { productId: other.id, quantity: 1 });
    await app.services.orders.placeOrder(shopper, checkoutInput());
    await app.services.cart.addToCart(shopper, { productId: plant.id, quantity: 2 });
    await app.services.orders.placeOrder(shopper, checkoutInput());

    expect(await events.next()).toBe(`event: change\ndata: {"aspects":["stock"]}`);
  });

  it("hears a change committed after its version read and before its stream opened: the change follows the ready event", async () => {
    const plant = await createProduct(app.database.db, { stock: 5 });
    const shopper = await createShopper(app.database.db, app.database.dialect);
    const catalog = app.services.catalog;
    const readVersion = catalog.getProductVersion;
    // Holds the window open: the route has read the version when an order takes stock, and its notice reaches
    // this process (an order placed here is announced locally once committed) before the stream starts.
    catalog.getProductVersion = async (input) => {
      const version = await readVersion(input);
      await app.services.cart.addToCart(shopper, { productId: plant.id, quantity: 1 });
      await app.services.orders.placeOrder(shopper, checkoutInput());
      return version;
    };
    const { updatedAt } = await readVersion({ productId: plant.id });
    const events = await openEvents(plant.id);
    expect(await events.next()).toBe(`event: ready\ndata: {"updatedAt":"${updatedAt}"}`);
    expect(await events.next()).toBe(`event: change\ndata: {"aspects":["stock"]}`);
  });

  it("answers 404 JSON for a product that does not exist, and for an id that cannot be one", async () => {
    for (const id of [randomUUID(), "not-a-product"]) {
      const response = await fetch(`${url}/api/products/${id}/events`);
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      expect((await response.json()).message).toBeTruthy();
    }
    expect(app.services.productEvents.size).toBe(0);
  });

  it("forgets a connection as soon as its client goes", async () => {
    const plant = await createProduct(app.database.db);
    const first = await openEvents(plant.id);
    const second = await openEvents(plant.id);
    await first.next();
    await second.next();
    expect(app.services.productEvents.size).toBe(2);
    first.abort();
    await eventually(() => expect(app.services.productEvents.size).toBe(1));
    second.abort();
    await eventually(() => expect(app.services.productEvents.size).toBe(0));
  });

  it("ends every stream when the server shuts down, so that they do not hold the shutdown up", async () => {
    const plant = await createProduct(app.database.db);
    const events = await openEvents(plant.id);
    await events.next();
    app.services.productEvents.close();
    expect(await events.next()).toBeNull();
    // A page that reconnects during the shutdown is ended at once too.
    const late = await openEvents(plant.id);
    expect(await late.next()).toBeNull();
  });
});
