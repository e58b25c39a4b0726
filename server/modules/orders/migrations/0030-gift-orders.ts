import { sql, type Kysely } from "kysely";

/**
 * A gift's details (docs/decisions/052), in a table of their own beside the orders: most orders are no gift, and
 * an order that is none stores nothing here. The checkout inserts the row in the order's transaction; the order's
 * shipping address is the recipient's. Copies, like the rest of an order: they never change after it is placed.
 */
export function giftOrdersMigration() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("order_gifts")
        .addColumn("order_id", "text", (col) => col.primaryKey().references("orders.id").onDelete("cascade"))
        .addColumn("recipient_name", "text", (col) => col.notNull())
        .addColumn("recipient_phone", "text", (col) => col.notNull())
        .addColumn("message", "text")
        // 0 or 1 on both databases: one type to read, whichever the database.
        .addColumn("hide_prices", "integer", (col) => col.notNull().defaultTo(sql`0`))
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable("order_gifts").execute();
    },
  };
}
