import type { Kysely } from "kysely";

/** The PIN code an order ships to (docs/decisions/053); null for orders placed before the shop asked for it. */
export function orderShipPinMigration() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("orders").addColumn("ship_pin", "text").execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable("orders").dropColumn("ship_pin").execute();
    },
  };
}
