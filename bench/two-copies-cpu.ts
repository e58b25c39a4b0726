// Server CPU per request with one copy and with two behind nginx: the figure of docs/performance.md, "Two copies
// behind nginx". A machine with two cores cannot show throughput doubling with a second copy; what it can show is
// that a second copy adds no work per request (shared PostgreSQL, change feed, caches that each copy fills).
//
//   npm run build && npx tsx bench/two-copies-cpu.ts [firstPort=5662] [seconds=15]
//
// ADMIN_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) is the server on which a fresh
// database is made for the run and dropped after it. Ports used: firstPort for nginx, the next two for the copies.
import { randomUUID } from "node:crypto";
import { openDatabase } from "../server/platform/db/client.ts";
import { createCategory, createProduct } from "../tests/support/factories.ts";
import { createPostgresDatabase, insertShoppers, startShopProcess, stopShopProcess, waitUntilHealthy } from "../tests/support/shop-process.ts";
import { runMixedLoad, startNginx, stopNginx, waitForNginx } from "../tests/support/two-copies.ts";
import { cpuMs } from "./proc.ts";

const [firstPort = 5662, seconds = 15] = process.argv.slice(2).map(Number);
const SHOPPERS = 8;
const adminUrl = process.env.ADMIN_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

async function main() {
  const target = await createPostgresDatabase(adminUrl, "plant_shop_two_copies_bench");
  const nginxPort = firstPort;
  const ports = [firstPort + 1, firstPort + 2];
  const publicUrl = `http://127.0.0.1:${nginxPort}`;
  const shops = ports.map((port) => startShopProcess({ port, databaseUrl: target.url, publicUrl, env: { RATE_LIMIT_SCALE: "10000", MAX_PENDING_ORDERS: "1000" } }));
  const database = openDatabase({ databaseUrl: target.url, poolSize: 2 });
  try {
    await Promise.all(shops.map((shop) => waitUntilHealthy(shop)));
    const { db } = database;
    const category = await createCategory(db);
    const product = await createProduct(db, { category_id: category.id, stock: 10_000_000, name: `Bench Fern ${randomUUID().slice(0, 8)}` });
    const cookies = (await insertShoppers(db, SHOPPERS, { password: "two-copies-bench-password", prefix: "twobench" })).map((s) => s.cookie);

    const rows: { copies: number; requests: number; perSecond: number; cpuMsPerRequest: number; failures: number }[] = [];
    for (const copies of [1, 2, 1, 2]) {
      // A fresh nginx per phase, over the first copy only or over both: the same load, the same copies running.
      const nginx = startNginx(nginxPort, ports.slice(0, copies));
      try {
        await waitForNginx(nginx);
        const cpuBefore = shops.map((shop) => cpuMs(shop.child.pid) ?? Number.NaN);
        const load = runMixedLoad(nginx.url, cookies, product.id);
        await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
        const tally = await load.stop();
        const cpuUsed = shops.reduce((sum, shop, i) => sum + (cpuMs(shop.child.pid) ?? Number.NaN) - cpuBefore[i]!, 0);
        const requests = Object.values(tally.sent).reduce((a, b) => a + b, 0);
        rows.push({ copies, requests, perSecond: requests / seconds, cpuMsPerRequest: cpuUsed / requests, failures: tally.failures.length });
        console.error(`${copies} cop${copies === 1 ? "y" : "ies"}: ${requests} requests, ${(cpuUsed / requests).toFixed(2)} ms CPU each, ${tally.failures.length} failed`);
      } finally {
        await stopNginx(nginx);
      }
    }
    // The second round of each (the first round warms both copies up: compiled paths, filled pools).
    const one = rows[2]!;
    const two = rows[3]!;
    console.log(`| copies | requests | requests/s | server CPU ms/request | failed |`);
    console.log(`|---|---|---|---|---|`);
    for (const row of [one, two]) console.log(`| ${row.copies} | ${row.requests} | ${row.perSecond.toFixed(0)} | ${row.cpuMsPerRequest.toFixed(2)} | ${row.failures} |`);
    console.log(`\nserver CPU per request, two copies / one: ${(two.cpuMsPerRequest / one.cpuMsPerRequest).toFixed(3)}`);
  } finally {
    await Promise.all(shops.map((shop) => stopShopProcess(shop)));
    await database.destroy();
    await target.drop();
  }
}

await main();
