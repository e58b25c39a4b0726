import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { createLocalChangeFeed } from "../change-feed/change-feed.ts";
import { createCacheRules, scopeKey } from "./cache-rules.ts";
import type { PlatformEnv } from "./http-env.ts";
import { responseCache } from "./response-cache.ts";

const REFRESH_MS = 250;

/**
 * A page cache in front of a product page whose stock the test sets, with a clock the test moves and a render the
 * test can hold open (`hold()` until `release()`): a stock-only change refreshes the page's scope, any other drops it.
 */
function shop() {
  const changes = createLocalChangeFeed();
  let clock = 1_000;
  let stock = 5;
  let renders = 0;
  let failing = false;
  let gate: { opened: Promise<void>; open(): void } | undefined;
  let entered: (() => void) | undefined;
  const rules = createCacheRules();
  rules.scope("pages", "product", /^\/product\/(\w+)$/);
  rules.onChange("product", (change) =>
    change.aspects.every((aspect) => aspect === "stock")
      ? { scopes: [], refresh: [scopeKey("product", change.productId)], unscoped: false }
      : { scopes: [scopeKey("product", change.productId)], unscoped: true },
  );
  const cache = responseCache({
    ttlMs: 60_000,
    maxBytes: 1024 * 1024,
    types: /^text\/html/,
    scopeOf: (path) => rules.scopeOf("pages", path),
    invalidation: (change) => rules.invalidation(change, "pages"),
    hitHeader: "X-Hit",
    changes,
    now: () => clock,
    refreshIntervalMs: REFRESH_MS,
  });
  const app = new Hono<PlatformEnv>();
  // A failed render answers 500, as the shop's error handler does.
  app.onError((_error, c) => c.text("failed", 500));
  app.use(cache);
  app.get("/product/:id", async (c) => {
    renders++;
    if (failing) throw new Error("render failed");
    const shown = stock;
    entered?.();
    if (gate) await gate.opened;
    return c.html(`<p>stock ${shown}</p>`);
  });
  return {
    cache,
    /** The page's text and whether it was a replay. */
    async visit() {
      const response = await app.request("http://shop.test/product/fern");
      return { text: await response.text(), hit: response.headers.get("x-hit") === "hit" };
    },
    /** Holds the next renders open until release(); resolves `entered` when one has read the stock. */
    hold() {
      let open!: () => void;
      const opened = new Promise<void>((resolve) => (open = resolve));
      gate = { opened, open };
      const rendering = new Promise<void>((resolve) => (entered = resolve));
      return {
        rendering,
        release() {
          gate = undefined;
          entered = undefined;
          open();
        },
      };
    },
    sell(to: number) {
      stock = to;
      changes.deliver({ type: "product", productId: "fern", aspects: ["stock"] });
    },
    edit() {
      changes.deliver({ type: "product", productId: "fern", aspects: ["details"] });
    },
    failNext(fail: boolean) {
      failing = fail;
    },
    advance(ms: number) {
      clock += ms;
    },
    renders: () => renders,
  };
}

/** Kept at stock 5, then sold down to 4 with the refresh interval passed: the next request makes the page again. */
async function staleAndDue() {
  const s = shop();
  await s.visit();
  s.sell(4);
  s.advance(REFRESH_MS);
  return s;
}

/** As `staleAndDue`, with the request that makes the page again held open once it has read the stock. */
async function refreshHeldOpen() {
  const s = await staleAndDue();
  const held = s.hold();
  const refreshing = s.visit();
  await held.rendering;
  return { s, held, refreshing };
}

describe("a page kept stale while one request makes it again", () => {
  it("serves the copy one stock change behind within the refresh interval of its making, without making it again", async () => {
    const s = shop();
    expect(await s.visit()).toEqual({ text: "<p>stock 5</p>", hit: false });
    s.advance(REFRESH_MS - 1);
    s.sell(4);
    expect(await s.visit()).toEqual({ text: "<p>stock 5</p>", hit: true });
    expect(s.renders()).toBe(1);
  });

  it("makes it again on the first request once the interval has passed, and replays the new copy after it", async () => {
    const s = await staleAndDue();
    expect(await s.visit()).toEqual({ text: "<p>stock 4</p>", hit: false });
    expect(await s.visit()).toEqual({ text: "<p>stock 4</p>", hit: true });
    expect(s.renders()).toBe(2);
  });

  it("lets one of many concurrent requests make it again, while the others get the stale copy", async () => {
    const { s, held, refreshing } = await refreshHeldOpen();
    // The front (front-cache.ts) asks `lookup`: the stale copy is served while its refresh is under way.
    expect(s.cache.lookup("http://shop.test/product/fern")).toBeDefined();
    const others = await Promise.all(Array.from({ length: 20 }, () => s.visit()));
    expect(others.every((answer) => answer.hit && answer.text === "<p>stock 5</p>")).toBe(true);
    held.release();
    expect(await refreshing).toEqual({ text: "<p>stock 4</p>", hit: false });
    expect(s.renders()).toBe(2);
  });

  it("before that, tells the front to pass a stale copy due for its refresh on, so that a request of the chain makes it", async () => {
    const s = shop();
    await s.visit();
    s.sell(4);
    expect(s.cache.lookup("http://shop.test/product/fern")).toBeDefined();
    s.advance(REFRESH_MS);
    expect(s.cache.lookup("http://shop.test/product/fern")).toBeUndefined();
  });

  it("during a burst of changes makes the page at most once per interval, and replaces the stale copy with the last stock after the burst", async () => {
    const s = shop();
    await s.visit();
    // 20 changes a second for two seconds, a request every 10 ms: the page is one change behind at most while
    // the burst lasts, and made again at most once per interval.
    for (let tick = 1; tick <= 200; tick++) {
      s.advance(10);
      if (tick % 5 === 0) s.sell(1000 - tick);
      await s.visit();
    }
    expect(s.renders()).toBeLessThanOrEqual(1 + (200 * 10) / REFRESH_MS);
    expect(s.renders()).toBeGreaterThan(1);
    s.advance(REFRESH_MS);
    expect((await s.visit()).text).toBe("<p>stock 800</p>");
    expect(await s.visit()).toEqual({ text: "<p>stock 800</p>", hit: true });
  });

  it("stores a copy made while another stock change came, stale, and makes it again after the interval", async () => {
    const { s, held, refreshing } = await refreshHeldOpen();
    s.sell(3);
    held.release();
    expect((await refreshing).text).toBe("<p>stock 4</p>");
    expect(await s.visit()).toEqual({ text: "<p>stock 4</p>", hit: true });
    s.advance(REFRESH_MS);
    expect(await s.visit()).toEqual({ text: "<p>stock 3</p>", hit: false });
  });

  it("does not store a refresh overtaken by a change that drops the page; the next request makes it again", async () => {
    const { s, held, refreshing } = await refreshHeldOpen();
    // A change that drops the scope while the refresh is under way: its answer is not stored.
    s.edit();
    held.release();
    await refreshing;
    expect(await s.visit()).toEqual({ text: "<p>stock 4</p>", hit: false });
    expect(await s.visit()).toEqual({ text: "<p>stock 4</p>", hit: true });
  });

  it("after a refresh whose render failed, serves nothing stale in its place for long: the next request makes it again", async () => {
    const s = await staleAndDue();
    s.failNext(true);
    expect((await s.visit()).hit).toBe(false);
    s.failNext(false);
    expect(await s.visit()).toEqual({ text: "<p>stock 4</p>", hit: false });
    expect(s.renders()).toBe(3);
  });
});
