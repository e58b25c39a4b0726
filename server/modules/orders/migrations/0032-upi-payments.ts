import { sql, type Kysely } from "kysely";
import type { MigrationContext } from "../../../platform/db/migrate.ts";

/** The statuses as this migration leaves them (a migration is history: it never follows the live list). */
export const ORDER_STATUSES_AT_0032 = ["awaiting_payment", "pending", "processing", "shipped", "delivered", "cancelled", "refused"] as const;
const STATUSES_BEFORE = ["pending", "processing", "shipped", "delivered", "cancelled"] as const;

/**
 * UPI payments and the rules for Cash on Delivery (docs/decisions/054):
 * - two statuses: 'awaiting_payment' (a UPI order, its stock held until its payment is confirmed) and 'refused'
 *   (a shipped parcel refused at the door). PostgreSQL swaps the status check in place; SQLite cannot change a
 *   check, so the table is rebuilt as SQLite documents it (as 0018 and 0021 did), written out as it stood;
 * - `order_payments`: the payment of an order paid before the shop starts on it (UPI), with its explicit state,
 *   the reference the shopper gave and the moment it is due. Cash on Delivery orders have none: their money is
 *   the courier's to collect, and their status says where it stands;
 * - `cod_blocks`: the shoppers the owner turned Cash on Delivery off for.
 */
export function upiPaymentsMigration({ dialect, timestamp }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === "postgres") await replaceStatusCheck(db, ORDER_STATUSES_AT_0032);
      else await rebuildOrdersOnSqlite(db, ORDER_STATUSES_AT_0032);
      await db.schema
        .createTable("order_payments")
        .addColumn("order_id", "text", (col) => col.primaryKey().references("orders.id").onDelete("cascade"))
        .addColumn("method", "text", (col) => col.notNull())
        .addColumn("state", "text", (col) => col.notNull().check(sql`state in ('awaiting', 'paid', 'failed', 'refunded')`))
        .addColumn("reference", "text")
        .addColumn("pay_by", timestamp)
        .addColumn("updated_at", timestamp, (col) => col.notNull())
        .execute();
      // What the shop's own cancellation of unpaid orders looks for: the awaiting ones, soonest due first.
      await db.schema.createIndex("order_payments_awaiting_due").on("order_payments").columns(["state", "pay_by"]).execute();
      await db.schema
        .createTable("cod_blocks")
        .addColumn("user_id", "text", (col) => col.primaryKey().references("users.id").onDelete("cascade"))
        .addColumn("blocked_by", "text")
        .addColumn("blocked_at", timestamp, (col) => col.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable("cod_blocks").execute();
      await db.schema.dropTable("order_payments").execute();
      // Refused (by the old check) while an order awaits its payment or was refused: those statuses had no place.
      if (dialect === "postgres") await replaceStatusCheck(db, STATUSES_BEFORE);
      else await rebuildOrdersOnSqlite(db, STATUSES_BEFORE);
    },
  };
}

const inList = (statuses: readonly string[]) => sql.raw(statuses.map((status) => `'${status}'`).join(", "));

async function replaceStatusCheck(db: Kysely<unknown>, statuses: readonly string[]) {
  // PostgreSQL named the column's check orders_status_check when 0003 made it.
  await sql`alter table orders drop constraint orders_status_check`.execute(db);
  await sql`alter table orders add constraint orders_status_check check (status in (${inList(statuses)}))`.execute(db);
}

const COLUMNS_AT_0031 = [
  "id", "user_id", "status", "subtotal_paise", "shipping_paise", "discount_paise", "coupon_code", "total_paise", "ship_name", "ship_phone",
  "ship_address", "payment_method", "idempotency_key", "created_at", "updated_at", "counted_on", "number", "ship_pin",
];

async function rebuildOrdersOnSqlite(db: Kysely<unknown>, statuses: readonly string[]) {
  const columns = sql.raw(COLUMNS_AT_0031.map((column) => `"${column}"`).join(", "));
  // Only outside a transaction does SQLite take this pragma; Kysely runs SQLite's migrations outside one.
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await sql`create table "orders_rebuilt" (
        "id" text primary key,
        "user_id" text references "users" ("id") on delete restrict,
        "status" text not null check (status in (${inList(statuses)})),
        "subtotal_paise" bigint not null check (subtotal_paise >= 0),
        "shipping_paise" bigint not null check (shipping_paise >= 0),
        "discount_paise" bigint not null default 0 check (discount_paise >= 0 and discount_paise <= subtotal_paise),
        "coupon_code" text,
        "total_paise" bigint not null check (total_paise = subtotal_paise - discount_paise + shipping_paise),
        "ship_name" text not null,
        "ship_phone" text not null,
        "ship_address" text not null,
        "payment_method" text not null,
        "idempotency_key" text not null,
        "created_at" text not null,
        "updated_at" text not null,
        "counted_on" text,
        "number" text,
        "ship_pin" text,
        constraint "orders_user_idempotency_unique" unique ("user_id", "idempotency_key"))`.execute(trx);
      await sql`insert into "orders_rebuilt" (${columns}) select ${columns} from "orders"`.execute(trx);
      await sql`drop table "orders"`.execute(trx);
      await sql`alter table "orders_rebuilt" rename to "orders"`.execute(trx);
      await sql`create index "orders_user_created" on "orders" ("user_id", "created_at")`.execute(trx);
      await sql`create index "orders_status_created" on "orders" ("status", "created_at")`.execute(trx);
      await sql`create unique index "orders_number_unique" on "orders" ("number")`.execute(trx);
      const broken = await sql`pragma foreign_key_check`.execute(trx);
      if (broken.rows.length) throw new Error(`rebuilding orders broke ${broken.rows.length} foreign keys`);
    });
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}
