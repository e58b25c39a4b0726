import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { benchCheckout } from "./checkout.ts";
import { printFirstLoads } from "./first-load-js.ts";
import { benchLighthouse, printLighthouse } from "./lighthouse.ts";
import { benchScale } from "./scale.ts";
import { benchStartup } from "./startup.ts";
import { PRODUCTION_NODE_FLAGS } from "../tests/support/server-env.ts";
import { residentMb } from "./proc.ts";

// Loads the production shop and a bare node:http server returning the same bytes, one after the other,
// over loopback, and prints each page's throughput and latency with the ratio to the bare server.
// Nothing here asserts a speed: the ratio is measured in the same run on the same machine.
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
/** BENCH_PORT: the shop's port (the bare server takes the next one), so that two benches can run side by side. */
const SHOP_PORT = Number(process.env.BENCH_PORT ?? 4601);
const BARE_PORT = SHOP_PORT + 1;
/** PAGE_CACHE_SECONDS's default (README): pages and catalogue JSON for visitors without cookies are reused at most this long. */
const DEFAULT_PAGE_CACHE_SECONDS = 300;
const TSX = path.resolve("node_modules/.bin/tsx");
/** `--throughput`: only the throughput table (no first-load JS, start-up or checkout), to iterate on the server quickly. */
const THROUGHPUT_ONLY = process.argv.includes("--throughput");
/** `--cached-only`: skip the pages rendered for every request (the page cache off); the table then has cached rows only. */
const CACHED_ONLY = process.argv.includes("--cached-only");

interface Measured {
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  failures: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

const ms = (m: Measured) => [m.p50, m.p95, m.p99].map((v) => v.toFixed(1)).join("/");

async function load(url: string): Promise<Measured> {
  // A short warm-up so that both servers are measured hot.
  await autocannon({ url, connections: CONNECTIONS, duration: 1 });
  const latencies: number[] = [];
  const instance = autocannon({ url, connections: CONNECTIONS, duration: SECONDS });
  instance.on("response", (_client, _status, _bytes, ms) => latencies.push(ms));
  const result = await instance;
  latencies.sort((a, b) => a - b);
  return {
    rps: result.requests.average,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

function start(command: string, args: string[], env: Record<string, string>, ready: (child: ChildProcess) => Promise<void>) {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "inherit", "inherit", "ipc"] });
  return ready(child).then(() => child);
}

