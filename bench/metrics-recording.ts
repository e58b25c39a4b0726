// The cost of counting one request in the metrics (docs/decisions/056): recordRequest on a warm series, as every
// answer does when its response closes, and a scrape of a registry holding the shop's series.
// `npx tsx bench/metrics-recording.ts`
import { performance } from "node:perf_hooks";
import { createMetrics } from "../server/platform/metrics/metrics.ts";

const metrics = createMetrics({ processMetrics: true });
const routes = ["page", "asset", "media", "/api/products", "/api/products/:productId", "/api/cart", "/api/orders"];
const statuses = [200, 304, 404];
const ROUNDS = 1_000_000;
for (let i = 0; i < 10_000; i++) metrics.recordRequest("GET", routes[i % routes.length]!, statuses[i % statuses.length]!, 0.002);
const started = performance.now();
for (let i = 0; i < ROUNDS; i++) metrics.recordRequest("GET", routes[i % routes.length]!, statuses[i % statuses.length]!, (i % 100) / 10_000);
const perRequestUs = ((performance.now() - started) * 1000) / ROUNDS;
const scrapeStarted = performance.now();
const { body } = await metrics.render();
const scrapeMs = performance.now() - scrapeStarted;
console.log(`recordRequest: ${perRequestUs.toFixed(3)} µs per request; scrape: ${scrapeMs.toFixed(1)} ms for ${body.length} bytes`);
