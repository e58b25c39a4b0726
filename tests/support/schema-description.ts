import { sql, type Kysely } from "kysely";
import type { Dialect } from "../../server/platform/db/client.ts";

/**
 * The schema a migration history leaves, written so that two databases made by the same history describe
 * themselves identically and any difference in a table, column, constraint, index, trigger or function shows:
 * on SQLite every row of sqlite_master; on PostgreSQL the catalogue of the one schema, with that schema's name
 * taken out of the definitions (each test file works in a schema of its own name). Every list is sorted.
 */
export type SchemaDescription = SqliteSchemaDescription | PostgresSchemaDescription;

export interface SqliteSchemaDescription {
  /** The migrations the database records as applied, in name order. */
  migrations: string[];
  sqliteMaster: Array<{ type: string; name: string; tbl_name: string; sql: string | null }>;
}

export interface PostgresSchemaDescription {
  migrations: string[];
  tables: Array<{ table_name: string; table_type: string }>;
  columns: Array<{
    table_name: string;
    column_name: string;
    ordinal_position: number;
    data_type: string;
    udt_name: string;
    is_nullable: string;
    column_default: string | null;
  }>;
  constraints: Array<{ table_name: string; name: string; type: string; definition: string }>;
  indexes: Array<{ table_name: string; name: string; definition: string }>;
  triggers: Array<{ table_name: string; name: string; definition: string }>;
  functions: Array<{ name: string; arguments: string; definition: string }>;
  sequences: Array<{ name: string; data_type: string }>;
}

export async function describeSchema(db: Kysely<unknown>, dialect: Dialect): Promise<SchemaDescription> {
  const migrations = (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)).rows.map((r) => r.name);
  if (dialect === "sqlite") {
    const master = await sql<SqliteSchemaDescription["sqliteMaster"][number]>`
      select type, name, tbl_name, sql from sqlite_master order by type, name`.execute(db);
    return { migrations, sqliteMaster: master.rows };
  }
  const schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]!.schema;
  const unqualified = (text: string) => text.replaceAll(new RegExp(`"?\\b${schema}\\b"?\\.`, "g"), "");
  const rows = async <R>(query: ReturnType<typeof sql<R>>) => (await query.execute(db)).rows;

  const tables = await rows(sql<PostgresSchemaDescription["tables"][number]>`
    select table_name, table_type from information_schema.tables where table_schema = ${schema} order by table_name`);
  const columns = await rows(sql<PostgresSchemaDescription["columns"][number]>`
    select table_name, column_name, ordinal_position::int as ordinal_position, data_type, udt_name, is_nullable, column_default
    from information_schema.columns where table_schema = ${schema} order by table_name, ordinal_position`);
  const constraints = await rows(sql<PostgresSchemaDescription["constraints"][number]>`
    select cl.relname as table_name, c.conname as name, c.contype::text as type, pg_get_constraintdef(c.oid) as definition
    from pg_constraint c join pg_class cl on cl.oid = c.conrelid join pg_namespace n on n.oid = cl.relnamespace
    where n.nspname = ${schema} order by cl.relname, c.conname`);
  const indexes = await rows(sql<PostgresSchemaDescription["indexes"][number]>`
    select tablename as table_name, indexname as name, indexdef as definition
    from pg_indexes where schemaname = ${schema} order by tablename, indexname`);
  const triggers = await rows(sql<PostgresSchemaDescription["triggers"][number]>`
    select cl.relname as table_name, t.tgname as name, pg_get_triggerdef(t.oid) as definition
    from pg_trigger t join pg_class cl on cl.oid = t.tgrelid join pg_namespace n on n.oid = cl.relnamespace
    where n.nspname = ${schema} and not t.tgisinternal order by cl.relname, t.tgname`);
  const functions = await rows(sql<PostgresSchemaDescription["functions"][number]>`
    select p.proname as name, pg_get_function_identity_arguments(p.oid) as arguments, pg_get_functiondef(p.oid) as definition
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = ${schema} order by p.proname, 2`);
  const sequences = await rows(sql<PostgresSchemaDescription["sequences"][number]>`
    select sequence_name as name, data_type from information_schema.sequences where sequence_schema = ${schema} order by sequence_name`);
  return {
    migrations,
    tables,
    columns: columns.map((c) => ({ ...c, column_default: c.column_default === null ? null : unqualified(c.column_default) })),
    constraints: constraints.map((c) => ({ ...c, definition: unqualified(c.definition) })),
    indexes: indexes.map((i) => ({ ...i, definition: unqualified(i.definition) })),
    triggers: triggers.map((t) => ({ ...t, definition: unqualified(t.definition) })),
    functions: functions.map((f) => ({ ...f, definition: unqualified(f.definition) })),
    sequences,
  };
}

/**
 * Makes the schema a description records, and records its migrations as applied, without running any migration:
 * a database as the release that was described left it, for proving that today's history takes such a database
 * as it is. `db` is a new, empty database (on PostgreSQL its own schema, first on the search path).
 */
export async function buildFromDescription(db: Kysely<unknown>, description: SchemaDescription): Promise<void> {
  const run = (statement: string) => sql.raw(statement).execute(db);
  if ("sqliteMaster" in description) {
    const virtual = description.sqliteMaster.filter((o) => o.type === "table" && /^create virtual table/i.test(o.sql ?? ""));
    // A virtual table makes its own shadow tables (name_data, name_idx, …): they are not created again.
    const isShadow = (name: string) => virtual.some((v) => ["data", "idx", "content", "docsize", "config"].some((part) => name === `${v.name}_${part}`));
    const statements = (type: string) =>
      description.sqliteMaster.filter((o) => o.type === type && o.sql !== null && !o.name.startsWith("sqlite_") && !isShadow(o.name));
    for (const type of ["table", "index", "trigger", "view"]) for (const o of statements(type)) await run(o.sql!);
  } else {
    const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
    for (const { table_name } of description.tables) {
      const columns = description.columns
        .filter((c) => c.table_name === table_name)
        .map((c) => `${quote(c.column_name)} ${c.udt_name}${c.is_nullable === "NO" ? " not null" : ""}${c.column_default === null ? "" : ` default ${c.column_default}`}`);
      await run(`create table ${quote(table_name)} (${columns.join(", ")})`);
    }
    // Keys first, so that the foreign keys find what they point to.
    const order = ["p", "u", "c", "f"];
    const constraints = [...description.constraints].sort((a, b) => order.indexOf(a.type) - order.indexOf(b.type));
    for (const c of constraints) await run(`alter table ${quote(c.table_name)} add constraint ${quote(c.name)} ${c.definition}`);
    const installed = await sql<{ n: number }>`select count(*)::int as n from pg_extension where extname = 'pg_trgm'`.execute(db);
    if (installed.rows[0]?.n === 0 && description.indexes.some((i) => i.definition.includes("gin_trgm_ops"))) {
      await run("create extension pg_trgm schema pg_catalog");
    }
    for (const i of description.indexes) if (!description.constraints.some((c) => c.name === i.name)) await run(i.definition);
    for (const f of description.functions) await run(f.definition);
    for (const t of description.triggers) await run(t.definition);
  }
  for (const name of description.migrations) {
    await sql`insert into kysely_migration (name, timestamp) values (${name}, ${new Date().toISOString()})`.execute(db);
  }
}
