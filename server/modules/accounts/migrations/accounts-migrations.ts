import type { MigrationPart } from "../../../platform/db/migrate.ts";
import { accountsMigration } from "./0002-accounts.ts";
import { hashedTokensMigration } from "./0005-hashed-tokens.ts";
import { securityEventsMigration } from "./0015-security-events.ts";
import { twoFactorMigration } from "./0016-two-factor.ts";
import { sessionLastUsedMigration } from "./0020-session-last-used.ts";
import { savedPinMigration } from "./0031-delivery-zones.ts";

/** The accounts' parts of the migration history (server/migrations.ts puts every owner's together). */
export const accountsMigrations: readonly MigrationPart[] = [
  { name: "0002-accounts", migration: accountsMigration },
  { name: "0005-hashed-tokens", migration: hashedTokensMigration },
  { name: "0015-security-events", migration: securityEventsMigration },
  { name: "0016-two-factor", migration: twoFactorMigration },
  { name: "0020-session-last-used", migration: sessionLastUsedMigration },
  { name: "0031-delivery-zones", migration: savedPinMigration },
];
