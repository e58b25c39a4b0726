import { sql, type Kysely } from "kysely";
import type { Database } from "./client.ts";
import type { DB } from "./schema.ts";

/**
 * A transaction that takes the write lock at its start, so that no other writer can interleave with it:
 * `BEGIN IMMEDIATE` on SQLite; on PostgreSQL an ordinary transaction, in which the caller locks the rows it
 * will change (SELECT … FOR UPDATE, in a fixed order so that two transactions cannot deadlock).
 */
export async function inWriteTransaction<T>(database: Pick<Database, "db" | "dialect">, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  return inTransactionOpenedBy(database, database.dialect === "postgres" ? "begin" : "begin immediate", work);
}

/**
 * Runs `work` on one connection between `opening` (BEGIN, and what must come first) and COMMIT, or ROLLBACK when
 * it throws; then the hooks afterCommit collected. Opened by hand rather than by Kysely's transaction(), so that
 * the opening can carry a first statement in the same round trip (a simple query of several statements).
 */
async function inTransactionOpenedBy<T>({ db }: Pick<Database, "db">, opening: string, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  const hooks: (() => void)[] = [];
  const result = await db.connection().execute(async (connection) => {
    await sql.raw(opening).execute(connection);
    try {
      commitHooks.set(connection, hooks);
      const value = await work(connection);
      await sql`commit`.execute(connection);
      return value;
    } catch (error) {
      await sql`rollback`.execute(connection);
      throw error;
    }
  });
  for (const hook of hooks) hook();
  return result;
}

const commitHooks = new WeakMap<Kysely<DB>, (() => void)[]>();

/**
 * Runs `hook` once what `db` wrote is committed: after the transaction of inWriteTransaction that `db` belongs
 * to (never, when it rolls back), or at once for the database itself, whose statements commit one by one.
 */
export function afterCommit(db: Kysely<DB>, hook: () => void): void {
  const hooks = commitHooks.get(db);
  if (hooks) hooks.push(hook);
  else hook();
}

// The first key of the two-key advisory locks this shop takes on PostgreSQL ('PS' + 1), so they never meet
// another application's single-key locks.
const SHOPPER_LOCKS = 0x5053_0001;

/**
 * A write transaction holding one shopper's lock: their cart changes and checkouts happen one at a time,
 * so a checkout never empties lines it did not read and two adds never both pass the stock check.
 * SQLite's write transactions are serial already; on PostgreSQL a transaction-scoped advisory lock per
 * shopper, taken before any row lock, so it cannot take part in a deadlock.
 */
export async function inShopperTransaction<T>(database: Pick<Database, "db" | "dialect">, userId: string, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  if (database.dialect !== "postgres") return inWriteTransaction(database, work);
  // The lock is the transaction's first statement, so it goes with BEGIN in one round trip: one of the few a
  // checkout or an add to the cart makes (decision 009). The id is written into the SQL only when it is a plain
  // one (Better Auth's ids and UUIDs are); any other goes as a parameter, in a statement of its own.
  if (PLAIN_ID.test(userId)) return inTransactionOpenedBy(database, `begin; select pg_advisory_xact_lock(${SHOPPER_LOCKS}, hashtext('${userId}'))`, work);
  return inTransactionOpenedBy(database, "begin", async (trx) => {
    await sql`select pg_advisory_xact_lock(${SHOPPER_LOCKS}, hashtext(${userId}))`.execute(trx);
    return work(trx);
  });
}

/** Letters, digits, '-' and '_': an id that needs no quoting inside a SQL string. */
const PLAIN_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** True for a unique-constraint violation on either database. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE";
}
