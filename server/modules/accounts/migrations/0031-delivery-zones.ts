import type { Kysely } from "kysely";

/**
 * The PIN code of the delivery details a checkout saved on the profile (docs/decisions/053), beside the phone and
 * address. Better Auth does not know the column and never writes it.
 */
export function savedPinMigration() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("users").addColumn("shipPin", "text").execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable("users").dropColumn("shipPin").execute();
    },
  };
}
