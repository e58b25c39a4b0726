import type { ColumnType } from "kysely";
import type { Timestamp } from "../../platform/db/values.ts";

// The back-in-stock alerts' table as Kysely sees it, created by ./migrations and added to the database's type (DB)
// here, so that the platform names no feature.

export interface StockAlertTable {
  id: string;
  /** The size awaited; the alert goes with it when the size is deleted. */
  variant_id: string;
  /** The shopper who asked while signed in; null for a visitor's. The alert goes with the account. */
  user_id: string | null;
  /** Where the alert is sent, lower-cased: one alert per size and address. */
  email: string;
  /** When the address was confirmed (at once for a signed-in shopper); null while a visitor's confirmation waits. */
  confirmed_at: ColumnType<string | Date | null, string | null | undefined, string | null>;
  /** A digest of the confirmation link's token (the token itself is only in the mail); null once confirmed. */
  token_hash: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
}

declare module "../../platform/db/schema.ts" {
  interface DB {
    stock_alerts: StockAlertTable;
  }
}
