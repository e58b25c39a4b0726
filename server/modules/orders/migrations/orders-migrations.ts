import type { MigrationPart } from "../../../platform/db/migrate.ts";
import { ordersTablesMigration } from "./0003-orders.ts";
import { dailyTotalsMigration } from "./0011-admin-overview.ts";
import { orderNumbersMigration } from "./0014-order-numbers-contact-dedup.ts";
import { nullableOrderCustomerMigration } from "./0018-account-deletion.ts";
import { orderDiscountMigration } from "./0021-coupons.ts";
import { orderLineVariantsMigration } from "./0023-variants.ts";
import { giftOrdersMigration } from "./0030-gift-orders.ts";
import { orderShipPinMigration } from "./0031-delivery-zones.ts";
import { upiPaymentsMigration } from "./0032-upi-payments.ts";
import { ordersByDateMigration } from "./0034-orders-export.ts";

/** The orders' parts of the migration history (server/migrations.ts puts every owner's together). */
export const ordersMigrations: readonly MigrationPart[] = [
  { name: "0003-orders", migration: ordersTablesMigration },
  { name: "0011-admin-overview", migration: dailyTotalsMigration },
  { name: "0014-order-numbers-contact-dedup", migration: orderNumbersMigration },
  { name: "0018-account-deletion", migration: nullableOrderCustomerMigration },
  { name: "0021-coupons", migration: orderDiscountMigration },
  { name: "0023-variants", migration: orderLineVariantsMigration },
  { name: "0030-gift-orders", migration: giftOrdersMigration },
  { name: "0031-delivery-zones", migration: orderShipPinMigration },
  { name: "0032-upi-payments", migration: upiPaymentsMigration },
  { name: "0034-orders-export", migration: ordersByDateMigration },
];
