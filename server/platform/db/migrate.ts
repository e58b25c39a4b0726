import { Migrator, sql, type Kysely, type Migration, type MigrationProvider, type MigrationResultSet } from "kysely";
import type { Database, Dialect } from "./client.ts";

/** What a migration needs to know to write the same schema on both databases. */
export interface MigrationContext {
  dialect: Dialect;
  timestamp: ReturnType<typeof sql.raw>;
}

/**
 * One owner's share of a migration of the history: each module (and each platform folder with tables) writes the
 * changes to its own tables, under the name the history records. A name with several owners' parts is one
 * migration: its parts run in the order they are given, in one run of Kysely's migrator, and are undone in reverse.
 */
export interface MigrationPart {
  /** The name databases record for the migration this part belongs to (`0001-catalog`); names sort by age. */
  name: string;
  migration: (context: MigrationContext) => Migration;
}

/** Every migration's name in `parts`, oldest first. */
export function migrationNamesOf(parts: readonly MigrationPart[]): string[] {
  return [...new Set(parts.map((part) => part.name))].sort();
}

// One history for both databases, listed in code so a bundled server needs no migration folder.
function providerFor(parts: readonly MigrationPart[], dialect: Dialect): MigrationProvider {
  const context: MigrationContext = {
    dialect,
    timestamp: sql.raw(dialect === "postgres" ? "timestamptz" : "text"),
  };
  return {
    getMigrations: async () =>
      Object.fromEntries(
        migrationNamesOf(parts).map((name) => {
          const steps = parts.filter((part) => part.name === name).map((part) => part.migration(context));
          const migration: Migration = {
            async up(db) {
              for (const step of steps) await step.up(db);
            },
            async down(db) {
              for (const step of [...steps].reverse()) await step.down?.(db);
            },
          };
          return [name, migration];
        }),
      ),
  };
}

export async function migrateToLatest(database: Pick<Database, "db" | "dialect">, parts: readonly MigrationPart[]): Promise<string[]> {
  return migrate(database, parts, (migrator) => migrator.migrateToLatest());
}

/** Migrates up to and including `name` only: for the upgrade tests, which start from an earlier release. */
export async function migrateUpTo(database: Pick<Database, "db" | "dialect">, parts: readonly MigrationPart[], name: string): Promise<string[]> {
  if (!parts.some((part) => part.name === name)) throw new Error(`no migration named ${name}`);
  return migrate(database, parts, (migrator) => migrator.migrateTo(name));
}

async function migrate(
  { db, dialect }: Pick<Database, "db" | "dialect">,
  parts: readonly MigrationPart[],
  run: (migrator: Migrator) => Promise<MigrationResultSet>,
): Promise<string[]> {
  // Kysely looks for its bookkeeping tables in every schema; name ours, or another schema's would be taken.
  const schema =
    dialect === "postgres" ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema : undefined;
  const migrator = new Migrator({
    db: db as Kysely<unknown>,
    provider: providerFor(parts, dialect),
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await run(migrator);
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}
