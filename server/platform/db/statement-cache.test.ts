import SQLite from "better-sqlite3";
import { expect, it } from "vitest";
import { withStatementCache } from "./statement-cache.ts";

it("prepares each SQL text once, runs it again with other parameters, and keeps at most its capacity", () => {
  const sqlite = new SQLite(":memory:");
  let prepared = 0;
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((sql: string) => {
    prepared++;
    return prepare(sql);
  }) as typeof sqlite.prepare;
  const db = withStatementCache(sqlite, 2);
  expect(db.prepare("select ? as n").all([1])).toEqual([{ n: 1 }]);
  expect(db.prepare("select ? as n").all([2])).toEqual([{ n: 2 }]);
  expect(prepared).toBe(1);
  db.prepare("select 1");
  db.prepare("select ? as n"); // used: now the most recent
  db.prepare("select 2"); // full: "select 1", the least recently used, goes
  expect(prepared).toBe(3);
  db.prepare("select ? as n");
  expect(prepared).toBe(3);
  db.prepare("select 1");
  expect(prepared).toBe(4);
  db.close();
});
