import { sql } from "kysely";
import type { Database } from "../../server/platform/db/client.ts";

/**
 * Resolves once a transaction is kept waiting for `userId`'s shopper lock (inShopperTransaction), so that a test
 * lets the holder go only when the second one has provably reached the lock — not after a pause that is merely
 * likely to be long enough, which can only make an ordering test pass when the lock does nothing.
 *
 * PostgreSQL: the waiting transaction's advisory lock shows in pg_locks as not granted (polled, within a bound).
 * SQLite: there is one connection, handed out in turn; better-sqlite3 answers synchronously, so a transaction
 * that was not kept waiting would have run to its end within the microtasks before the next macrotask.
 *
 * `waiter` is the waiting transaction's promise: once it settles there is nothing left to wait for (it was not
 * kept waiting, and the order of events shows it), so the wait ends too.
 */
export function untilWaitingForShopperLock(database: Pick<Database, "db" | "dialect">, userId: string, waiter: Promise<unknown>, { within = 10_000 } = {}): Promise<void> {
  return untilWaiting(database, waiter, within, `the shopper lock of ${JSON.stringify(userId)}`, async () => {
    // A two-key advisory lock shows its second key as objid (an oid: the int4 read as unsigned), objsubid 2.
    const { rows } = await sql<{ waiting: number }>`
      select count(*)::int as waiting from pg_locks
      where locktype = 'advisory' and not granted and objsubid = 2
        and objid = (hashtext(${userId})::bigint & 4294967295)::text::oid
        and database = (select oid from pg_database where datname = current_database())`.execute(database.db);
    return (rows[0]?.waiting ?? 0) > 0;
  });
}

/**
 * Resolves once a transaction of this database waits for a row lock in a statement naming `table` (PostgreSQL:
 * pg_stat_activity's lock waits, polled within a bound), or `waiter` has settled; on SQLite as above.
 */
export function untilWaitingForRowLock(database: Pick<Database, "db" | "dialect">, table: string, waiter: Promise<unknown>, { within = 10_000 } = {}): Promise<void> {
  return untilWaiting(database, waiter, within, `a row of ${table}`, async () => {
    const { rows } = await sql<{ waiting: number }>`
      select count(*)::int as waiting from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock' and query like ${`%${table}%`}`.execute(database.db);
    return (rows[0]?.waiting ?? 0) > 0;
  });
}

async function untilWaiting(database: Pick<Database, "db" | "dialect">, waiter: Promise<unknown>, within: number, what: string, isWaiting: () => Promise<boolean>): Promise<void> {
  let settled = false;
  const waiterSettled = waiter.then(
    () => void (settled = true),
    () => void (settled = true),
  );
  if (database.dialect !== "postgres") {
    await Promise.race([new Promise((resolve) => setImmediate(resolve)), waiterSettled]);
    return;
  }
  const deadline = Date.now() + within;
  while (!settled) {
    if (await isWaiting()) return;
    if (Date.now() > deadline) throw new Error(`no transaction waited for ${what} within ${within} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
