import { randomInt, randomUUID } from "node:crypto";
import os from "node:os";
import { performance } from "node:perf_hooks";
import { openDatabase, type Database } from "../server/db/client.ts";
import { createProduct } from "../tests/support/factories.ts";
import { createPostgresDatabase, insertShoppers, startShopProcess, stopShopProcess, waitUntilHealthy, type ShopProcess } from "../tests/support/shop-process.ts";

// Checkout under load: one production server on a fresh PostgreSQL database, fifty signed-in shoppers who
// each, over and over, put the plant in their cart (1–3 units) and place an order. Prints orders per second
// and the latency of the order request, then checks against the database that no unit was lost or
// oversold: stock + units sold = initial stock. Nothing here asserts a speed.
const SHOPPERS = 50;
const INITIAL_STOCK = 100_000;
const PORT = 4611;
const shipping = { name: "Asha Kulkarni", phone: "+91 98765 43210", address: "12 Garden Road\nPune 411001" };

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** Writes a category, the product and the shoppers (users, password accounts, sessions) straight into the database. */
async function arrange({ db }: Database): Promise<{ productId: string; cookies: string[] }> {
  const product = await createProduct(db, { name: "Bench Monstera", price_paise: 49_900, stock: INITIAL_STOCK });
  const productId = product.id;
  const shoppers = await insertShoppers(db, SHOPPERS, { password: "monstera-deliciosa-77", prefix: "bench" });
  return { productId, cookies: shoppers.map((shopper) => shopper.cookie) };
}

interface Tally {
  orders: number;
  unitsSold: number;
  latencies: number[];
  /** Non-2xx answers and network errors, by request and status ("cart 409", "order error"…). */
  failures: Map<string, number>;
}

async function shop(url: string, productId: string, cookie: string, deadline: number, tally: Tally) {
  const post = (pathname: string, body: unknown) =>
    fetch(`${url}${pathname}`, { method: "POST", headers: { "Content-Type": "application/json", Origin: url, Cookie: cookie }, body: JSON.stringify(body) });
  const fail = (what: string) => tally.failures.set(what, (tally.failures.get(what) ?? 0) + 1);
  while (performance.now() < deadline) {
    try {
      const added = await post("/api/cart/items", { productId, quantity: randomInt(1, 4) });
      await added.body?.cancel();
      if (!added.ok) {
        fail(`cart ${added.status}`);
        continue;
      }
    } catch {
      fail("cart error");
      continue;
    }
    const started = performance.now();
    try {
      const response = await post("/api/orders", { ...shipping, idempotencyKey: `bench-${randomUUID()}` });
      const body = (await response.json()) as { lines?: { productId: string; quantity: number }[] };
      tally.latencies.push(performance.now() - started);
      if (response.status === 201) {
        tally.orders++;
        tally.unitsSold += (body.lines ?? []).filter((l) => l.productId === productId).reduce((n, l) => n + l.quantity, 0);
      } else {
        fail(`order ${response.status}`);
      }
    } catch {
      fail("order error");
    }
  }
}

/**
 * The checkout bench (run at the end of bench/run.ts). Needs PostgreSQL: BENCH_DATABASE_URL or TEST_DATABASE_URL
 * names a server on which it creates, and afterwards drops, a database of its own.
 */
export async function benchCheckout(): Promise<void> {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    console.log("\nCheckout bench skipped: it needs PostgreSQL (set BENCH_DATABASE_URL or TEST_DATABASE_URL to postgres://…).");
    return;
  }
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  const target = await createPostgresDatabase(adminUrl, "plant_shop_bench");
  let server: ShopProcess | undefined;
  let database: Database | undefined;
  try {
    server = startShopProcess({ port: PORT, databaseUrl: target.url });
    await waitUntilHealthy(server);
    database = openDatabase({ databaseUrl: target.url, poolSize: 2 });
    const { productId, cookies } = await arrange(database);

    const tally: Tally = { orders: 0, unitsSold: 0, latencies: [], failures: new Map() };
    const started = performance.now();
    const deadline = started + seconds * 1000;
    await Promise.all(cookies.map((cookie) => shop(server!.url, productId, cookie, deadline, tally)));
    const elapsed = (performance.now() - started) / 1000;

    const latencies = tally.latencies.sort((a, b) => a - b);
    const ms = [50, 95, 99].map((p) => percentile(latencies, p).toFixed(1)).join("/");
    const failures = [...tally.failures.values()].reduce((n, v) => n + v, 0);
    const failureDetail = tally.failures.size ? ` (${[...tally.failures].map(([what, n]) => `${what}: ${n}`).join(", ")})` : "";
    console.log(`\nCheckout bench: ${SHOPPERS} shoppers, ${seconds}s, one server on PostgreSQL, loopback, ${os.cpus().length} cores, Node ${process.version}`);
    console.log("orders placed   orders/s   order p50/p95/p99 ms   units sold   failures");
    console.log(
      [
        String(tally.orders).padStart(13),
        (tally.orders / elapsed).toFixed(1).padStart(10),
        ms.padStart(22),
        String(tally.unitsSold).padStart(12),
        String(failures).padStart(10),
      ].join(" ") + failureDetail,
    );

    const { db } = database;
    const { stock } = await db.selectFrom("products").select("stock").where("id", "=", productId).executeTakeFirstOrThrow();
    const stored = await db.selectFrom("order_lines").select((eb) => eb.fn.sum<number>("quantity").as("units")).where("product_id", "=", productId).executeTakeFirstOrThrow();
    const storedUnits = Number(stored.units ?? 0);
    const detail = `${stock} + ${tally.unitsSold} = ${stock + tally.unitsSold}, initial ${INITIAL_STOCK}; units on order lines in the database: ${storedUnits}`;
    if (stock + tally.unitsSold === INITIAL_STOCK && storedUnits === tally.unitsSold) {
      console.log(`invariant stock + sold = initial: OK (${detail})`);
    } else {
      console.log(`invariant stock + sold = initial: FAILED (${detail})`);
      process.exitCode = 1;
    }
  } finally {
    await database?.destroy();
    if (server) await stopShopProcess(server);
    await target.drop();
  }
}
