import { sql } from "kysely";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database.ts";
import { compiledOnce } from "./compiled-once.ts";

let database: TestDatabase;
beforeEach(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  await database.cleanup();
});

it("builds a query once and runs it with each call's values, keeping the constants it was built with", async () => {
  const { db } = database;
  await db
    .insertInto("rate_limits")
    .values([
      { key: "fern", hits: 1, resets_at: 10 },
      { key: "moss", hits: 2, resets_at: 20 },
      { key: "moss-2", hits: 7, resets_at: 20 },
    ])
    .execute();
  let builds = 0;
  const hitsAbove = compiledOnce((from, { prefix, min }: { prefix: string; min: number }) => {
    builds++;
    return from
      .selectFrom("rate_limits")
      .select(["key", "hits"])
      .where("key", "like", sql<string>`${prefix} || '%'`)
      .where("hits", ">=", min)
      .where("resets_at", "<", 100)
      .orderBy("key");
  });
  expect(await hitsAbove.execute(db, { prefix: "moss", min: 2 })).toEqual([
    { key: "moss", hits: 2 },
    { key: "moss-2", hits: 7 },
  ]);
  expect(await hitsAbove.execute(db, { prefix: "moss", min: 3 })).toEqual([{ key: "moss-2", hits: 7 }]);
  expect(await hitsAbove.executeTakeFirst(db, { prefix: "fern", min: 1 })).toEqual({ key: "fern", hits: 1 });
  expect(await hitsAbove.executeTakeFirst(db, { prefix: "ivy", min: 1 })).toBeUndefined();
  // Inside a transaction too: its connection compiles for the same dialect, so the query is not built again.
  await db.transaction().execute(async (trx) => expect(await hitsAbove.execute(trx, { prefix: "fern", min: 0 })).toHaveLength(1));
  expect(builds).toBe(1);
});

it("puts a value used twice in both of its places", async () => {
  const { db } = database;
  const twice = compiledOnce((from, { n }: { n: number }) => from.selectNoFrom([sql<number>`${n} + 0`.as("a"), sql<number>`${n} * 2`.as("b")]));
  const row = await twice.executeTakeFirst(db, { n: 21 });
  expect([Number(row?.a), Number(row?.b)]).toEqual([21, 42]);
});
