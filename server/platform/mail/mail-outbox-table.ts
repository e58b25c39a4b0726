import type { ColumnType, Generated } from "kysely";
import type { Timestamp } from "../db/values.ts";
import type { MAIL_STATUSES } from "./migrations/0006-mail-outbox.ts";

// The outbox's table as Kysely sees it (created by ./migrations), part of the database's type in ../db/schema.ts.

/** The statuses the table's check constraint allows, from the one list that constraint is built from. */
export type MailStatus = (typeof MAIL_STATUSES)[number];

export interface MailOutboxTable {
  id: string;
  kind: string;
  reference: string | null;
  recipient: string;
  subject: string;
  text_body: string | null;
  html_body: string | null;
  /** The mail's own headers (a List-Unsubscribe) as sealed JSON; null without any, and once sent or given up. */
  headers: string | null;
  status: MailStatus;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  claim: string | null;
  last_error: string | null;
  created_at: Timestamp;
  finished_at: ColumnType<string | Date | null, string | null | undefined, string | null>;
}
