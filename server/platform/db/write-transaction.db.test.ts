import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { untilWaitingForShopperLock } from "../../../tests/support/lock-waits.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database.ts";
import { afterCommit, inShopperTransaction } from "./write-transaction.ts";

let database: TestDatabase;
beforeEach(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  await database.cleanup();
});

const counters = () => database.db.selectFrom("rate_limits").select("key").orderBy("key").execute();

describe("inShopperTransaction", () => {
  // A plain id goes into the SQL with BEGIN; any other as a parameter, in a statement of its own (PostgreSQL).
  for (const userId of ["c0ffee-Shopper_01", "o'brien\\x; --"]) {
    it(`runs one shopper's transactions one at a time (id ${JSON.stringify(userId)})`, async () => {
      const events: string[] = [];
      let holding: () => void = () => {};
      const held = new Promise<void>((resolve) => (holding = resolve));
      let letGo: () => void = () => {};
      const released = new Promise<void>((resolve) => (letGo = resolve));
      const first = inShopperTransaction(database, userId, async () => {
        holding();
        await released;
        events.push("first done");
      });
      await held;
      const second = inShopperTransaction(database, userId, async () => void events.push("second started"));
      // The first lets go only once the second is waiting for the lock, or has run (then the order shows it).
      try {
        await untilWaitingForShopperLock(database, userId, second);
      } finally {
        letGo();
      }
      await Promise.all([first, second]);
      expect(events).toEqual(["first done", "second started"]);
    });
  }

  it("commits what the work wrote, and then runs the hooks it left with afterCommit", async () => {
    const hooks: string[] = [];
    const answer = await inShopperTransaction(database, "c0ffee-Shopper_01", async (trx) => {
      await trx.insertInto("rate_limits").values({ key: "written", hits: 1, resets_at: 1 }).execute();
      afterCommit(trx, () => hooks.push("after commit"));
      expect(hooks).toEqual([]);
      return 42;
    });
    expect(answer).toBe(42);
    expect(hooks).toEqual(["after commit"]);
    expect(await counters()).toEqual([{ key: "written" }]);
  });

  it("rolls back what the work wrote when it throws, runs no hook, and takes the lock again afterwards", async () => {
    const hooks: string[] = [];
    const failing = inShopperTransaction(database, "c0ffee-Shopper_01", async (trx) => {
      await trx.insertInto("rate_limits").values({ key: "half-written", hits: 1, resets_at: 1 }).execute();
      afterCommit(trx, () => hooks.push("after commit"));
      throw new Error("out of stock");
    });
    await expect(failing).rejects.toThrow("out of stock");
    expect(hooks).toEqual([]);
    expect(await counters()).toEqual([]);
    expect(await inShopperTransaction(database, "c0ffee-Shopper_01", async () => "locked again")).toBe("locked again");
  });
});
