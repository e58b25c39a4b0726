import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database.ts";
import { TooManyRequestsError } from "../errors.ts";
import { createRateLimiter, tryAgainIn, type RateRule } from "./rate-limit.ts";

let database: TestDatabase;
beforeEach(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  await database.cleanup();
});

const rule: RateRule = { name: "test", limit: 3, windowMs: 60_000, message: "Slow down." };

describe("rate limiter", () => {
  it("lets the limit through, refuses the next with the time to wait, and starts again after the window", async () => {
    let now = 1_000_000;
    const limiter = createRateLimiter(database.db, { now: () => now });
    for (let i = 0; i < 3; i++) await limiter.hit(rule, "1.2.3.4");
    now += 15_000;
    const refusal = await limiter.hit(rule, "1.2.3.4").catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(TooManyRequestsError);
    expect(refusal).toMatchObject({ status: 429, message: "Slow down. Please try again in 1 minute.", retryAfterSeconds: 45 });
    await limiter.hit(rule, "5.6.7.8");
    now += 45_000;
    await expect(limiter.hit(rule, "1.2.3.4")).resolves.toBeUndefined();
  });

  it("tryHit counts like hit but answers false instead of refusing", async () => {
    const limiter = createRateLimiter(database.db);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await limiter.tryHit(rule, "quiet"));
    expect(answers).toEqual([true, true, true, false]);
    await expect(limiter.hit(rule, "quiet")).rejects.toBeInstanceOf(TooManyRequestsError);
  });

  it("hitFirstTime counts against the rule only the first hit of each subject of the first rule, and refuses past the limit", async () => {
    let now = 1_000_000;
    const limiter = createRateLimiter(database.db, { now: () => now, dialect: database.dialect });
    const once: RateRule = { name: "once", limit: 1, windowMs: 60_000, message: "", fixed: true };
    // Two keys, each hit twice (a double click): two counted, so a third key still passes a limit of 3.
    for (const key of ["k1", "k1", "k2", "k2", "k3"]) await limiter.hitFirstTime(once, key, rule, "shopper");
    const hits = async () => (await database.db.selectFrom("rate_limits").select("hits").where("key", "=", "test:shopper").executeTakeFirstOrThrow()).hits;
    expect(await hits()).toBe(3);
    await expect(limiter.hitFirstTime(once, "k4", rule, "shopper")).rejects.toMatchObject({ status: 429, retryAfterSeconds: 60 });
    // A repeat of a key already seen is not counted, so it is never refused either.
    await expect(limiter.hitFirstTime(once, "k1", rule, "shopper")).resolves.toBeUndefined();
    expect(await hits()).toBe(4);
    now += 60_000;
    await expect(limiter.hitFirstTime(once, "k5", rule, "shopper")).resolves.toBeUndefined();
    expect(await hits()).toBe(1);
  });

  it("undo takes one hit back, never below zero and never into a new window", async () => {
    let now = 1_000_000;
    const limiter = createRateLimiter(database.db, { now: () => now });
    for (let i = 0; i < 3; i++) await limiter.hit(rule, "undo");
    await limiter.undo(rule, "undo");
    await expect(limiter.hit(rule, "undo")).resolves.toBeUndefined();
    await expect(limiter.hit(rule, "undo")).rejects.toBeInstanceOf(TooManyRequestsError);

    await limiter.undo(rule, "nobody");
    for (let i = 0; i < 5; i++) await limiter.undo(rule, "undo");
    const hits = async () => (await database.db.selectFrom("rate_limits").select("hits").where("key", "=", "test:undo").executeTakeFirstOrThrow()).hits;
    expect(await hits()).toBe(0);
    await limiter.hit(rule, "undo");
    now += 60_000;
    await limiter.undo(rule, "undo");
    expect(await hits()).toBe(1);
  });

  it("counts every hit of many at once exactly", async () => {
    const limiter = createRateLimiter(database.db);
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, () => limiter.hit({ ...rule, limit: 5 }, "burst")),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(5);
    expect(results.filter((r) => r.status === "rejected")).toHaveLength(7);
  });

  it("multiplies every limit by its scale (RATE_LIMIT_SCALE), except a fixed one", async () => {
    const limiter = createRateLimiter(database.db, { scale: 3 });
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await limiter.tryHit(rule, "scaled"));
    expect(answers.filter(Boolean)).toHaveLength(9);
    expect(await limiter.tryHit({ ...rule, name: "claim", limit: 1, fixed: true }, "key")).toBe(true);
    expect(await limiter.tryHit({ ...rule, name: "claim", limit: 1, fixed: true }, "key")).toBe(false);
  });

  it("says how long to wait in whole minutes, rounded up, and in hours from two hours on", () => {
    expect(tryAgainIn(1)).toBe("Please try again in 1 minute.");
    expect(tryAgainIn(61)).toBe("Please try again in 2 minutes.");
    expect(tryAgainIn(3600)).toBe("Please try again in 60 minutes.");
    expect(tryAgainIn(2 * 3600)).toBe("Please try again in 2 hours.");
  });

  it("deletes the counters whose window has ended every so many hits, and keeps live ones", async () => {
    let now = 1_000_000;
    const limiter = createRateLimiter(database.db, { now: () => now, pruneEvery: 10 });
    await limiter.hit(rule, "old");
    await limiter.hit(rule, "old-too");
    now += 60_000;
    for (let i = 0; i < 7; i++) await limiter.tryHit({ ...rule, windowMs: 120_000 }, "live");
    expect(await database.db.selectFrom("rate_limits").select("key").execute()).toHaveLength(3);
    await limiter.tryHit({ ...rule, windowMs: 120_000 }, "live");
    const keys = await database.db.selectFrom("rate_limits").select("key").execute();
    expect(keys.map((row) => row.key)).toEqual(["test:live"]);
  });
});
