import { closeSync, openSync } from "node:fs";
import SQLite from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import { withStatementCache } from "./statement-cache.ts";
import type { Logger } from "pino";
import { createPgPool } from "./pg-pool.ts";
import type { DB } from "./schema.ts";
import type { PoolUse } from "../metrics/metrics.ts";

export type Dialect = "sqlite" | "postgres";

export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  /** PostgreSQL's connection pool, for its figures in the metrics; none on SQLite. */
  pool?: PoolUse;
  destroy(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://… selects PostgreSQL; otherwise the SQLite file is used. */
  databaseUrl?: string | undefined;
  sqliteFile?: string;
  /** PostgreSQL schema to work in (tests give each file its own). */
  pgSchema?: string;
  poolSize?: number;
  /**
   * How long a query waits for a PostgreSQL connection before it is refused as the database being unavailable
   * (503): a free one from the pool, or a new one opened. DEFAULT_CONNECT_TIMEOUT_MS unless given.
   */
  connectTimeoutMs?: number;
  /** Where lost connections and outages are reported (warn), and their end (info). */
  logger?: Logger;
}

/** See DatabaseOptions.connectTimeoutMs and docs/decisions/032. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;

export function openDatabase(options: DatabaseOptions): Database {
  if (options.databaseUrl) {
    const pool = createPgPool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      pgSchema: options.pgSchema,
      connectionTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      logger: options.logger,
    });
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: "postgres", pool, destroy: () => db.destroy() };
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
