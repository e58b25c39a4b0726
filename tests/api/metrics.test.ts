import { readFileSync } from "node:fs";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { PageHandler } from "../../server/pages.ts";
import { listenForMetrics } from "../../server/platform/metrics/metrics-endpoint.ts";
import { createProduct } from "../support/factories.ts";
import { checkoutInput, createShopper } from "../support/shoppers.ts";
import { dialectUnderTest } from "../support/test-database.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

// /metrics (docs/decisions/056), scraped over HTTP from an app served as the real server serves it (front cache first).
const TOKEN = "metrics-token-of-this-test-0123456789abcdef";
const pages: PageHandler = async (c) => new Response(`<p>${c.req.path}</p>`, { headers: { "Content-Type": "text/html; charset=utf-8" } });

let app: TestApp | undefined;
const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  await app?.cleanup();
  app = undefined;
});

async function shop(env: NodeJS.ProcessEnv) {
  app = await createTestApp({ PAGE_CACHE_SECONDS: "3600", ...env }, { handler: pages });
  return { app, url: await app.listen() };
}

const scrape = (url: string, authorization?: string) => fetch(`${url}/metrics`, authorization ? { headers: { Authorization: authorization } } : {});

/** The value of the one sample of `name` whose labels include `labels`; undefined when there is none. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const found = text
    .split("\n")
    .map((line) => /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null && match[1] === name)
    .map((match) => ({ labels: Object.fromEntries([...(match[2] ?? "").matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]])), value: Number(match[3]) }))
    .filter((s) => Object.entries(labels).every(([key, value]) => s.labels[key] === value));
  expect(found.length, `${name} ${JSON.stringify(labels)}`).toBeLessThanOrEqual(1);
  return found[0]?.value;
}

async function metricsText(url: string) {
  const response = await scrape(url, `Bearer ${TOKEN}`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
}

describe("where /metrics answers", () => {
  it("answers 404 on the public port when neither METRICS_PORT nor METRICS_TOKEN is set", async () => {
    const { url } = await shop({});
    expect((await scrape(url)).status).toBe(404);
    expect((await scrape(url, `Bearer ${TOKEN}`)).status).toBe(404);
  });

  it("with METRICS_TOKEN alone, answers 401 without a token and with a wrong one, and 200 with the right one", async () => {
    const { url } = await shop({ METRICS_TOKEN: TOKEN });
    const missing = await scrape(url);
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect((await scrape(url, `Bearer ${TOKEN}x`)).status).toBe(401);
    expect((await scrape(url, `Bearer ${TOKEN.slice(0, -1)}`)).status).toBe(401);
    expect((await scrape(url, `Basic ${TOKEN}`)).status).toBe(401);
    expect(sample(await metricsText(url), "plantshop_orders_placed_total")).toBe(0);
  });

  it("with METRICS_PORT, serves the metrics on that listener and not on the public port, even with a token set", async () => {
    const { app: shopApp, url } = await shop({ METRICS_PORT: "9464", METRICS_TOKEN: TOKEN });
    const metricsServer = await listenForMetrics({ metrics: shopApp.infrastructure.metrics, token: TOKEN, host: "127.0.0.1", port: 0 });
    servers.push(metricsServer);
    const metricsUrl = `http://127.0.0.1:${(metricsServer.address() as AddressInfo).port}`;

    expect((await scrape(url, `Bearer ${TOKEN}`)).status).toBe(404);
    expect((await scrape(metricsUrl)).status).toBe(401);
    const text = await metricsText(metricsUrl);
    expect(sample(text, "plantshop_orders_placed_total")).toBe(0);
    // The process's own figures are on when the metrics are served.
    expect(sample(text, "nodejs_eventloop_lag_p99_seconds")).toBeGreaterThanOrEqual(0);
    expect(sample(text, "process_resident_memory_bytes")).toBeGreaterThan(0);
    expect((await fetch(`${metricsUrl}/`)).status).toBe(404);
  });
});

describe("what /metrics counts", () => {
  it("counts a product page as 'page' and an /api request under its route pattern with its status, the raw path never", async () => {
    const { app: shopApp, url } = await shop({ METRICS_TOKEN: TOKEN });
    const plant = await createProduct(shopApp.database.db);
    // Twice each: the second is replayed by the front cache, before Hono, and still counted.
    for (let i = 0; i < 2; i++) {
      expect((await fetch(`${url}/product/${plant.id}`)).status).toBe(200);
      expect((await fetch(`${url}/api/products/${plant.id}`)).status).toBe(200);
    }
    expect((await fetch(`${url}/api/products/no-such-plant`)).status).toBe(404);
    expect((await fetch(`${url}/api/no/such/endpoint`)).status).toBe(404);

    const text = await metricsText(url);
    expect(sample(text, "plantshop_http_requests_total", { method: "GET", route: "page", status: "200" })).toBe(2);
    expect(sample(text, "plantshop_http_requests_total", { method: "GET", route: "/api/products/:productId", status: "200" })).toBe(2);
    expect(sample(text, "plantshop_http_requests_total", { method: "GET", route: "/api/products/:productId", status: "404" })).toBe(1);
    expect(sample(text, "plantshop_http_requests_total", { method: "GET", route: "/api/*", status: "404" })).toBe(1);
    expect(sample(text, "plantshop_http_request_duration_seconds_count", { method: "GET", route: "page", status_class: "2xx" })).toBe(2);
    expect(sample(text, "plantshop_cache_requests_total", { cache: "page", outcome: "hit" })).toBe(1);
    expect(sample(text, "plantshop_cache_requests_total", { cache: "page", outcome: "miss" })).toBe(1);
    expect(sample(text, "plantshop_cache_requests_total", { cache: "json", outcome: "hit" })).toBe(1);
    expect(text).not.toContain(plant.id);
    expect(text).not.toContain("no-such-plant");
  });

  it("counts an order placed as placed and one refused for want of stock as refused, with the checkout's time for each", async () => {
    const { app: shopApp, url } = await shop({ METRICS_TOKEN: TOKEN });
    const { db } = shopApp.database;
    const plant = await createProduct(db, { stock: 1 });
    const first = await createShopper(db, shopApp.database.dialect);
    const second = await createShopper(db, shopApp.database.dialect);
    await shopApp.services.cart.addToCart(first, { productId: plant.id });
    await shopApp.services.cart.addToCart(second, { productId: plant.id });
    await shopApp.services.orders.placeOrder(first, checkoutInput());
    await expect(shopApp.services.orders.placeOrder(second, checkoutInput())).rejects.toMatchObject({ status: 409 });

    const text = await metricsText(url);
    expect(sample(text, "plantshop_orders_placed_total")).toBe(1);
    expect(sample(text, "plantshop_orders_refused_total", { reason: "stock_or_cart" })).toBe(1);
    expect(sample(text, "plantshop_checkout_duration_seconds_count", { outcome: "placed" })).toBe(1);
    expect(sample(text, "plantshop_checkout_duration_seconds_count", { outcome: "refused" })).toBe(1);
  });

  it("reports the mails waiting in the outbox and the age of the oldest queued, leaving sent mail out", async () => {
    const { app: shopApp, url } = await shop({ METRICS_TOKEN: TOKEN });
    let text = await metricsText(url);
    expect(sample(text, "plantshop_mail_outbox_pending")).toBe(0);
    expect(sample(text, "plantshop_mail_outbox_oldest_pending_age_seconds")).toBe(0);

    // Waiting for a retry an hour from now, so that the running mail worker leaves them in the outbox.
    const hour = 60 * 60 * 1000;
    const row = (id: string, status: "pending" | "sent", queuedMsAgo: number) => ({
      id,
      kind: "test",
      reference: null,
      recipient: "asha@example.com",
      subject: "Waiting",
      text_body: null,
      html_body: null,
      headers: null,
      status,
      attempts: 1,
      next_attempt_at: new Date(Date.now() + hour).toISOString(),
      claim: null,
      last_error: null,
      created_at: new Date(Date.now() - queuedMsAgo).toISOString(),
      finished_at: status === "sent" ? new Date().toISOString() : null,
    });
    await shopApp.database.db
      .insertInto("mail_outbox")
      .values([row("mail-1", "pending", 2 * hour), row("mail-2", "pending", 60_000), row("mail-3", "sent", 5 * hour)])
      .execute();

    text = await metricsText(url);
    expect(sample(text, "plantshop_mail_outbox_pending")).toBe(2);
    const age = sample(text, "plantshop_mail_outbox_oldest_pending_age_seconds") ?? 0;
    expect(age).toBeGreaterThanOrEqual(2 * 60 * 60);
    expect(age).toBeLessThan(3 * 60 * 60);
  });

  it("reports the PostgreSQL pool's connections and waiting queries on PostgreSQL (no pool on SQLite), no live stream open and the data folder's free disk", async () => {
    const { url } = await shop({ METRICS_TOKEN: TOKEN });
    const text = await metricsText(url);
    if (dialectUnderTest === "postgres") {
      expect(sample(text, "plantshop_db_pool_connections", { state: "idle" })).toBeGreaterThanOrEqual(0);
      expect(sample(text, "plantshop_db_pool_connections", { state: "in_use" })).toBeGreaterThanOrEqual(0);
      expect(sample(text, "plantshop_db_pool_waiting")).toBe(0);
    } else {
      expect(text).not.toContain("plantshop_db_pool");
    }
    expect(sample(text, "plantshop_live_streams_open")).toBe(0);
    expect(sample(text, "plantshop_data_dir_free_bytes")).toBeGreaterThan(0);
  });

  it("counts a live product page's event stream while it is open", async () => {
    const { app: shopApp, url } = await shop({ METRICS_TOKEN: TOKEN });
    const plant = await createProduct(shopApp.database.db);
    const controller = new AbortController();
    const stream = await fetch(`${url}/api/products/${plant.id}/events`, { signal: controller.signal });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(sample(await metricsText(url), "plantshop_live_streams_open")).toBe(1);
    controller.abort();
  });

  it("serves every metric the Grafana dashboard in docs/ queries (the pool's on PostgreSQL only)", async () => {
    const { url } = await shop({ METRICS_TOKEN: TOKEN });
    const dashboard = JSON.parse(readFileSync(new URL("../../docs/grafana-dashboard.json", import.meta.url), "utf8")) as {
      panels: { targets: { expr: string }[] }[];
    };
    const queried = new Set(dashboard.panels.flatMap((panel) => panel.targets.flatMap((target) => target.expr.match(/\b(?:plantshop|nodejs|process)_[a-z0-9_]+/g) ?? [])));
    expect(queried.size).toBeGreaterThan(10);
    const text = await metricsText(url);
    // Every metric is declared by its TYPE line, labelled ones before any sample: a histogram's series are its buckets.
    const served = new Set<string>();
    for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\w+)$/gm)) served.add(type === "histogram" ? `${name}_bucket` : name!);
    for (const name of queried) {
      if (name.startsWith("plantshop_db_pool") && dialectUnderTest === "sqlite") continue;
      expect(served.has(name), name).toBe(true);
    }
  });
});
