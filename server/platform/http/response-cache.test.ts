import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { createLocalChangeFeed } from "../change-feed/change-feed.ts";
import type { PlatformEnv } from "./http-env.ts";
import { createCacheRules, scopeKey } from "./cache-rules.ts";
import { responseCache } from "./response-cache.ts";

/** An app whose every path answers `size` bytes of JSON and counts how often it was made. */
function appWithCache(maxBytes: number, size: number) {
  const changes = createLocalChangeFeed();
  const made = new Map<string, number>();
  const app = new Hono<PlatformEnv>();
  // The rules a module would register: a product's answers are scoped to it, and its change drops them and every list.
  const rules = createCacheRules();
  rules.scope("json", "product", /^\/product\/(\w+)$/);
  rules.onChange("product", (change) => ({ scopes: [scopeKey("product", change.productId)], unscoped: true }));
  const scopeOf = (path: string) => rules.scopeOf("json", path);
  app.use(responseCache({ ttlMs: 60_000, maxBytes, types: /^application\/json/, scopeOf, invalidation: (change) => rules.invalidation(change, "json"), hitHeader: "X-Hit", changes }));
  app.get("*", (c) => {
    made.set(c.req.path, (made.get(c.req.path) ?? 0) + 1);
    return c.json({ path: c.req.path, padding: "x".repeat(size) });
  });
  return { app, changes, made };
}

describe("the response cache", () => {
  it("holds no more than its bound in bytes, dropping the least recently used answers first", async () => {
    // About 10 kB an answer, 128 kB allowed: some twelve answers fit, never all twenty-one.
    const { app, made } = appWithCache(128 * 1024, 10_000);
    await app.request("/keep");
    for (let i = 0; i < 20; i++) {
      await app.request(`/list/${i}`);
      await app.request("/keep"); // used again and again: never the least recently used
    }
    expect(made.get("/keep")).toBe(1);
    await app.request("/list/19");
    expect(made.get("/list/19")).toBe(1);
    await app.request("/list/0");
    expect(made.get("/list/0")).toBe(2);
  });

  it("does not store an answer larger than an eighth of its bound", async () => {
    const { app, made } = appWithCache(128 * 1024, 10_000);
    await app.request("/small");
    const big = appWithCache(128 * 1024, 20_000);
    await big.app.request("/big");
    await big.app.request("/big");
    expect(big.made.get("/big")).toBe(2);
    expect((await app.request("/small")).headers.get("x-hit")).toBe("hit");
    expect(made.get("/small")).toBe(1);
  });

  it("drops, on a product's change, that product's answers and every list, and keeps other products' answers", async () => {
    const { app, changes, made } = appWithCache(1024 * 1024, 10);
    for (const path of ["/product/a", "/product/b", "/list"]) await app.request(path);
    changes.deliver({ type: "product", productId: "a", aspects: ["details"] });
    for (const path of ["/product/a", "/product/b", "/list"]) await app.request(path);
    expect(Object.fromEntries(made)).toEqual({ "/product/a": 2, "/product/b": 1, "/list": 2 });
    changes.deliver({ type: "category", categoryId: "c" });
    await app.request("/product/b");
    expect(made.get("/product/b")).toBe(2);
  });

  it("replays an answer no longer than its safety lifetime", async () => {
    let clock = 0;
    const made: string[] = [];
    const app = new Hono<PlatformEnv>();
    app.use(responseCache({ ttlMs: 1000, maxBytes: 1 << 20, types: /^application\/json/, scopeOf: () => undefined, invalidation: () => undefined, hitHeader: "X-Hit", now: () => clock }));
    app.get("*", (c) => {
      made.push(c.req.path);
      return c.json({});
    });
    await app.request("/a");
    clock = 999;
    await app.request("/a");
    clock = 1000;
    await app.request("/a");
    expect(made).toHaveLength(2);
  });
});
