import { randomUUID } from "node:crypto";
import http from "node:http";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { openDatabase } from "../server/platform/db/client.ts";
import { createProduct } from "../tests/support/factories.ts";
import { createPostgresDatabase, insertSessions, startShopProcess, stopShopProcess, waitUntilHealthy } from "../tests/support/shop-process.ts";
import { createShopper } from "../tests/support/shoppers.ts";
import { residentMb } from "./proc.ts";

// What idle live product pages cost (issue 9: 1,000 open subscriptions on one process under 50 MB extra).
// Starts the compiled server (`npm run build` first) on a fresh SQLite data folder, or on a fresh PostgreSQL
// database with BENCH_DATABASE_URL (an admin URL, e.g. postgres://postgres@127.0.0.1:5432/postgres), opens
// LIVE_SUBSCRIPTIONS (1,000) event streams on one product, and prints the server's resident memory before and
// after; then places one order through the API and checks that its change reached every stream.
// Nothing here asserts a number: it is printed, with the goal beside it.
//
//   npx tsx bench/live-subscriptions.ts
const SUBSCRIPTIONS = Number(process.env.LIVE_SUBSCRIPTIONS ?? 1000);
const PORT = Number(process.env.BENCH_PORT ?? 4424);
const GOAL_MB = 50;
const url = `http://127.0.0.1:${PORT}`;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** RSS once it stops moving (the server's collector and allocator settle after a burst). */
async function settledRssMb(pid: number): Promise<number> {
  let last = residentMb(pid, "VmRSS");
  for (let i = 0; i < 10; i++) {
    await pause(1000);
    const now = residentMb(pid, "VmRSS");
    if (Math.abs(now - last) < 0.5) return now;
    last = now;
  }
  return last;
}

interface Stream {
  request: http.ClientRequest;
  ready: Promise<void>;
  changed: Promise<void>;
}

/** One event stream on its own connection; `ready` once the server's first event came, `changed` at the first change. */
function openStream(productId: string): Stream {
  let onReady!: () => void;
  let onChange!: () => void;
  let onError!: (error: Error) => void;
  const ready = new Promise<void>((resolve, reject) => ((onReady = resolve), (onError = reject)));
  const changed = new Promise<void>((resolve) => (onChange = resolve));
  const request = http.get(`${url}/api/products/${productId}/events`, { agent: false }, (response) => {
    if (response.statusCode !== 200) return onError(new Error(`status ${response.statusCode}`));
    let text = "";
    response.setEncoding("utf8");
    response.on("data", (chunk: string) => {
      text += chunk;
      if (text.includes("event: ready")) onReady();
      if (text.includes("event: change")) onChange();
      if (text.length > 4096) text = text.slice(-1024);
    });
  });
  request.on("error", (error) => onError(error));
  return { request, ready, changed };
}

async function main() {
  const adminUrl = process.env.BENCH_DATABASE_URL;
  const target = adminUrl ? await createPostgresDatabase(adminUrl, "plant_shop_live_bench") : undefined;
  const shop = startShopProcess({ port: PORT, ...(target ? { databaseUrl: target.url } : {}) });
  const database = target ? openDatabase({ databaseUrl: target.url, poolSize: 2 }) : undefined;
  try {
    await waitUntilHealthy(shop);
    const db = (database ?? openDatabase({ sqliteFile: path.join(shop.dataDir, "shop.db") })).db;
    const plant = await createProduct(db, { stock: 1_000 });
    const pid = shop.child.pid!;

    // Warm up the route (code compiled, pools made) so that "before" is a running server, not a cold one.
    const warm = Array.from({ length: 20 }, () => openStream(plant.id));
    await Promise.all(warm.map((s) => s.ready));
    for (const s of warm) s.request.destroy();
    const before = await settledRssMb(pid);

    const started = performance.now();
    const streams: Stream[] = [];
    // In batches, as pages arrive: the listen backlog is not what is measured.
    for (let i = 0; i < SUBSCRIPTIONS; i += 100) {
      const batch = Array.from({ length: Math.min(100, SUBSCRIPTIONS - i) }, () => openStream(plant.id));
      streams.push(...batch);
      await Promise.all(batch.map((s) => s.ready));
    }
    const openedMs = performance.now() - started;
    const after = await settledRssMb(pid);

    // One order through the API: its change must reach every open stream.
    const shopper = await createShopper(db, target ? "postgres" : "sqlite", { name: "Bench Shopper" });
    const [cookie] = await insertSessions(db, [shopper.id]);
    const headers = { Origin: url, Cookie: cookie!, "Content-Type": "application/json" };
    const added = await fetch(`${url}/api/cart/items`, { method: "POST", headers, body: JSON.stringify({ productId: plant.id }) });
    if (added.status !== 201) throw new Error(`adding to the cart answered ${added.status}: ${await added.text()}`);
    const orderedAt = performance.now();
    const order = await fetch(`${url}/api/orders`, {
      method: "POST",
      headers,
      body: JSON.stringify({ name: "Bench Shopper", phone: "+91 98765 43210", address: "12 Garden Road\nPune 411001", idempotencyKey: randomUUID() }),
    });
    if (order.status !== 201) throw new Error(`ordering answered ${order.status}: ${await order.text()}`);
    let reached = 0;
    const deadline = pause(30_000).then(() => "timeout" as const);
    const all = Promise.all(streams.map((s) => s.changed.then(() => reached++)));
    const outcome = await Promise.race([all.then(() => "all" as const), deadline]);
    const fanOutMs = performance.now() - orderedAt;

    const extra = after - before;
    console.log(`database: ${target ? "PostgreSQL" : "SQLite"}`);
    console.log(`subscriptions open: ${streams.length} (opened in ${(openedMs / 1000).toFixed(1)} s)`);
    console.log(`server RSS before: ${before.toFixed(1)} MB, after: ${after.toFixed(1)} MB, extra: ${extra.toFixed(1)} MB (${((extra * 1024) / streams.length).toFixed(1)} KB each; goal < ${GOAL_MB} MB)`);
    console.log(`one order's change reached ${reached} of ${streams.length} streams${outcome === "all" ? "" : " (gave up after 30 s)"}, the last ${fanOutMs.toFixed(0)} ms after the order was sent`);
    for (const s of streams) s.request.destroy();
    if (outcome !== "all") process.exitCode = 1;
  } finally {
    await stopShopProcess(shop);
    await database?.destroy();
    await target?.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
