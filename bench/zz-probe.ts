import path from "node:path";
import autocannon from "autocannon";
import { openDatabase } from "../server/platform/db/client.ts";
import { insertShoppers, startShopProcess, stopShopProcess, waitUntilHealthy } from "../tests/support/shop-process.ts";
import { cpuMs } from "./proc.ts";
const shop = startShopProcess({ port: 5631, env: { SEED_SAMPLE_DATA: "true", PAGE_CACHE_SECONDS: "300" } });
await waitUntilHealthy(shop);
const database = openDatabase({ sqliteFile: path.join(shop.dataDir, "shop.db") });
const [a] = await insertShoppers(database.db, 1, { password: "profile-password-1", prefix: "try", dialect: "sqlite" });
await database.destroy();
const rows: [string, string, Record<string, string>][] = [
  ["visitor /shop", "/shop", {}],
  ["signed-in /api/me", "/api/me", { cookie: a!.cookie }],
  ["signed-in /shop", "/shop", { cookie: a!.cookie }],
  ["signed-in /favicon-ish 404", "/nothing-here", { cookie: a!.cookie }],
  ["visitor /healthz", "/healthz", {}],
];
for (const [label, p, headers] of rows) {
  await autocannon({ url: shop.url + p, connections: 20, duration: 1, headers });
  const before = cpuMs(shop.child.pid!)!;
  const r = await autocannon({ url: shop.url + p, connections: 20, duration: 4, headers });
  const after = cpuMs(shop.child.pid!)!;
  console.log(label.padEnd(30), (r.requests.total / r.duration).toFixed(0).padStart(6), "req/s", ((after - before) / r.requests.total).toFixed(3), "cpu ms/req", "non2xx", r.non2xx);
}
await stopShopProcess(shop);
