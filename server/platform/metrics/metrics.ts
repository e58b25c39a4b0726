import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/** What a module that counts something is handed: a counter by a small, fixed set of label values. */
export interface CountedOutcomes {
  inc(labels?: Record<string, string>): void;
}

/** Hits and misses of one response cache (the front's replays count as hits). */
export interface CacheCounter {
  hit(): void;
  miss(): void;
}

/** Pool use of the PostgreSQL connections, read on each scrape (pg's Pool has these three). */
export interface PoolUse {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
}

export interface MetricsOptions {
  /**
   * Also the process's own figures (event-loop delay, heap, RSS, GC): prom-client's collectors keep an event-loop
   * monitor running, so only a shop that serves its metrics turns them on.
   */
  processMetrics: boolean;
}

/** Latency buckets in seconds: a cached page answers in well under a millisecond, a checkout in tens of them. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const CHECKOUT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The shop's metrics on a registry of its own (never prom-client's global one, so several apps in one process,
 * as in the tests, each count their own). Recording is a Map lookup and two additions per request; what costs a
 * query is read only when scraped.
 */
export function createMetrics({ processMetrics }: MetricsOptions) {
  const registry = new Registry();
  if (processMetrics) collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: "plantshop_http_requests_total",
    help: "HTTP requests answered, by method, route pattern (or page, media, asset, health, metrics) and status.",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: "plantshop_http_request_duration_seconds",
    help: "Time from a request's arrival to the end of its answer, by method, route and status class.",
    labelNames: ["method", "route", "status_class"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const cacheRequests = new Counter({
    name: "plantshop_cache_requests_total",
    help: "Lookups of the anonymous page and JSON caches and the signed-in shoppers' page cache, by outcome.",
    labelNames: ["cache", "outcome"] as const,
    registers: [registry],
  });

  /** Each label combination's series, resolved once: the label sets are few and fixed (see httpRoute). */
  const series = new Map<string, { count: Counter.Internal; time: Histogram.Internal<"method" | "route" | "status_class"> }>();

  return {
    registry,
    /** Counts one answered request and its duration. */
    recordRequest(method: string, route: string, status: number, seconds: number) {
      const key = `${method} ${route} ${status}`;
      let found = series.get(key);
      if (!found) {
        found = {
          count: requests.labels({ method, route, status: String(status) }),
          time: latency.labels({ method, route, status_class: `${Math.floor(status / 100)}xx` }),
        };
        series.set(key, found);
      }
      found.count.inc();
      found.time.observe(seconds);
    },
    /** The counter of one cache, by a fixed name ("page", "json", "shared_page"). */
    cacheCounter(cache: string): CacheCounter {
      const hits = cacheRequests.labels({ cache, outcome: "hit" });
      const misses = cacheRequests.labels({ cache, outcome: "miss" });
      return { hit: () => hits.inc(), miss: () => misses.inc() };
    },
    counter(name: string, help: string, labelNames: readonly string[] = []): CountedOutcomes {
      const counter = new Counter({ name, help, labelNames, registers: [registry] });
      return { inc: (labels = {}) => counter.inc(labels) };
    },
    /** A histogram in seconds, with the checkout's buckets unless given. */
    histogram(name: string, help: string, labelNames: readonly string[] = [], buckets = CHECKOUT_BUCKETS) {
      const histogram = new Histogram({ name, help, labelNames, buckets, registers: [registry] });
      return { observe: (seconds: number, labels: Record<string, string> = {}) => histogram.observe(labels, seconds) };
    },
    /**
     * A gauge read when scraped. A reading that fails (the database away) leaves the last value, so the scrape
     * still answers with everything else.
     */
    gaugeOnScrape(name: string, help: string, read: () => number | Promise<number>) {
      new Gauge({
        name,
        help,
        registers: [registry],
        async collect() {
          try {
            this.set(await read());
          } catch {
            // Kept: the other figures of the scrape matter more than this one.
          }
        },
      });
    },
    /** The PostgreSQL pool's connections (in use, idle) and the queries waiting for one. */
    watchPool(pool: PoolUse) {
      new Gauge({
        name: "plantshop_db_pool_connections",
        help: "PostgreSQL connections of this process's pool, by state (in_use, idle).",
        labelNames: ["state"] as const,
        registers: [registry],
        collect() {
          this.set({ state: "in_use" }, pool.totalCount - pool.idleCount);
          this.set({ state: "idle" }, pool.idleCount);
        },
      });
      new Gauge({
        name: "plantshop_db_pool_waiting",
        help: "Queries waiting for a PostgreSQL connection of this process's pool.",
        registers: [registry],
        collect() {
          this.set(pool.waitingCount);
        },
      });
    },
    /** Prometheus' text format of everything registered. */
    async render(): Promise<{ body: string; contentType: string }> {
      return { body: await registry.metrics(), contentType: registry.contentType };
    },
  };
}

export type ShopMetrics = ReturnType<typeof createMetrics>;
