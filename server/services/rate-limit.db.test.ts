import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../tests/support/test-database.ts";
import { TooManyRequestsError } from "./errors.ts";
import { createRateLimiter, type RateRule } from "./rate-limit.ts";

let database: TestDatabase;
beforeEach(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  await database.cleanup();
});

const rule: RateRule = { name: "test", limit: 3, windowMs: 60_000, message: "Slow down" };

describe("rate limiter", () => {
  it("lets the limit through, refuses the next with the time to wait, and starts again after the window", async () => {
    let now = 1_000_000;
    const limiter = createRateLimiter(database.db, () => now);
    for (let i = 0; i < 3; i++) await limiter.hit(rule, "1.2.3.4");
    now += 15_000;
    const refusal = await limiter.hit(rule, "1.2.3.4").catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(TooManyRequestsError);
    expect(refusal).toMatchObject({ status: 429, message: "Slow down", retryAfterSeconds: 45 });
    await limiter.hit(rule, "5.6.7.8");
    now += 45_000;
    await expect(limiter.hit(rule, "1.2.3.4")).resolves.toBeUndefined();
  });

  it("check refuses once the limit is used up, without counting itself", async () => {
    const limiter = createRateLimiter(database.db);
    for (let i = 0; i < 5; i++) await limiter.check(rule, "peek");
    for (let i = 0; i < 3; i++) await limiter.hit(rule, "peek");
    await expect(limiter.check(rule, "peek")).rejects.toBeInstanceOf(TooManyRequestsError);
    await expect(limiter.check(rule, "someone-else")).resolves.toBeUndefined();
  });

  it("counts every hit of many at once exactly", async () => {
    const limiter = createRateLimiter(database.db);
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, () => limiter.hit({ ...rule, limit: 5 }, "burst")),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(5);
    expect(results.filter((r) => r.status === "rejected")).toHaveLength(7);
  });
});
