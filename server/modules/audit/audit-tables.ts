import type { Generated } from "kysely";
import type { Timestamp } from "../../platform/db/values.ts";

// The audit module's table as Kysely sees it, created by ./migrations and added to the database's type (DB) here.

export interface AuditEventTable {
  /** A counter: a number on SQLite, a bigint (read as a string) on PostgreSQL. */
  id: Generated<number | string>;
  created_at: Timestamp;
  /** The admin's account at the time; null for the admin command. Kept when the account is deleted. */
  actor_id: string | null;
  actor_name: string;
  actor_email: string | null;
  client_ip: string | null;
  thing_kind: string;
  thing_id: string | null;
  /** The thing's name at the time (a product's, a coupon's code, an order's number). */
  thing_label: string;
  summary: string;
  /** JSON: { field: { before, after } } of only the fields that changed. */
  changes: string;
}

declare module "../../platform/db/schema.ts" {
  interface DB {
    audit_events: AuditEventTable;
  }
}
