import { type Kysely } from "kysely";

/**
 * Orders keep the number people quote (docs/decisions/036-order-numbers-and-repeated-messages.md): drawn at
 * random, 60 bits, unique by index. Orders placed before keep theirs, made from their id as it always was: their
 * column stays null (both databases let a unique index hold many nulls), so no old number changes and two old
 * orders that happen to share theirs cannot stop this migration.
 */
export function orderNumbersMigration() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("orders").addColumn("number", "text").execute();
      await db.schema.createIndex("orders_number_unique").unique().on("orders").column("number").execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex("orders_number_unique").execute();
      await db.schema.alterTable("orders").dropColumn("number").execute();
    },
  };
}