async function untilHealthy(url: string) {
  for (let i = 0; i < 300; i++) {
    const ok = await fetch(url).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not become healthy`);
}

/** Resolves once the process has exited, which also frees the data folder's lock (docs/decisions/012). */
async function stop(child: ChildProcess) {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

/** Starts the compiled production shop on a data folder; `pageCacheSeconds` 0 renders every page afresh. */
function startShop(dataDir: string, shopUrl: string, pageCacheSeconds: number) {
  return start(
    process.execPath,
    [...PRODUCTION_NODE_FLAGS, "build/server/main.js"],
    {
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(SHOP_PORT),
      PUBLIC_URL: shopUrl,
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      PAGE_CACHE_SECONDS: String(pageCacheSeconds),
    },
    () => untilHealthy(`${shopUrl}/healthz`),
  );
}

async function main() {
  // Lighthouse first, before any phase has loaded the machine: its throttling is simulated from the main-thread
  // time the page's trace observed, so a machine still busy (or hot) from the autocannon phases lowers the scores
  // (docs/decisions/028). Printed at the end with the other figures.
  const lighthouse = THROUGHPUT_ONLY ? undefined : await benchLighthouse();

  const dataDir = mkdtempSync(path.join(os.tmpdir(), "plant-shop-bench-"));
  const shopUrl = `http://127.0.0.1:${SHOP_PORT}`;
  // First every page rendered for every request (the page cache off), then with the default cache.
  let shop = await startShop(dataDir, shopUrl, 0);
  const firstProduct = ((await (await fetch(`${shopUrl}/api/products?limit=1`)).json()) as { items: { id: string }[] }).items[0];
  const firstCategory = ((await (await fetch(`${shopUrl}/api/categories`)).json()) as { items: { id: string }[] }).items[0];
  const paths = ["/api/products?limit=12", `/api/products/${firstProduct?.id}`, "/", "/shop", `/product/${firstProduct?.id}`, `/category/${firstCategory?.id}`];
  const pagePaths = paths.filter((p) => !p.startsWith("/api/"));

  // Record the shop's bytes for each path; the bare server answers with exactly those.
  const recorded: Record<string, { status: number; contentType: string; body: string }> = {};
  for (const p of paths) {
    const response = await fetch(shopUrl + p);
    recorded[p] = {
      status: response.status,
      contentType: response.headers.get("content-type") ?? "text/plain",
      body: Buffer.from(await response.arrayBuffer()).toString("base64"),
    };
  }
  const recordedFile = path.join(dataDir, "recorded.json");
  writeFileSync(recordedFile, JSON.stringify(recorded));

  const rendered = new Map<string, Measured>();
  if (!CACHED_ONLY) for (const p of paths) rendered.set(p, await load(shopUrl + p));
  const peakRendering = residentMb(shop.pid!, "VmHWM");
  await stop(shop);
  shop = await startShop(dataDir, shopUrl, DEFAULT_PAGE_CACHE_SECONDS);
  const cached = new Map<string, Measured>();
  for (const p of paths) cached.set(p, await load(shopUrl + p));
  const peakCached = residentMb(shop.pid!, "VmHWM");
  await stop(shop);

  const bare = await start(TSX, ["bench/bare-server.ts", recordedFile, String(BARE_PORT)], {}, (child) =>
    new Promise((resolve) => child.once("message", () => resolve())),
  );
  const bareResults = new Map<string, Measured>();
  for (const p of paths) bareResults.set(p, await load(`http://127.0.0.1:${BARE_PORT}${p}`));
  await stop(bare);
  rmSync(dataDir, { recursive: true, force: true });

  console.log(`\nPlant Shop bench: ${CONNECTIONS} connections, ${SECONDS}s per path, loopback, ${os.cpus().length} cores, Node ${process.version}`);
  console.log("path                                bytes   shop req/s  p50/p95/p99 ms     bare req/s  p50/p95/p99 ms   shop/bare  failures");
  const row = (p: string, how: string, s: Measured) => {
    const b = bareResults.get(p)!;
    const bytes = Buffer.from(recorded[p]!.body, "base64").length;
    const label = `${p.replace(firstProduct?.id ?? "{id}", "{id}").replace(firstCategory?.id ?? "{id}", "{id}")}${how}`;
    console.log(
      [
        label.padEnd(34),
        String(bytes).padStart(7),
        s.rps.toFixed(0).padStart(12),
        ms(s).padStart(16),
        b.rps.toFixed(0).padStart(13),
        ms(b).padStart(16),
        (s.rps / b.rps).toFixed(3).padStart(11),
        String(s.failures).padStart(9),
      ].join(" "),
    );
  };
  for (const p of paths) {
    const page = pagePaths.includes(p);
    if (!CACHED_ONLY) row(p, page ? " (rendered)" : " (uncached)", rendered.get(p)!);
    row(p, " (cached)", cached.get(p)!);
  }

  console.log(`peak resident memory of the shop under this load: ${peakRendering.toFixed(1)} MB rendering every page, ${peakCached.toFixed(1)} MB with the caches (goal ≤ 250 MB)`);
  if (THROUGHPUT_ONLY) return;

  // What each page's first load downloads (from the build `npm run bench` just made).
  printFirstLoads();

  // Lighthouse mobile, median of three runs, for home, shop, a product, a category and a signed-in cart.
  if (lighthouse) printLighthouse(lighthouse);

  // Cold start and idle memory, compiled and from source.
  await benchStartup();

  // Checkout under load on PostgreSQL (skipped, saying so, without BENCH_DATABASE_URL or TEST_DATABASE_URL).
  await benchCheckout();
}

// `--products N`: the scale mode alone (bench/scale.ts), the catalogue pages at 10 and at N products.
const productsFlag = process.argv.indexOf("--products");
const run = productsFlag >= 0 ? () => benchScale(Number(process.argv[productsFlag + 1] ?? 100_000)) : main;

run().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
