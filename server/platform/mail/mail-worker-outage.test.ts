import { Kysely, PostgresDialect } from "kysely";
import type Pg from "pg";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { DatabaseUnavailableError } from "../db/connection-loss.ts";
import type { DB } from "../db/schema.ts";
import { createSealer } from "../sealed-values.ts";
import { createMailOutbox, startMailWorker } from "./mail-outbox.ts";
import type { Mailer } from "./mailer.ts";

/**
 * A PostgreSQL pool that the test switches between away (every connection refused, as the shop's pool reports
 * it) and back (every query answers no rows): the worker's loop without a database server.
 */
function switchablePool() {
  const state = { away: true, connects: 0 };
  const client = { query: () => Promise.resolve({ command: "UPDATE", rowCount: 0, rows: [] }), release: () => undefined };
  const pool = {
    connect: () => {
      state.connects++;
      return state.away ? Promise.reject(new DatabaseUnavailableError(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }))) : Promise.resolve(client);
    },
    end: () => Promise.resolve(),
  };
  return { state, pool: pool as unknown as Pg.Pool };
}

async function until(condition: () => boolean, what: string) {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe("the mail worker while the database is away", () => {
  it("says so once at warn however many polls fail, never at error, and says once that it reaches the database again", async () => {
    const lines: { level: number; msg: string }[] = [];
    const logger = pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line) as { level: number; msg: string }) });
    const { state, pool } = switchablePool();
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    const mailer: Mailer = { kind: "outbox", send: () => Promise.reject(new Error("nothing is queued")), close: () => Promise.resolve() };
    const worker = startMailWorker({ database: { db, dialect: "postgres" }, mailer, outbox: createMailOutbox(createSealer("a".repeat(40))), logger, pollIntervalMs: 1 });
    try {
      await until(() => state.connects >= 20, "twenty failed polls");
      expect(lines.map((line) => [line.level, line.msg])).toEqual([[40, "the mail worker cannot reach the database; it tries again at each poll"]]);
      state.away = false;
      const back = state.connects;
      await until(() => state.connects >= back + 5, "five polls with the database back");
      expect(lines.map((line) => [line.level, line.msg])).toEqual([
        [40, "the mail worker cannot reach the database; it tries again at each poll"],
        [30, "the mail worker reaches the database again"],
      ]);
    } finally {
      await worker.stop(1_000);
      await db.destroy();
    }
  });
});
