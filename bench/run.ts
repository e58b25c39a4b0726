import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { benchCheckout } from "./checkout.ts";
import { printFirstLoads } from "./first-load-js.ts";
import { benchLighthouse, printLighthouse } from "./lighthouse.ts";
import { benchSale } from "./sale.ts";
import { benchScale } from "./scale.ts";
import { benchStartup } from "./startup.ts";
import { PRODUCTION_NODE_FLAGS } from "../tests/support/server-env.ts";
import { insertShoppers, SHOP_AUTH_SECRET } from "../tests/support/shop-process.ts";
import { openDatabase } from "../server/platform/db/client.ts";
import { cpuMs, residentMb } from "./proc.ts";
import { inTurn } from "./in-turn.ts";
import { median, percentile } from "./statistics.ts";

// Loads the production shop and a bare node:http server returning the same bytes over loopback, in turn, and
// prints each page's throughput and latency with the ratio to the bare server, and the servers' CPU time per
// request. Nothing here asserts a speed: the ratio is measured in the same run on the same machine.
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/**
 * BENCH_THROUGHPUT_ROUNDS: a cached row loads the shop and the bare server in turn (bench/in-turn.ts), this many rounds,
 * each server for BENCH_SECONDS in all, split over the rounds. Both servers run the whole time, and the row's ratio is
 * the median of the rounds' ratios.
 */
const ROUNDS = Math.max(1, Number(process.env.BENCH_THROUGHPUT_ROUNDS ?? 4));
const CONNECTIONS = 50;
/** What Chromium sends as Accept-Encoding. */
const BROWSER_ACCEPT_ENCODING = "gzip, deflate, br, zstd";
/** BENCH_PORT: the shop's port (the bare server takes the next one), so that two benches can run side by side. */
const SHOP_PORT = Number(process.env.BENCH_PORT ?? 4601);
const BARE_PORT = SHOP_PORT + 1;
/** PAGE_CACHE_SECONDS's default (README): pages and catalogue JSON for visitors without cookies are reused at most this long. */
const DEFAULT_PAGE_CACHE_SECONDS = 300;
/** `--throughput`: only the throughput table (no first-load JS, start-up or checkout), to iterate on the server quickly. */
const THROUGHPUT_ONLY = process.argv.includes("--throughput");
/** `--cached-only`: skip the pages rendered for every request (the page cache off); the table then has cached rows only. */
const CACHED_ONLY = process.argv.includes("--cached-only");

/** One load of one server: autocannon's answers, and the CPU time the server used meanwhile. */
interface Load {
  requests: number;
  seconds: number;
  latencies: number[];
  failures: number;
  /** The server's CPU time (user + system, /proc) per answered request, ms; undefined where /proc is missing. */
  cpuMsPerRequest: number | undefined;
}

/** A server seen by the bench: where to load it, and the process whose CPU time counts. */
interface Target {
  url: string;
  pid: number;
}

/** A row: each server's loads (one per round) and, per round, the shop's rate and CPU cost against the bare's. */
interface Compared {
  shop: Load[];
  bare: Load[];
  ratios: number[];
  /** Per round: the bare server's CPU ms per request ÷ the shop's (1 would be as cheap as the bare server). */
  cpuRatios: number[];
}

const rate = (load: Load) => load.requests / load.seconds;

/** A GET's headers and bytes as sent, not decoded (fetch would decode them). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

/** p50/p95/p99 of all the loads' answers together. */
function latencyColumn(loads: Load[]): string {
  const all = loads.flatMap((load) => load.latencies).sort((a, b) => a - b);
  return [50, 95, 99].map((p) => percentile(all, p).toFixed(1)).join("/");
}

async function warmUp(url: string) {
  await autocannon({ url, connections: CONNECTIONS, duration: 1 });
}

async function load(target: Target, pathname: string, seconds: number, headers: Record<string, string> = {}): Promise<Load> {
  const latencies: number[] = [];
  const cpuBefore = cpuMs(target.pid);
  const instance = autocannon({ url: target.url + pathname, connections: CONNECTIONS, duration: seconds, headers });
  instance.on("response", (_client, _status, _bytes, ms) => latencies.push(ms));
  const result = await instance;
  const cpuAfter = cpuMs(target.pid);
  const requests = result.requests.total;
  return {
    requests,
    seconds: result.duration,
    latencies,
    failures: result.non2xx + result.errors + result.timeouts,
    cpuMsPerRequest: cpuBefore === undefined || cpuAfter === undefined || !requests ? undefined : (cpuAfter - cpuBefore) / requests,
  };
}

/** How a row asks: as a signed-in shopper (their cookie), answered by the bare server from its own recording. */
interface Asking {
  headers: Record<string, string>;
  barePath: string;
}

