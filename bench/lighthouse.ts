import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as chromeLauncher from "chrome-launcher";
import lighthouse, { type Result } from "lighthouse";
import { openDatabase } from "../server/platform/db/client.ts";
import { insertShoppers, startShopProcess, stopShopProcess, waitUntilHealthy } from "../tests/support/shop-process.ts";
import { median } from "./statistics.ts";

// Lighthouse's mobile audit (its default: a mid-range phone on a simulated slow 4G, CPU slowed 4×) of home, shop,
// a product, a category and a signed-in shopper's cart, each RUNS times, against the production build started on
// a fresh data folder with the sample catalogue and the default page cache, as `npm start` runs it. Prints the
// median of each score and of LCP. Lighthouse's throttling is simulated from the page's own trace, so the
// figures depend less on the machine's load than the autocannon ones, but not nothing: say the load average.
// Runs at the end of bench/run.ts, or alone after `npm run build`: `npx tsx bench/lighthouse.ts`.
// lighthouse 12.8 (13 needs Node ≥ 22) drives Debian's Chromium through chrome-launcher.
const PORT = Number(process.env.BENCH_LIGHTHOUSE_PORT ?? 4604);
const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
/** Only these pages, by name, comma-separated (e.g. `home,shop`): to try a change on one page quickly. */
const ONLY = process.env.BENCH_LIGHTHOUSE_PAGES?.split(",").map((name) => name.trim());
/** A folder to keep each page's median-performance report in (JSON), for reading its audits. */
const REPORTS = process.env.BENCH_LIGHTHOUSE_REPORTS;
const CHROMIUM = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const CHROME_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
/** PAGE_CACHE_SECONDS's default (README). */
const DEFAULT_PAGE_CACHE_SECONDS = "300";

export interface PageScores {
  page: string;
  path: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
}

const score = (result: Result, category: (typeof CATEGORIES)[number]) => Math.round((result.categories[category]?.score ?? Number.NaN) * 100);

async function json<T>(response: Promise<Response>): Promise<T> {
  const answer = await response;
  if (!answer.ok) throw new Error(`${answer.url} answered ${answer.status}: ${await answer.text()}`);
  return (await answer.json()) as T;
}

/**
 * One Lighthouse run. A run that fails to record its trace (NO_NAVSTART, NO_FCP…: it happens on a busy
 * machine, and Lighthouse's message says to run it again) is run again, twice at most.
 */
async function audit(url: string, port: number, cookie: string | undefined): Promise<Result> {
  for (let attempt = 1; ; attempt++) {
    const run = await lighthouse(url, {
      port,
      output: "json",
      logLevel: "error",
      onlyCategories: [...CATEGORIES],
      // Sent with every request of the page, its assets too: the session of a signed-in shopper.
      ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
    });
    if (!run) throw new Error(`Lighthouse returned nothing for ${url}`);
    const error = run.lhr.runtimeError;
    if (!error) return run.lhr;
    if (attempt === 3) throw new Error(`Lighthouse on ${url}: ${error.code} ${error.message}`);
    console.warn(`Lighthouse on ${url}: ${error.code}, running it again`);
  }
}

export async function benchLighthouse(): Promise<PageScores[]> {
  const shop = startShopProcess({ port: PORT, env: { SEED_SAMPLE_DATA: "true", PAGE_CACHE_SECONDS: DEFAULT_PAGE_CACHE_SECONDS } });
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  try {
    await waitUntilHealthy(shop);
    const products = await json<{ items: { id: string }[] }>(fetch(`${shop.url}/api/products?limit=1`));
    const categories = await json<{ items: { id: string }[] }>(fetch(`${shop.url}/api/categories?limit=1`));
    const product = products.items[0]?.id;
    const category = categories.items[0]?.id;
    if (!product || !category) throw new Error("the sample catalogue has no product or no category");

    // A verified shopper with a session (written into the database, as the checkout bench does) and one plant in the cart.
    const database = openDatabase({ sqliteFile: path.join(shop.dataDir, "shop.db") });
    const [shopper] = await insertShoppers(database.db, 1, { password: "monstera-deliciosa-77", prefix: "lighthouse", dialect: "sqlite" }).finally(() => database.destroy());
    const cookie = shopper!.cookie;
    await json(fetch(`${shop.url}/api/cart/items`, { method: "POST", headers: { Origin: shop.url, Cookie: cookie, "Content-Type": "application/json" }, body: JSON.stringify({ productId: product }) }));

    const pages = [
      { page: "home", path: "/" },
      { page: "shop", path: "/shop" },
      { page: "product", path: `/product/${product}` },
      { page: "category", path: `/category/${category}` },
      { page: "cart", path: "/cart", cookie },
    ].filter(({ page }) => !ONLY || ONLY.includes(page));
    chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS, logLevel: "error" });
    const scores: PageScores[] = [];
    for (const { page, path: pathname, cookie: pageCookie } of pages) {
      // One visit first, so that Lighthouse measures the page a visitor usually gets: from the page cache for
      // visitors without cookies (docs/decisions/027), not the first rendering after the server started.
      await fetch(`${shop.url}${pathname}`, { headers: pageCookie ? { Cookie: pageCookie } : {} }).then((r) => r.arrayBuffer());
      const results: Result[] = [];
      for (let i = 0; i < RUNS; i++) {
        results.push(await audit(`${shop.url}${pathname}`, chrome.port, pageCookie));
      }
      const metric = (id: string) => median(results.map((r) => r.audits[id]?.numericValue ?? Number.NaN));
      scores.push({
        page,
        path: pathname,
        performance: median(results.map((r) => score(r, "performance"))),
        accessibility: median(results.map((r) => score(r, "accessibility"))),
        bestPractices: median(results.map((r) => score(r, "best-practices"))),
        seo: median(results.map((r) => score(r, "seo"))),
        lcpMs: metric("largest-contentful-paint"),
        fcpMs: metric("first-contentful-paint"),
        tbtMs: metric("total-blocking-time"),
      });
      if (REPORTS) {
        mkdirSync(REPORTS, { recursive: true });
        const byPerformance = [...results].sort((a, b) => score(a, "performance") - score(b, "performance"));
        writeFileSync(path.join(REPORTS, `${page}.json`), JSON.stringify(byPerformance[Math.floor(byPerformance.length / 2)], null, 1));
      }
    }
    return scores;
  } finally {
    chrome?.kill();
    await stopShopProcess(shop);
  }
}

export function printLighthouse(scores: PageScores[]) {
  console.log(`\nLighthouse ${RUNS}× per page, mobile (simulated slow 4G, 4× CPU slowdown), median; load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  console.log("page                performance  accessibility  best practices   SEO   LCP s   FCP s  TBT ms");
  for (const s of scores) {
    const label = s.page === "cart" ? "cart (signed in)" : s.page;
    console.log(
      [
        label.padEnd(18),
        String(s.performance).padStart(12),
        String(s.accessibility).padStart(14),
        String(s.bestPractices).padStart(15),
        String(s.seo).padStart(5),
        (s.lcpMs / 1000).toFixed(2).padStart(7),
        (s.fcpMs / 1000).toFixed(2).padStart(7),
        s.tbtMs.toFixed(0).padStart(7),
      ].join(" "),
    );
  }
  console.log("goal: performance ≥ 97, the others 100, LCP ≤ 2.0 s (the cart is noindex on purpose: its SEO is not a goal)");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  benchLighthouse()
    .then(printLighthouse)
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
