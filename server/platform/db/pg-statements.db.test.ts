import pg from "pg";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, dialectUnderTest, type TestDatabase } from "../../../tests/support/test-database.ts";
import { plannedPerRun, withPreparedStatements } from "./pg-statements.ts";

let database: TestDatabase;
beforeEach(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  await database.cleanup();
});

// On SQLite the same reuse is the statement cache's (statement-cache.ts); on PostgreSQL, named prepared statements.
it("answers each run of one query with that run's own rows when it runs again with other values", async () => {
  const { db } = database;
  await db.insertInto("rate_limits").values([{ key: "fern", hits: 1, resets_at: 10 }, { key: "moss", hits: 2, resets_at: 20 }]).execute();
  const hitsOf = (key: string) => db.selectFrom("rate_limits").select("hits").where("key", "=", key).executeTakeFirst();
  for (let round = 0; round < 3; round++) {
    expect(await hitsOf("fern")).toEqual({ hits: 1 });
    expect(await hitsOf("moss")).toEqual({ hits: 2 });
    expect(await hitsOf("ivy")).toBeUndefined();
  }
});

if (dialectUnderTest === "postgres") {
  describe("prepared statements on PostgreSQL", () => {
    /** What the connection has prepared, as PostgreSQL lists it. */
    const preparedOn = async (client: { query: (text: string) => Promise<pg.QueryResult> }) =>
      (await client.query("select name, statement from pg_prepared_statements order by name")).rows as { name: string; statement: string }[];

    it("parses a parameterised query once per connection and runs it by name after that", async () => {
      const rows = await database.db.connection().execute(async (connection) => {
        for (const key of ["fern", "moss", "ivy"]) await connection.selectFrom("rate_limits").select("hits").where("key", "=", key).execute();
        return (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(connection)).rows;
      });
      expect(rows.filter((row) => row.statement.includes('from "rate_limits"'))).toHaveLength(1);
    });

    it("lets a lookup by key keep one generic plan after five runs, and plans a text marked plannedPerRun for each run's values, never preparing it", async () => {
      const plans = await database.db.connection().execute(async (connection) => {
        for (let run = 0; run < 7; run++) {
          await connection.selectFrom("rate_limits").select("hits").where("key", "=", `fern-${run}`).execute();
          await connection.selectFrom("rate_limits").select("hits").where(sql<boolean>`${plannedPerRun} key like ${`moss-${run}%`}`).execute();
        }
        return (await sql<{ statement: string; generic_plans: string }>`select statement, generic_plans from pg_prepared_statements`.execute(connection)).rows;
      });
      const lookup = plans.filter((plan) => plan.statement.includes('"key" = $1'));
      expect(lookup).toHaveLength(1);
      expect(Number(lookup[0]!.generic_plans)).toBeGreaterThan(0);
      expect(plans.filter((plan) => plan.statement.includes("planned per run"))).toEqual([]);
    });

    it("prepares only the first texts up to its capacity on a connection, and still runs the later ones", async () => {
      const pool = withPreparedStatements(new pg.Pool({ connectionString: process.env.TEST_DATABASE_URL, max: 1 }), 2);
      try {
        const client = await pool.connect();
        try {
          const answers = [];
          for (const text of ["select $1::int + 1 as n", "select $1::int + 2 as n", "select $1::int + 3 as n"]) answers.push((await client.query(text, [10])).rows[0]);
          expect(answers).toEqual([{ n: 11 }, { n: 12 }, { n: 13 }]);
          expect((await preparedOn(client)).map((row) => row.statement)).toEqual(["select $1::int + 1 as n", "select $1::int + 2 as n"]);
        } finally {
          client.release();
        }
      } finally {
        await pool.end();
      }
    });

    it("after a table gains a column, refuses the stale prepared select * once and prepares it afresh on the next run", async () => {
      const pool = withPreparedStatements(new pg.Pool({ connectionString: process.env.TEST_DATABASE_URL, max: 1 }));
      try {
        const client = await pool.connect();
        try {
          await client.query("create temporary table plants (id int)");
          await client.query("insert into plants values (1)");
          const read = () => client.query("select * from plants where id = $1", [1]);
          expect((await read()).rows).toEqual([{ id: 1 }]);
          await client.query("alter table plants add column name text default 'fern'");
          await expect(read()).rejects.toMatchObject({ code: "0A000" });
          expect((await read()).rows).toEqual([{ id: 1, name: "fern" }]);
        } finally {
          client.release();
        }
      } finally {
        await pool.end();
      }
    });
  });
}
