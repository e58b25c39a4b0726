import type { MailOutboxTable } from "../mail/mail-outbox-table.ts";
import type { RateLimitTable } from "../rate-limit/rate-limit-table.ts";
import type { UploadHoldTable } from "../uploads/upload-holds-table.ts";

/**
 * The database as Kysely sees it (docs/decisions/002-database-portability.md): the platform's own tables here, and
 * every module's added where the module creates them, by declaration merging (its `*-tables.ts`:
 * `declare module "…/platform/db/schema.ts" { interface DB { … } }`), so that the platform names no feature and each
 * table is declared beside the migrations of its one owner.
 */
export interface DB {
  rate_limits: RateLimitTable;
  mail_outbox: MailOutboxTable;
  upload_holds: UploadHoldTable;
}