/** Both servers warmed up, then loaded in turn for `rounds` rounds of `seconds` each (bench/in-turn.ts). */
async function compare(shop: Target, bare: Target, pathname: string, rounds: number, seconds: number, asking?: Asking): Promise<Compared> {
  const headers = asking?.headers ?? {};
  const barePath = asking?.barePath ?? pathname;
  await autocannon({ url: shop.url + pathname, connections: CONNECTIONS, duration: 1, headers });
  await warmUp(bare.url + barePath);
  const loads = await inTurn(
    rounds,
    () => load(shop, pathname, seconds, headers),
    () => load(bare, barePath, seconds),
  );
  const rounded = loads.a.map((shopLoad, round) => ({ shopLoad, bareLoad: loads.b[round]! }));
  return {
    shop: loads.a,
    bare: loads.b,
    ratios: rounded.map(({ shopLoad, bareLoad }) => rate(shopLoad) / rate(bareLoad)),
    cpuRatios: rounded.flatMap(({ shopLoad, bareLoad }) =>
      shopLoad.cpuMsPerRequest && bareLoad.cpuMsPerRequest ? [bareLoad.cpuMsPerRequest / shopLoad.cpuMsPerRequest] : [],
    ),
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
      // Known, so that the bench can sign in a shopper it writes into the database (insertShoppers).
      AUTH_SECRET: SHOP_AUTH_SECRET,
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
  // A signed-in shopper's pages (docs/decisions/045): the shop and a product, with a session written into the database.
  const signedInPaths = ["/shop", `/product/${firstProduct?.id}`];
  const database = openDatabase({ sqliteFile: path.join(dataDir, "shop.db") });
  const [shopper] = await insertShoppers(database.db, 1, { password: "bench-shopper-password-1", prefix: "bench", dialect: "sqlite" });
  // The shopper has saved the first plant, as a shopper about to buy has: its heart is pressed on /shop and on its
  // page, both still from the render every shopper shares (docs/decisions/050).
  await database.db.insertInto("wishlist_items").values({ user_id: shopper!.userId, product_id: firstProduct!.id, created_at: new Date().toISOString() }).execute();
  await database.destroy();
  const asShopper = (p: string): Asking => ({ headers: { cookie: shopper!.cookie }, barePath: `${p}${p.includes("?") ? "&" : "?"}as=shopper` });
  // The same, asked as a browser asks (every browser sends Accept-Encoding): the bare server sends the compressed
  // bytes the shop sent for the page's first, rendered answer (brotli; the kept page's spliced gzip is a little
  // larger), so the row compares the cost of making an encoded answer.
  const asShopperBrowser = (p: string): Asking => ({
    headers: { cookie: shopper!.cookie, "accept-encoding": BROWSER_ACCEPT_ENCODING },
    barePath: `${p}${p.includes("?") ? "&" : "?"}as=shopper-browser`,
  });

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
  for (const p of signedInPaths) {
    const response = await fetch(shopUrl + p, { headers: { cookie: shopper!.cookie } });
    recorded[asShopper(p).barePath] = {
      status: response.status,
      contentType: response.headers.get("content-type") ?? "text/plain",
      body: Buffer.from(await response.arrayBuffer()).toString("base64"),
    };
  }
  for (const p of signedInPaths) {
    const { headers, body } = await rawGet(shopUrl + p, asShopperBrowser(p).headers);
    recorded[asShopperBrowser(p).barePath] = {
      status: 200,
      contentType: String(headers["content-type"] ?? "text/plain"),
      ...(headers["content-encoding"] ? { contentEncoding: String(headers["content-encoding"]) } : {}),
      body: body.toString("base64"),
    };
  }
  const recordedFile = path.join(dataDir, "recorded.json");
  writeFileSync(recordedFile, JSON.stringify(recorded));

  // The bare server runs beside the shop from here on, through tsx's loader inside node itself (the tsx command would
  // run it in a child process, whose CPU time the bench would not see).
  const bare = await start(process.execPath, ["--import", "tsx", "bench/bare-server.ts", recordedFile, String(BARE_PORT)], {}, (child) =>
    new Promise((resolve) => child.once("message", () => resolve())),
  );
  const bareTarget: Target = { url: `http://127.0.0.1:${BARE_PORT}`, pid: bare.pid! };
  // A page made for every request is measured once, against the bare server right after it.
  const rendered = new Map<string, Compared>();
  if (!CACHED_ONLY) for (const p of paths) rendered.set(p, await compare({ url: shopUrl, pid: shop.pid! }, bareTarget, p, 1, SECONDS));
  if (!CACHED_ONLY) for (const p of signedInPaths) rendered.set(`${p} signed in`, await compare({ url: shopUrl, pid: shop.pid! }, bareTarget, p, 1, SECONDS, asShopper(p)));
  const peakRendering = residentMb(shop.pid!, "VmHWM");
  await stop(shop);
  shop = await startShop(dataDir, shopUrl, DEFAULT_PAGE_CACHE_SECONDS);
  const cached = new Map<string, Compared>();
  for (const p of paths) cached.set(p, await compare({ url: shopUrl, pid: shop.pid! }, bareTarget, p, ROUNDS, SECONDS / ROUNDS));
  for (const p of signedInPaths) cached.set(`${p} signed in`, await compare({ url: shopUrl, pid: shop.pid! }, bareTarget, p, ROUNDS, SECONDS / ROUNDS, asShopper(p)));
  for (const p of signedInPaths) cached.set(`${p} signed in, browser`, await compare({ url: shopUrl, pid: shop.pid! }, bareTarget, p, ROUNDS, SECONDS / ROUNDS, asShopperBrowser(p)));
  const peakCached = residentMb(shop.pid!, "VmHWM");
  await stop(shop);
  await stop(bare);
  rmSync(dataDir, { recursive: true, force: true });

  console.log(`\nPlant Shop bench: ${CONNECTIONS} connections, ${SECONDS}s per path and server, loopback, ${os.cpus().length} cores, Node ${process.version}`);
  console.log(
    `(cached rows: ${ROUNDS} rounds of ${(SECONDS / ROUNDS).toFixed(1)}s each, shop and bare in turn; req/s and the ratios are the rounds' medians, the range in brackets;\n` +
      " cpu ratio: the bare server's CPU time per request ÷ the shop's, from /proc)",
  );
  console.log(
    "path                                bytes   shop req/s  p50/p95/p99 ms     bare req/s  p50/p95/p99 ms   shop/bare (range)       cpu ratio (range)  failures",
  );
  /** The median, and with more than one round the range. */
  const range = (values: number[]) =>
    values.length > 1 ? `${median(values).toFixed(3)} (${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)})` : (values[0]?.toFixed(3) ?? "–");
  const row = (p: string, how: string, compared: Compared, recordedAs = p) => {
    const bytes = Buffer.from(recorded[recordedAs]!.body, "base64").length;
    const label = `${p.replace(firstProduct?.id ?? "{id}", "{id}").replace(firstCategory?.id ?? "{id}", "{id}")}${how}`;
    console.log(
      [
        label.padEnd(34),
        String(bytes).padStart(7),
        median(compared.shop.map(rate)).toFixed(0).padStart(12),
        latencyColumn(compared.shop).padStart(16),
        median(compared.bare.map(rate)).toFixed(0).padStart(13),
        latencyColumn(compared.bare).padStart(16),
        range(compared.ratios).padStart(19),
        range(compared.cpuRatios).padStart(23),
        String(compared.shop.reduce((n, l) => n + l.failures, 0)).padStart(9),
      ].join(" "),
    );
  };
  for (const p of paths) {
    const page = pagePaths.includes(p);
    if (!CACHED_ONLY) row(p, page ? " (rendered)" : " (uncached)", rendered.get(p)!);
    row(p, " (cached)", cached.get(p)!);
  }
  for (const p of signedInPaths) {
    if (!CACHED_ONLY) row(p, " (signed in, rendered)", rendered.get(`${p} signed in`)!, asShopper(p).barePath);
    row(p, " (signed in, cached)", cached.get(`${p} signed in`)!, asShopper(p).barePath);
    row(p, " (signed in, cached, encoded)", cached.get(`${p} signed in, browser`)!, asShopperBrowser(p).barePath);
  }

  console.log(`peak resident memory of the shop under this load: ${peakRendering.toFixed(1)} MB rendering every page, ${peakCached.toFixed(1)} MB with the caches (goal ≤ 250 MB)`);

  // A product page while the owner edits its stock 20 times a second, against the same page quiet (bench/sale.ts).
  await benchSale();
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

// `--products N`: the scale mode alone (bench/scale.ts), the catalogue pages at 10 and at N products; with
// `--baseline M`, at M and at N.
const productsFlag = process.argv.indexOf("--products");
const baselineFlag = process.argv.indexOf("--baseline");
const baseline = baselineFlag >= 0 ? Number(process.argv[baselineFlag + 1]) : undefined;
// A missing or mistyped size would otherwise measure the ten samples under the label "NaN products".
if (baseline !== undefined && !(Number.isInteger(baseline) && baseline > 0)) throw new Error("--baseline takes a number of products, e.g. --baseline 10000");
const run = productsFlag >= 0 ? () => benchScale(Number(process.argv[productsFlag + 1] ?? 100_000), baseline) : main;

run().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
