import { readFileSync } from "node:fs";
import path from "node:path";
import type { Kysely } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { buildFromDescription, describeSchema, type SchemaDescription } from "../tests/support/schema-description.ts";
import { createTestDatabase, dialectUnderTest, type TestDatabase } from "../tests/support/test-database.ts";
import { migrateToLatest, migrationNames } from "./migrations.ts";

// Each owner keeps its own tables' migrations, yet databases made by a release record one history of names and
// hold one schema: the history as the owners now write it must make exactly that schema under exactly those
// names, or a shop upgrading from the release would be refused (Kysely stops at a recorded name it does not know)
// or left with a schema the code does not expect. The fixtures were written by scripts/describe-schema-as-released.ts
// on the release.

const released: SchemaDescription = JSON.parse(
  readFileSync(path.join(import.meta.dirname, `schema-as-released.${dialectUnderTest}.json`), "utf8"),
);
const lastReleased = released.migrations.at(-1)!;

let database: TestDatabase | undefined;
afterEach(async () => {
  await database?.cleanup();
});

describe(`the migration history against the release's schema (${dialectUnderTest})`, () => {
  it("keeps every released migration's name, in the released order, before any later one", () => {
    expect(migrationNames.slice(0, released.migrations.length)).toEqual(released.migrations);
  });

  it("makes exactly the released schema, recording exactly the released names, on a new database", async () => {
    database = await createTestDatabase({ upTo: lastReleased });
    expect(await describeSchema(database.db as unknown as Kysely<unknown>, database.dialect)).toEqual(released);
  });

  it("applies nothing released again to a database migrated by the released history, and changes none of it", async () => {
    database = await createTestDatabase({ upTo: lastReleased });
    const applied = await migrateToLatest(database);
    expect(applied).toEqual(migrationNames.slice(released.migrations.length));
    if (applied.length === 0) expect(await describeSchema(database.db as unknown as Kysely<unknown>, database.dialect)).toEqual(released);
  });

  it("takes a database built from the released schema and names, by no migration of today's, as fully migrated", async () => {
    database = await createTestDatabase({ empty: true });
    const db = database.db as unknown as Kysely<unknown>;
    await buildFromDescription(db, released);
    expect(await describeSchema(db, database.dialect)).toEqual(released);

    const applied = await migrateToLatest(database);
    expect(applied).toEqual(migrationNames.slice(released.migrations.length));
    if (applied.length === 0) expect(await describeSchema(db, database.dialect)).toEqual(released);
  });
});
