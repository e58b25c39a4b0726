import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { openDatabase, type Database, type Dialect } from "../../server/platform/db/client.ts";
import { migrateToLatest, migrateUpTo } from "../../server/migrations.ts";

// The composed history, for tests inside a module (which reach the composition root only through here, so that no
// module imports what is composed of it).
export { migrateToLatest, migrateUpTo } from "../../server/migrations.ts";

export const dialectUnderTest: Dialect = process.env.TEST_DB === "postgres" ? "postgres" : "sqlite";

export interface TestDatabase extends Database {
  /** Closes the connections and removes the file or schema. */
  cleanup(): Promise<void>;
}

/**
 * A fresh, migrated database: a SQLite file of its own, or a PostgreSQL schema of its own. `upTo` stops at that
 * migration (an earlier release's schema) instead of the latest; `empty` runs none.
 */
export async function createTestDatabase({ upTo, empty = false }: { upTo?: string; empty?: boolean } = {}): Promise<TestDatabase> {
  const migrate = async (database: Database) => {
    if (!empty) await (upTo ? migrateUpTo(database, upTo) : migrateToLatest(database));
  };
  if (dialectUnderTest === "postgres") {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error("TEST_DB=postgres needs TEST_DATABASE_URL");
    const schema = `test_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const database = openDatabase({ databaseUrl: url, pgSchema: schema, poolSize: 20 });
    await migrateBesideOtherTests(() => migrate(database));
    return {
      ...database,
      async cleanup() {
        await database.destroy();
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        await client.query(`drop schema ${schema} cascade`);
        await client.end();
      },
    };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), "plant-shop-test-"));
  const database = openDatabase({ sqliteFile: path.join(dir, "shop.db") });
  await migrate(database);
  return {
    ...database,
    async cleanup() {
      await database.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Kysely's migrator looks at the tables of every schema (its introspector calls functions per schema); when
 * another test file drops its schema at that moment, PostgreSQL answers 'schema … does not exist' (3F000), or
 * 'relation "<their schema>.<table>" does not exist' (42P01) for a table of that schema, or 'column … of relation
 * … does not exist' (42703) for a column of a table going with it. That look comes before any migration runs, and
 * each migration is a transaction, so trying again is safe (a migration's own such error comes back every time).
 */
export async function migrateBesideOtherTests(migrate: () => Promise<unknown>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await migrate();
      return;
    } catch (error) {
      if (attempt === 5 || !isAnotherTestsDroppedSchema(error)) throw error;
    }
  }
}

function isAnotherTestsDroppedSchema(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code === "3F000") return true;
  // Only a table of another test file's schema ("test_…", qualified): a missing table of one's own is a real failure.
  if (code === "42703") return typeof message === "string" && /^column "[^"]+" of relation "[^"]+" does not exist$/.test(message);
  return code === "42P01" && typeof message === "string" && /^relation "test_[0-9a-f]+\.[a-z_]+" does not exist$/.test(message);
}
