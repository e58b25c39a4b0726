import { closeSync, openSync } from "node:fs";
import SQLite from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import { withStatementCache } from "./statement-cache.ts";
import { loadPg } from "./load-pg.ts";
import { withPreparedStatements } from "./pg-statements.ts";
import type { DB } from "./schema.ts";

export type Dialect = "sqlite" | "postgres";

export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  destroy(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://… selects PostgreSQL; otherwise the SQLite file is used. */
  databaseUrl?: string | undefined;
  sqliteFile?: string;
  /** PostgreSQL schema to work in (tests give each file its own). */
  pgSchema?: string;
  poolSize?: number;
}

export function openDatabase(options: DatabaseOptions): Database {
  if (options.databaseUrl) {
    const pool = withPreparedStatements(
      new (loadPg().Pool)({
        connectionString: options.databaseUrl,
        max: options.poolSize ?? 10,
        ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
      }),
    );
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: "postgres", destroy: () => db.destroy() };
  }
  const file = options.sqliteFile ?? ":memory:";
  // Created 0600 before SQLite opens it: SQLite gives its -wal and -shm files the database file's mode.
  if (file !== ":memory:") closeSync(openSync(file, "a", 0o600));
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("synchronous = NORMAL");
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return { db, dialect: "sqlite", destroy: () => db.destroy() };
}
