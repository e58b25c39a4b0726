import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Kysely } from "kysely";
import pg from "pg";
import { migrateToLatest } from "../server/migrations.ts";
import { openDatabase, type Database } from "../server/platform/db/client.ts";
import { describeSchema } from "../tests/support/schema-description.ts";

// Writes the schema a release's migration history makes, on SQLite and on PostgreSQL, as the fixtures
// server/schema-as-released.{sqlite,postgres}.json that server/schema-as-released.db.test.ts holds every later
// tree to: run it on a checkout of the release (tsx scripts/describe-schema-as-released.ts postgres://…), never
// on a tree whose history is to be proved against it. The PostgreSQL schema is made and dropped here.

const FIXTURES = path.join(import.meta.dirname, "..", "server");

async function describeAfterMigrating(database: Database) {
  try {
    await migrateToLatest(database);
    return await describeSchema(database.db as unknown as Kysely<unknown>, database.dialect);
  } finally {
    await database.destroy();
  }
}

async function main(): Promise<number> {
  const url = process.argv[2] ?? process.env.TEST_DATABASE_URL;
  if (!url?.startsWith("postgres")) {
    console.error("Usage: tsx scripts/describe-schema-as-released.ts postgres://… (or TEST_DATABASE_URL)");
    return 2;
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), "plant-shop-schema-"));
  try {
    const sqlite = await describeAfterMigrating(openDatabase({ sqliteFile: path.join(dir, "shop.db") }));
    writeFileSync(path.join(FIXTURES, "schema-as-released.sqlite.json"), `${JSON.stringify(sqlite, null, 2)}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const schema = `released_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`create schema ${schema}`);
    const postgres = await describeAfterMigrating(openDatabase({ databaseUrl: url, pgSchema: schema, poolSize: 2 }));
    writeFileSync(path.join(FIXTURES, "schema-as-released.postgres.json"), `${JSON.stringify(postgres, null, 2)}\n`);
  } finally {
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
  }
  return 0;
}

process.exitCode = await main();
