import { sql, type ColumnDataType, type Expression, type InsertObject, type InsertQueryBuilder, type Insertable } from "kysely";

/** Each column's value with the SQL type to cast it to: a bare parameter in a SELECT list is text on PostgreSQL. */
export type TypedValues<Row> = { [C in keyof Insertable<Row>]: readonly [value: Insertable<Row>[C], type: ColumnDataType] };

/** A select query (not a condition): `when` holds if it has a row. */
export type SelectQuery = Expression<unknown> & { readonly isSelectQueryBuilder: true };

/**
 * Inserts one row of `values`; with `when`, only if that query has a row, in the same statement
 * (`insert … select cast($1 as text), … where exists (when)`), e.g. a data-modifying CTE that depends on another
 * one on PostgreSQL. Without `when`, a plain `insert … values (…)`. Conflict handling and `returning` go on the
 * builder returned, as usual.
 */
export function insertValuesWhen<DB, TB extends keyof DB, O>(
  insert: InsertQueryBuilder<DB, TB, O>,
  values: TypedValues<DB[TB]>,
  when?: SelectQuery,
): InsertQueryBuilder<DB, TB, O> {
  const entries = Object.entries(values) as [keyof DB[TB] & string, readonly [unknown, ColumnDataType]][];
  if (!when) return insert.values(Object.fromEntries(entries.map(([column, [value]]) => [column, value])) as InsertObject<DB, TB>);
  return insert
    .columns(entries.map(([column]) => column))
    .expression((eb) => sql`select ${sql.join(entries.map(([, [value, type]]) => eb.cast(eb.val(value), type)))} where ${eb.exists(when)}`);
}
