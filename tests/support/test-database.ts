import { randomBytes } from "node:crypto";
import { chmodSync, copyFileSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase, type Database, type Dialect } from "../../server/platform/db/client.ts";
import { migrateToLatest, migrateUpTo } from "../../server/migrations.ts";
import { databaseUrlFor, onServer } from "./migrated-template.ts";

// The composed history, for tests inside a module (which reach the composition root only through here, so that no
// module imports what is composed of it).
export { migrateToLatest, migrateUpTo } from "../../server/migrations.ts";

export const dialectUnderTest: Dialect = process.env.TEST_DB === "postgres" ? "postgres" : "sqlite";

export interface TestDatabase extends Database {
  /** On PostgreSQL, the URL of this test's own database, for a second pool on it as another server copy has. */
  postgresUrl?: string;
  /** Closes the connections and removes the file or database. */
  cleanup(): Promise<void>;
}

/**
 * A fresh, migrated database: a SQLite file of its own, or a PostgreSQL database of its own. `upTo` stops at that
 * migration (an earlier release's schema) instead of the latest; `empty` runs none. The latest schema starts as a
 * copy of the one the test run migrated once (tests/support/migrated-template.ts), when there is one.
 */
export async function createTestDatabase({ upTo, empty = false }: { upTo?: string; empty?: boolean } = {}): Promise<TestDatabase> {
  const fromTemplate = !upTo && !empty;
  const migrate = async (database: Database) => {
    if (!empty) await (upTo ? migrateUpTo(database, upTo) : migrateToLatest(database));
  };
  if (dialectUnderTest === "postgres") {
    const serverUrl = process.env.TEST_DATABASE_URL;
    if (!serverUrl) throw new Error("TEST_DB=postgres needs TEST_DATABASE_URL");
    const name = `plant_shop_test_${randomBytes(6).toString("hex")}`;
    const template = fromTemplate ? process.env.TEST_POSTGRES_TEMPLATE : undefined;
    await onServer(serverUrl, (client) => client.query(`create database ${name}${template ? ` template ${template}` : ""}`));
    const postgresUrl = databaseUrlFor(serverUrl, name);
    const database = openDatabase({ databaseUrl: postgresUrl, poolSize: 20 });
    if (!template) await migrate(database);
    return {
      ...database,
      postgresUrl,
      async cleanup() {
        await database.destroy();
        await onServer(serverUrl, (client) => client.query(`drop database ${name} with (force)`));
      },
    };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), "plant-shop-test-"));
  const file = path.join(dir, "shop.db");
  const template = fromTemplate ? process.env.TEST_SQLITE_TEMPLATE : undefined;
  if (template) {
    copyFileSync(template, file);
    chmodSync(file, 0o600);
  }
  const database = openDatabase({ sqliteFile: file });
  if (!template) await migrate(database);
  return {
    ...database,
    async cleanup() {
      await database.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
