import type { ColumnType } from "kysely";
import type { Timestamp } from "../../platform/db/values.ts";

// The contact messages' table as Kysely sees it, created by ./migrations and added to the database's type (DB)
// here, so that the platform names no feature.

export interface ContactMessageTable {
  id: string;
  name: string;
  email: string;
  subject: string;
  message: string;
  client_ip: string | null;
  created_at: Timestamp;
  /** When an admin marked it handled; null while it waits (migration 0011-admin-overview). */
  handled_at: ColumnType<string | Date | null, string | null | undefined, string | null>;
  /** A digest of the sender's address and the text, to find a repeat; null for messages stored before 0014. */
  content_hash: ColumnType<string | null, string | null | undefined, never>;
}

declare module "../../platform/db/schema.ts" {
  interface DB {
    contact_messages: ContactMessageTable;
  }
}
