import type { Database } from "./platform/db/client.ts";
import { migrateToLatest as migrateAll, migrateUpTo as migrateUpToName, migrationNamesOf, type MigrationPart } from "./platform/db/migrate.ts";
import { mailMigrations } from "./platform/mail/migrations/mail-migrations.ts";
import { rateLimitMigrations } from "./platform/rate-limit/migrations/rate-limit-migrations.ts";
import { uploadMigrations } from "./platform/uploads/migrations/upload-migrations.ts";
import { accountsMigrations } from "./modules/accounts/index.ts";
import { alertsMigrations } from "./modules/alerts/index.ts";
import { auditMigrations } from "./modules/audit/index.ts";
import { cartMigrations } from "./modules/cart/index.ts";
import { catalogMigrations } from "./modules/catalog/index.ts";
import { contactMigrations } from "./modules/contact/index.ts";
import { couponsMigrations } from "./modules/coupons/index.ts";
import { deliveryMigrations } from "./modules/delivery/index.ts";
import { ordersMigrations } from "./modules/orders/index.ts";
import { reviewsMigrations } from "./modules/reviews/index.ts";
import { wishlistMigrations } from "./modules/wishlist/index.ts";

// The one migration history (docs/architecture.md, "Tables and their owners"): every owner's parts, each owner
// after the owners its tables' foreign keys point to, which is the order a migration's parts run in. Databases
// record only the names, so a name keeps every part it had, whichever owner now holds it.
const parts: readonly MigrationPart[] = [
  ...rateLimitMigrations,
  ...mailMigrations,
  ...uploadMigrations,
  ...accountsMigrations,
  ...catalogMigrations,
  ...cartMigrations,
  ...ordersMigrations,
  ...reviewsMigrations,
  ...contactMigrations,
  ...couponsMigrations,
  ...wishlistMigrations,
  ...alertsMigrations,
  ...deliveryMigrations,
  ...auditMigrations,
];

/** Every migration's name, oldest first. */
export const migrationNames: readonly string[] = migrationNamesOf(parts);

export function migrateToLatest(database: Pick<Database, "db" | "dialect">): Promise<string[]> {
  return migrateAll(database, parts);
}

/** Migrates up to and including `name` only: for the upgrade tests, which start from an earlier release. */
export function migrateUpTo(database: Pick<Database, "db" | "dialect">, name: string): Promise<string[]> {
  return migrateUpToName(database, parts, name);
}
