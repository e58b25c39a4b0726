import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { migrateToLatest } from "../../server/migrations.ts";
import { openDatabase } from "../../server/platform/db/client.ts";

/**
 * Vitest's global setup for the database projects: migrates one database to the latest schema before any test
 * file runs, and every fresh test database starts as a copy of it (tests/support/test-database.ts). Running the
 * whole migration history took about a second and a half per test database on PostgreSQL (and several seconds
 * with other files migrating beside it), and hundreds of tests start from a fresh one; a copy takes a tenth of
 * a second. Test processes find the copy's source in the environment, which the workers inherit.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (project.name === "postgres") {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error("the postgres project needs TEST_DATABASE_URL");
    const name = `plant_shop_template_${randomBytes(6).toString("hex")}`;
    await onServer(url, (client) => client.query(`create database ${name}`));
    const database = openDatabase({ databaseUrl: databaseUrlFor(url, name) });
    try {
      await migrateToLatest(database);
    } finally {
      // PostgreSQL copies a database only while nobody is connected to it.
      await database.destroy();
    }
    process.env.TEST_POSTGRES_TEMPLATE = name;
    return async () => {
      await onServer(url, (client) => client.query(`drop database if exists ${name} with (force)`));
    };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), "plant-shop-template-"));
  const file = path.join(dir, "shop.db");
  const database = openDatabase({ sqliteFile: file });
  await migrateToLatest(database);
  // Closing the last connection moves the write-ahead log into the file, so the file alone is the whole database.
  await database.destroy();
  process.env.TEST_SQLITE_TEMPLATE = file;
  return async () => rmSync(dir, { recursive: true, force: true });
}

/** The same PostgreSQL server's URL with another database name. */
export function databaseUrlFor(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function onServer<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
