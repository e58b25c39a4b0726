import { Migrator, sql, type Kysely, type Migration, type MigrationProvider, type MigrationResultSet } from "kysely";
import type { Database, Dialect } from "./client.ts";
import { catalogMigration } from "./migrations/0001-catalog.ts";
import { accountsMigration } from "./migrations/0002-accounts.ts";
import { ordersMigration } from "./migrations/0003-orders.ts";
import { hashedTokensMigration } from "./migrations/0005-hashed-tokens.ts";
import { mailOutboxMigration } from "./migrations/0006-mail-outbox.ts";
import { seedingRecordMigration } from "./migrations/0007-seeding-record.ts";
import { reviewsMigration } from "./migrations/0008-reviews.ts";
import { imageVariantsMigration } from "./migrations/0009-image-variants.ts";
import { adminCatalogMigration } from "./migrations/0010-admin-catalog.ts";
import { adminOverviewMigration } from "./migrations/0011-admin-overview.ts";
import { catalogSearchMigration } from "./migrations/0012-catalog-search.ts";
import { nameSearchMigration } from "./migrations/0013-name-search.ts";
import { orderNumbersContactDedupMigration } from "./migrations/0014-order-numbers-contact-dedup.ts";

/** What a migration needs to know to write the same schema on both databases. */
export interface MigrationContext {
  dialect: Dialect;
  timestamp: ReturnType<typeof sql.raw>;
}

// One history for both databases, listed in code so a bundled server needs no migration folder.
const history: Record<string, (context: MigrationContext) => Migration> = {
  "0001-catalog": catalogMigration,
  "0002-accounts": accountsMigration,
  "0003-orders": ordersMigration,
  "0005-hashed-tokens": hashedTokensMigration,
  "0006-mail-outbox": mailOutboxMigration,
  "0007-seeding-record": seedingRecordMigration,
  "0008-reviews": reviewsMigration,
  "0009-image-variants": imageVariantsMigration,
  "0010-admin-catalog": adminCatalogMigration,
  "0011-admin-overview": adminOverviewMigration,
  "0012-catalog-search": catalogSearchMigration,
  "0013-name-search": nameSearchMigration,
  "0014-order-numbers-contact-dedup": orderNumbersContactDedupMigration,
};

function providerFor(dialect: Dialect): MigrationProvider {
  const context: MigrationContext = {
    dialect,
    timestamp: sql.raw(dialect === "postgres" ? "timestamptz" : "text"),
  };
  return {
    getMigrations: async () =>
      Object.fromEntries(Object.entries(history).map(([name, make]) => [name, make(context)])),
  };
}

/** Every migration's name, oldest first. */
export const migrationNames: readonly string[] = Object.keys(history).sort();

export async function migrateToLatest(database: Pick<Database, "db" | "dialect">): Promise<string[]> {
  return migrate(database, (migrator) => migrator.migrateToLatest());
}

/** Migrates up to and including `name` only: for the upgrade test, which starts from an earlier release. */
export async function migrateUpTo(database: Pick<Database, "db" | "dialect">, name: string): Promise<string[]> {
  if (!migrationNames.includes(name)) throw new Error(`no migration named ${name}`);
  return migrate(database, (migrator) => migrator.migrateTo(name));
}

async function migrate({ db, dialect }: Pick<Database, "db" | "dialect">, run: (migrator: Migrator) => Promise<MigrationResultSet>): Promise<string[]> {
  // Kysely looks for its bookkeeping tables in every schema; name ours, or another schema's would be taken.
  const schema =
    dialect === "postgres" ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema : undefined;
  const migrator = new Migrator({
    db: db as Kysely<unknown>,
    provider: providerFor(dialect),
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await run(migrator);
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}
