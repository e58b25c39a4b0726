import type { Database as SQLiteDatabase, Statement } from "better-sqlite3";
import type { SqliteDatabase } from "kysely";

/**
 * Kysely's SQLite driver prepares every query anew (better-sqlite3's `prepare`: parsing and planning the SQL, about
 * a tenth of the server's CPU on the catalogue API). A statement can be run again with other parameters, so the
 * driver gets one prepared statement per SQL text, the most recently used `capacity` of them kept (queries with
 * `in (?, ?, …)` lists make many texts). Safe because Kysely runs one query at a time on its one SQLite connection
 * (docs/decisions/027).
 */
export function withStatementCache(sqlite: SQLiteDatabase, capacity = 500): SqliteDatabase {
  const statements = new Map<string, Statement>();
  return {
    close: () => {
      statements.clear();
      sqlite.close();
    },
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (statement) {
        // Most recently used last: the oldest goes first when the cache is full.
        statements.delete(sql);
      } else {
        statement = sqlite.prepare(sql);
        if (statements.size >= capacity) statements.delete(statements.keys().next().value as string);
      }
      statements.set(sql, statement);
      return statement;
    },
  };
}
