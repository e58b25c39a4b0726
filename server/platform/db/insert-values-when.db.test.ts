import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database.ts";
import { insertValuesWhen } from "./insert-values-when.ts";

let database: TestDatabase;
beforeEach(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  await database.cleanup();
});

// Past 2^31: each parameter must arrive with its column's type (bigint here), not text nor integer.
const resetsAt = 2 ** 40;
const counted = { key: "counted", hits: 1, resets_at: resetsAt };

async function rows() {
  const found = await database.db.selectFrom("rate_limits").selectAll().orderBy("key").execute();
  return found.map((row) => ({ key: row.key, hits: Number(row.hits), resets_at: Number(row.resets_at) }));
}

/** The query of `when`: has a row only once the "gate" counter exists. */
const gate = () => database.db.selectFrom("rate_limits").select("key").where("key", "=", "gate");

describe("insertValuesWhen", () => {
  it("inserts the values, each as its column's type, when the query has a row", async () => {
    await database.db.insertInto("rate_limits").values({ key: "gate", hits: 5, resets_at: 1 }).execute();
    await insertValuesWhen(database.db.insertInto("rate_limits"), counted, gate()).execute();
    expect(await rows()).toEqual([
      { key: "counted", hits: 1, resets_at: resetsAt },
      { key: "gate", hits: 5, resets_at: 1 },
    ]);
  });

  it("inserts nothing when the query has no row", async () => {
    const result = await insertValuesWhen(database.db.insertInto("rate_limits"), counted, gate()).executeTakeFirst();
    expect(Number(result.numInsertedOrUpdatedRows)).toBe(0);
    expect(await rows()).toEqual([]);
  });

  it("without a query, inserts the values as they are", async () => {
    await insertValuesWhen(database.db.insertInto("rate_limits"), counted).execute();
    expect(await rows()).toEqual([{ key: "counted", hits: 1, resets_at: resetsAt }]);
  });

  it("keeps the conflict handling and returning of the builder it returns", async () => {
    await database.db.insertInto("rate_limits").values({ key: "gate", hits: 5, resets_at: 1 }).execute();
    const upsert = () =>
      insertValuesWhen(database.db.insertInto("rate_limits"), counted, gate())
        .onConflict((conflict) => conflict.column("key").doUpdateSet({ hits: sql`rate_limits.hits + 1` }))
        .returning("hits")
        .executeTakeFirstOrThrow();
    expect(Number((await upsert()).hits)).toBe(1);
    expect(Number((await upsert()).hits)).toBe(2);
    expect(await rows()).toEqual([
      { key: "counted", hits: 2, resets_at: resetsAt },
      { key: "gate", hits: 5, resets_at: 1 },
    ]);
  });
});
