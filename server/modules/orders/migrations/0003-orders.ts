import { sql, type Kysely } from "kysely";
import type { MigrationContext } from "../../../platform/db/migrate.ts";

/**
 * The statuses this migration allows, frozen as they were (a migration is history: it never follows the live
 * list in common/orders/order-schemas.ts). A test compares the two, so a new status comes with a migration.
 */
export const ORDER_STATUSES_AT_0003 = ["pending", "processing", "shipped", "delivered", "cancelled"] as const;

// Order amounts are sums of prices times quantities: 64-bit on both databases (an order above Rs. 2.1 crore
// would overflow PostgreSQL's 32-bit integer; SQLite's integer is 64-bit already). pg parses int8 as a number.
const money = "bigint";

/** Orders and their lines. */
export function ordersTablesMigration({ timestamp }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("orders")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("restrict"))
        .addColumn("status", "text", (c) => c.notNull().check(sql.raw(`status in (${ORDER_STATUSES_AT_0003.map((s) => `'${s}'`).join(", ")})`)))
        .addColumn("subtotal_paise", money, (c) => c.notNull().check(sql`subtotal_paise >= 0`))
        .addColumn("shipping_paise", money, (c) => c.notNull().check(sql`shipping_paise >= 0`))
        .addColumn("total_paise", money, (c) => c.notNull().check(sql`total_paise = subtotal_paise + shipping_paise`))
        .addColumn("ship_name", "text", (c) => c.notNull())
        .addColumn("ship_phone", "text", (c) => c.notNull())
        .addColumn("ship_address", "text", (c) => c.notNull())
        .addColumn("payment_method", "text", (c) => c.notNull())
        .addColumn("idempotency_key", "text", (c) => c.notNull())
        .addColumn("created_at", timestamp, (c) => c.notNull())
        .addColumn("updated_at", timestamp, (c) => c.notNull())
        // A retried or double-clicked checkout carries the same key: it can never make a second order.
        .addUniqueConstraint("orders_user_idempotency_unique", ["user_id", "idempotency_key"])
        .execute();
      await db.schema.createIndex("orders_user_created").on("orders").columns(["user_id", "created_at"]).execute();
      await db.schema.createIndex("orders_status_created").on("orders").columns(["status", "created_at"]).execute();

      await db.schema
        .createTable("order_lines")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("order_id", "text", (c) => c.notNull().references("orders.id").onDelete("cascade"))
        .addColumn("position", "integer", (c) => c.notNull())
        // The product may go later; its name and price at the time of the order stay with the order.
        .addColumn("product_id", "text", (c) => c.references("products.id").onDelete("set null"))
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("unit_price_paise", money, (c) => c.notNull().check(sql`unit_price_paise >= 0`))
        .addColumn("quantity", "integer", (c) => c.notNull().check(sql`quantity > 0`))
        .addUniqueConstraint("order_lines_position_unique", ["order_id", "position"])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ["order_lines", "orders"]) await db.schema.dropTable(table).execute();
    },
  };
}
