import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { liveStreamClient } from "../../server/modules/catalog/index.ts";
import { createProduct } from "../support/factories.ts";
import { insertSessions, SHOP_AUTH_SECRET } from "../support/shop-process.ts";
import { checkoutInput, createShopper } from "../support/shoppers.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

let app: TestApp;
let url: string;
/** What the streams of this file's requests count against: they come from the loopback address, signed out. */
const loopback = liveStreamClient({ accountId: null, clientIp: "127.0.0.1" });
const aborts: AbortController[] = [];


/** Opens a product's event stream over real HTTP; `next()` answers the stream's text up to the next blank line. */
async function openEvents(productId: string, headers: Record<string, string> = {}) {
  const abort = new AbortController();
  aborts.push(abort);
  const response = await fetch(`${url}/api/products/${productId}/events`, { signal: abort.signal, headers });
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
  beforeEach(async () => {
    app = await createTestApp();
    url = await app.listen();
  });
  afterEach(async () => {
    for (const abort of aborts.splice(0)) abort.abort();
    await app.cleanup();
  });

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
    expect(app.services.productEvents.heldBy(loopback)).toBe(0);
  });

  it("answers HEAD with the stream's status and headers and opens no stream (one would never be read, holding its slot)", async () => {
    const plant = await createProduct(app.database.db);
    const head = await fetch(`${url}/api/products/${plant.id}/events`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(app.services.productEvents.size).toBe(0);
    expect(app.services.productEvents.heldBy(loopback)).toBe(0);
    expect((await fetch(`${url}/api/products/${randomUUID()}/events`, { method: "HEAD" })).status).toBe(404);
  });

  it("forgets a connection as soon as its client goes, and gives its client's slot back", async () => {
    const plant = await createProduct(app.database.db);
    const first = await openEvents(plant.id);
    const second = await openEvents(plant.id);
    await first.next();
    await second.next();
    expect(app.services.productEvents.size).toBe(2);
    expect(app.services.productEvents.heldBy(loopback)).toBe(2);
    first.abort();
    await eventually(() => expect(app.services.productEvents.size).toBe(1));
    expect(app.services.productEvents.heldBy(loopback)).toBe(1);
    second.abort();
    await eventually(() => expect(app.services.productEvents.size).toBe(0));
    expect(app.services.productEvents.heldBy(loopback)).toBe(0);
  });

  it("ends every stream when the server shuts down, so that they do not hold the shutdown up", async () => {
    const plant = await createProduct(app.database.db);
    const events = await openEvents(plant.id);
    await events.next();
    app.services.productEvents.close();
    expect(await events.next()).toBeNull();
    expect(app.services.productEvents.size).toBe(0);
    expect(app.services.productEvents.heldBy(loopback)).toBe(0);
    // A page that reconnects during the shutdown is ended at once too.
    const late = await openEvents(plant.id);
    expect(await late.next()).toBeNull();
  });
});

/** A stream refused for a cap: JSON with a message and Retry-After, never a stream. */
async function expectRefused(response: Response, status: 429 | 503) {
  expect(response.status).toBe(status);
  expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  expect((await response.json()).message).toMatch(/live pages/);
}

