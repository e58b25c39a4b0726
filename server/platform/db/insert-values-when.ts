import { sql, type Expression, type InsertObject, type InsertQueryBuilder } from "kysely";

/** A select query (not a condition): `when` holds if it has a row. */
export type SelectQuery = Expression<unknown> & { readonly isSelectQueryBuilder: true };

/**
 * Inserts one row of `values`; with `when`, only if that query has a row, in the same statement
 * (`insert … select $1, $2 … where exists (when)`), e.g. a data-modifying CTE that depends on another one on
 * PostgreSQL. Without `when`, a plain `insert … values (…)`. Conflict handling and `returning` go on the builder
 * returned, as usual. No casts: in INSERT … SELECT, PostgreSQL types each parameter by its destination column
 * (its manual, "SELECT Output Columns"), as it does in VALUES.
 */
export function insertValuesWhen<DB, TB extends keyof DB, O>(
  insert: InsertQueryBuilder<DB, TB, O>,
  values: InsertObject<DB, TB>,
  when?: SelectQuery,
): InsertQueryBuilder<DB, TB, O> {
  if (!when) return insert.values(values);
  const row = Object.entries(values as Record<keyof DB[TB] & string, unknown>).filter(([, value]) => value !== undefined);
  return insert
    .columns(row.map(([column]) => column as keyof DB[TB] & string))
    .expression((eb) => sql`select ${sql.join(row.map(([, value]) => value))} where ${eb.exists(when)}`);
}
