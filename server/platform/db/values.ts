import type { ColumnType } from "kysely";

/** A timestamp column: written as an ISO string; read as a string on SQLite and a Date on PostgreSQL. */
export type Timestamp = ColumnType<string | Date, string, string>;

export function toIsoString(value: string | Date): string {
  return value instanceof Date ? value.toISOString() : value;
}

/** Booleans are 0/1 on SQLite (its driver cannot bind true/false) and real booleans on PostgreSQL. */
export function toFlag(dialect: "sqlite" | "postgres", value: boolean): boolean | number {
  return dialect === "sqlite" ? Number(value) : value;
}
