import { randomBytes } from "node:crypto";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import pino from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, dialectUnderTest } from "../../../tests/support/test-database.ts";
import { isConnectionLoss } from "./connection-loss.ts";
import { DatabaseUnavailableError } from "./connection-loss.ts";
import { createPgPool } from "./pg-pool.ts";

// The pool's own connections are ended here with pg_terminate_backend, each by the pid the pool's connection
// reported itself: never another test's.

interface Table {
  plants: { id: number; name: string };
}

/** Polls `condition` until it holds, for at most `timeoutMs`. */
async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

it("passes every other database error on as it was: a duplicate key is that, not an outage", async () => {
  const database = await createTestDatabase();
  try {
    const row = { key: `dup-${randomBytes(4).toString("hex")}`, hits: 1, resets_at: 10 };
    await database.db.insertInto("rate_limits").values(row).execute();
    const error = await database.db
      .insertInto("rate_limits")
      .values(row)
      .execute()
      .then(() => undefined, (caught: unknown) => caught);
    expect(error).toBeDefined();
    expect(error).not.toBeInstanceOf(DatabaseUnavailableError);
    expect(isConnectionLoss(error)).toBe(false);
    expect((error as { code?: string }).code).toMatch(dialectUnderTest === "postgres" ? /^23505$/ : /^SQLITE_CONSTRAINT/);
  } finally {
    await database.cleanup();
  }
});

if (dialectUnderTest === "postgres") {
  describe("the PostgreSQL pool when the database drops its connections", () => {
    const url = process.env.TEST_DATABASE_URL!;
    const schema = `pool_${randomBytes(6).toString("hex")}`;
    let admin: pg.Client;
    let pool: pg.Pool;
    let db: Kysely<Table>;
    let logLines: { level: number; msg: string }[];

    const terminate = (pid: number) => admin.query("select pg_terminate_backend($1)", [pid]);
    const backendPid = async (on: Kysely<Table> = db) => (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(on)).rows[0]!.pid;

    beforeEach(async () => {
      admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`create schema ${schema}`);
      await admin.query(`create table ${schema}.plants (id int primary key, name text not null)`);
      logLines = [];
      const logger = pino({ level: "info" }, { write: (line: string) => logLines.push(JSON.parse(line) as { level: number; msg: string }) });
      pool = createPgPool({ connectionString: url, max: 2, pgSchema: schema, connectionTimeoutMs: 5_000, logger });
      db = new Kysely<Table>({ dialect: new PostgresDialect({ pool }) });
    });

    afterEach(async () => {
      await db.destroy();
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    });

    it("lives through an idle connection being terminated: the pool drops it, logs a warning, and the next query runs on a new one", async () => {
      const before = await backendPid();
      expect(pool.idleCount).toBe(1);
      await terminate(before);
      await until(() => pool.totalCount === 0, "the pool to drop the terminated connection");
      expect(logLines).toContainEqual(expect.objectContaining({ level: 40, msg: "database: an idle connection was closed by the server" }));
      const after = await backendPid();
      expect(after).not.toBe(before);
    });

    it("refuses a transaction whose connection is terminated in its middle with a 503, writes nothing, and never reuses that connection", async () => {
      let pidInside = 0;
      const attempt = db.connection().execute(async (connection) => {
        await sql`begin`.execute(connection);
        try {
          await connection.insertInto("plants").values({ id: 1, name: "Fern" }).execute();
          pidInside = await backendPid(connection);
          await terminate(pidInside);
          // What checkout does next in its transaction: another statement, then COMMIT.
          await until(async () => (await admin.query("select 1 from pg_stat_activity where pid = $1", [pidInside])).rowCount === 0, "the backend to end");
          await connection.insertInto("plants").values({ id: 2, name: "Moss" }).execute();
          await sql`commit`.execute(connection);
        } catch (error) {
          await sql`rollback`.execute(connection).catch(() => undefined);
          throw error;
        }
      });
      const error = await attempt.then(() => undefined, (caught: unknown) => caught);
      expect(error).toBeInstanceOf(DatabaseUnavailableError);
      expect(error).toMatchObject({ status: 503, message: "The shop is briefly unavailable. Please try again in a moment." });
      expect((await admin.query(`select count(*)::int as n from ${schema}.plants`)).rows[0]).toEqual({ n: 0 });
      // Every connection the pool hands out afterwards is a live one.
      const pids = await Promise.all([backendPid(), backendPid(), backendPid()]);
      expect(pids).not.toContain(pidInside);
      expect(await db.selectFrom("plants").selectAll().execute()).toEqual([]);
    });

    it("refuses with a 503 when no connection can be opened, and says so in the log once", async () => {
      const nowhere = new URL(url);
      nowhere.port = "1"; // nothing listens on port 1
      const unreachable = createPgPool({ connectionString: nowhere.href, max: 2, connectionTimeoutMs: 2_000, logger: pino({ level: "info" }, { write: (line: string) => logLines.push(JSON.parse(line) as { level: number; msg: string }) }) });
      const lost = new Kysely<Table>({ dialect: new PostgresDialect({ pool: unreachable }) });
      try {
        for (let i = 0; i < 3; i++) {
          const error = await lost
            .selectFrom("plants")
            .selectAll()
            .execute()
            .then(() => undefined, (caught: unknown) => caught);
          expect(error).toBeInstanceOf(DatabaseUnavailableError);
          expect((error as DatabaseUnavailableError).cause).toMatchObject({ code: "ECONNREFUSED" });
        }
        expect(logLines.filter((line) => line.msg.startsWith("database unreachable"))).toHaveLength(1);
      } finally {
        await lost.destroy();
      }
    });
  });
}
