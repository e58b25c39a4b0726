import type { MigrationPart } from "../../../platform/db/migrate.ts";
import { cartItemsMigration } from "./0003-orders.ts";
import { visitorCartsMigration } from "./0017-guest-carts.ts";
import { cartVariantsMigration } from "./0023-variants.ts";

/** The cart's part of the migration history (server/migrations.ts puts every owner's together). */
export const cartMigrations: readonly MigrationPart[] = [
  { name: "0003-orders", migration: cartItemsMigration },
  { name: "0017-guest-carts", migration: visitorCartsMigration },
  { name: "0023-variants", migration: cartVariantsMigration },
];
