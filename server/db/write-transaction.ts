import { sql, type Kysely } from "kysely";
import type { Database } from "./client.ts";
import type { DB } from "./schema.ts";

/**
 * A transaction that takes the write lock at its start, so that no other writer can interleave with it:
 * `BEGIN IMMEDIATE` on SQLite; on PostgreSQL an ordinary transaction, in which the caller locks the rows it
 * will change (SELECT … FOR UPDATE, in a fixed order so that two transactions cannot deadlock).
 */
export async function inWriteTransaction<T>({ db, dialect }: Pick<Database, "db" | "dialect">, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  if (dialect === "postgres") return db.transaction().execute(work);
  return db.connection().execute(async (connection) => {
    await sql`begin immediate`.execute(connection);
    try {
      const result = await work(connection);
      await sql`commit`.execute(connection);
      return result;
    } catch (error) {
      await sql`rollback`.execute(connection);
      throw error;
    }
  });
}

/** True for a unique-constraint violation on either database. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE";
}