describe("GET /api/products/:productId/events within its caps", () => {
  let capped: TestApp;
  let cappedUrl: string;
  const from = (address: string, more: Record<string, string> = {}) => ({ "X-Forwarded-For": address, ...more });

  /** An app behind one proxy (addresses from X-Forwarded-For) with small caps, so the tests need open few streams. */
  async function startCapped(env: Record<string, string>) {
    capped = await createTestApp({ TRUST_PROXY: "1", AUTH_SECRET: SHOP_AUTH_SECRET, ...env });
    cappedUrl = await capped.listen();
  }
  afterEach(async () => {
    for (const abort of aborts.splice(0)) abort.abort();
    await capped.cleanup();
  });

  /** openEvents against the capped app. */
  async function open(productId: string, headers: Record<string, string>) {
    const abort = new AbortController();
    aborts.push(abort);
    const response = await fetch(`${cappedUrl}/api/products/${productId}/events`, { signal: abort.signal, headers });
    return { response, abort: () => abort.abort() };
  }

  it("refuses an address's stream beyond its cap with 429, Retry-After and a message; one of its streams closing lets the next in", async () => {
    await startCapped({ LIVE_STREAMS_PER_CLIENT: "3" });
    const plant = await createProduct(capped.database.db);
    const held = [];
    for (let i = 0; i < 3; i++) {
      const stream = await open(plant.id, from("203.0.113.7"));
      expect(stream.response.status).toBe(200);
      held.push(stream);
    }
    await expectRefused((await open(plant.id, from("203.0.113.7"))).response, 429);
    // Another product does not get around it: the cap is the client's, over every product.
    const other = await createProduct(capped.database.db);
    await expectRefused((await open(other.id, from("203.0.113.7"))).response, 429);
    expect(capped.services.productEvents.heldBy(liveStreamClient({ accountId: null, clientIp: "203.0.113.7" }))).toBe(3);

    held[0]!.abort();
    await eventually(() => expect(capped.services.productEvents.heldBy(liveStreamClient({ accountId: null, clientIp: "203.0.113.7" }))).toBe(2));
    expect((await open(plant.id, from("203.0.113.7"))).response.status).toBe(200);
  });

  it("while one address holds its cap, another address still gets streams and /healthz and the product answer it", async () => {
    await startCapped({ LIVE_STREAMS_PER_CLIENT: "2" });
    const plant = await createProduct(capped.database.db);
    for (let i = 0; i < 2; i++) expect((await open(plant.id, from("203.0.113.7"))).response.status).toBe(200);
    await expectRefused((await open(plant.id, from("203.0.113.7"))).response, 429);

    expect((await open(plant.id, from("198.51.100.20"))).response.status).toBe(200);
    const health = await fetch(`${cappedUrl}/healthz`, { headers: from("198.51.100.20") });
    expect(health.status).toBe(200);
    expect((await fetch(`${cappedUrl}/api/products/${plant.id}`, { headers: from("203.0.113.7") })).status).toBe(200);
  });

  it("counts a signed-in shopper's streams against the account, not the address it shares with others", async () => {
    await startCapped({ LIVE_STREAMS_PER_CLIENT: "2" });
    const plant = await createProduct(capped.database.db);
    const shopper = await createShopper(capped.database.db, capped.database.dialect);
    const [cookie] = await insertSessions(capped.database.db, [shopper.id]);
    for (let i = 0; i < 2; i++) expect((await open(plant.id, from("203.0.113.7"))).response.status).toBe(200);
    await expectRefused((await open(plant.id, from("203.0.113.7"))).response, 429);

    // The same address, signed in: the account has streams of its own, up to the same cap, from any address.
    expect((await open(plant.id, from("203.0.113.7", { Cookie: cookie! }))).response.status).toBe(200);
    expect((await open(plant.id, from("192.0.2.99", { Cookie: cookie! }))).response.status).toBe(200);
    await expectRefused((await open(plant.id, from("192.0.2.100", { Cookie: cookie! }))).response, 429);
    expect(capped.services.productEvents.heldBy(liveStreamClient({ accountId: shopper.id, clientIp: null }))).toBe(2);
  });

  it("refuses any stream past the server's cap with 503, Retry-After and a message, /healthz still answering; a closed stream makes room", async () => {
    await startCapped({ LIVE_STREAMS_MAX: "3" });
    expect(capped.services.productEvents.limits.total).toBe(3);
    const plant = await createProduct(capped.database.db);
    const held = [];
    for (const address of ["203.0.113.1", "203.0.113.2", "203.0.113.3"]) {
      const stream = await open(plant.id, from(address));
      expect(stream.response.status).toBe(200);
      held.push(stream);
    }
    await expectRefused((await open(plant.id, from("203.0.113.4"))).response, 503);
    expect((await fetch(`${cappedUrl}/healthz`, { headers: from("203.0.113.4") })).status).toBe(200);

    held[1]!.abort();
    await eventually(() => expect(capped.services.productEvents.size).toBe(2));
    expect((await open(plant.id, from("203.0.113.4"))).response.status).toBe(200);
  });

  it("gives the slot back when the client goes while its stream is still being set up (the product's version being read)", async () => {
    await startCapped({ LIVE_STREAMS_PER_CLIENT: "1" });
    const plant = await createProduct(capped.database.db);
    const catalog = capped.services.catalog;
    const readVersion = catalog.getProductVersion;
    let reached!: () => void;
    const reading = new Promise<void>((resolve) => (reached = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    catalog.getProductVersion = async (input) => {
      reached();
      await released;
      return readVersion(input);
    };
    const abort = new AbortController();
    const pending = fetch(`${cappedUrl}/api/products/${plant.id}/events`, { signal: abort.signal, headers: from("203.0.113.7") }).catch(() => "aborted");
    await reading;
    const client = liveStreamClient({ accountId: null, clientIp: "203.0.113.7" });
    expect(capped.services.productEvents.heldBy(client)).toBe(1);
    abort.abort();
    expect(await pending).toBe("aborted");
    catalog.getProductVersion = readVersion;
    release();
    await eventually(() => expect(capped.services.productEvents.heldBy(client)).toBe(0));
    expect(capped.services.productEvents.size).toBe(0);
    expect((await open(plant.id, from("203.0.113.7"))).response.status).toBe(200);
  });

  it("gives the slot back when setting a stream up fails (the database erring): the client gets a 500 and holds nothing", async () => {
    await startCapped({ LIVE_STREAMS_PER_CLIENT: "1" });
    const plant = await createProduct(capped.database.db);
    const catalog = capped.services.catalog;
    const readVersion = catalog.getProductVersion;
    catalog.getProductVersion = async () => {
      throw new Error("connection lost");
    };
    const client = liveStreamClient({ accountId: null, clientIp: "203.0.113.7" });
    const failed = await open(plant.id, from("203.0.113.7"));
    expect(failed.response.status).toBe(500);
    expect(capped.services.productEvents.heldBy(client)).toBe(0);
    catalog.getProductVersion = readVersion;
    expect((await open(plant.id, from("203.0.113.7"))).response.status).toBe(200);
  });

  it("gives every slot back when the server ends its streams (shutdown), and a 404 for a missing product holds none", async () => {
    await startCapped({ LIVE_STREAMS_PER_CLIENT: "1" });
    const client = liveStreamClient({ accountId: null, clientIp: "203.0.113.7" });
    expect((await open(randomUUID(), from("203.0.113.7"))).response.status).toBe(404);
    expect(capped.services.productEvents.heldBy(client)).toBe(0);
    const plant = await createProduct(capped.database.db);
    expect((await open(plant.id, from("203.0.113.7"))).response.status).toBe(200);
    expect(capped.services.productEvents.heldBy(client)).toBe(1);
    capped.services.productEvents.close();
    expect(capped.services.productEvents.heldBy(client)).toBe(0);
    expect(capped.services.productEvents.size).toBe(0);
  });
});
