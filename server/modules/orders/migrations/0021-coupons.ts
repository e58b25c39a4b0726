import { sql, type Kysely } from "kysely";
import type { MigrationContext } from "../../../platform/db/migrate.ts";

/**
 * An order keeps the discount code it was placed with and the discount in paise (docs/decisions/046), and its
 * total becomes subtotal − discount + shipping. The discount never exceeds the subtotal, so no total is negative.
 *
 * PostgreSQL swaps the total's check in place. SQLite cannot change a check, so the table is rebuilt as SQLite
 * documents it (as 0018 did), written out as the table stood at 0018, because a migration is history.
 */
export function orderDiscountMigration({ dialect }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === "postgres") {
        await sql`alter table orders add column coupon_code text`.execute(db);
        await sql`alter table orders add column discount_paise bigint not null default 0`.execute(db);
        await sql`alter table orders drop constraint orders_check`.execute(db);
        await sql`alter table orders add constraint orders_discount_check check (discount_paise >= 0 and discount_paise <= subtotal_paise)`.execute(db);
        await sql`alter table orders add constraint orders_total_check check (total_paise = subtotal_paise - discount_paise + shipping_paise)`.execute(db);
      } else await rebuildOrdersOnSqlite(db, { withDiscount: true });
    },
    async down(db: Kysely<unknown>) {
      // Refused (the old check) while an order with a discount exists: its total could not be kept.
      if (dialect === "postgres") {
        await sql`alter table orders drop constraint orders_total_check`.execute(db);
        await sql`alter table orders drop constraint orders_discount_check`.execute(db);
        await sql`alter table orders add constraint orders_check check (total_paise = subtotal_paise + shipping_paise)`.execute(db);
        await sql`alter table orders drop column discount_paise`.execute(db);
        await sql`alter table orders drop column coupon_code`.execute(db);
      } else await rebuildOrdersOnSqlite(db, { withDiscount: false });
    },
  };
}

const COLUMNS_AT_0018 = [
  "id", "user_id", "status", "subtotal_paise", "shipping_paise", "total_paise", "ship_name", "ship_phone", "ship_address",
  "payment_method", "idempotency_key", "created_at", "updated_at", "counted_on", "number",
];
const quoted = (columns: string[]) => sql.raw(columns.map((column) => `"${column}"`).join(", "));

async function rebuildOrdersOnSqlite(db: Kysely<unknown>, { withDiscount }: { withDiscount: boolean }) {
  const columns = quoted(COLUMNS_AT_0018);
  // Only outside a transaction does SQLite take this pragma; Kysely runs SQLite's migrations outside one.
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await sql`create table "orders_rebuilt" (
        "id" text primary key,
        "user_id" text references "users" ("id") on delete restrict,
        "status" text not null check (status in ('pending', 'processing', 'shipped', 'delivered', 'cancelled')),
        "subtotal_paise" bigint not null check (subtotal_paise >= 0),
        "shipping_paise" bigint not null check (shipping_paise >= 0),
        ${sql.raw(
          withDiscount
            ? `"discount_paise" bigint not null default 0 check (discount_paise >= 0 and discount_paise <= subtotal_paise),
        "coupon_code" text,
        "total_paise" bigint not null check (total_paise = subtotal_paise - discount_paise + shipping_paise),`
            : `"total_paise" bigint not null check (total_paise = subtotal_paise + shipping_paise),`,
        )}
        "ship_name" text not null,
        "ship_phone" text not null,
        "ship_address" text not null,
        "payment_method" text not null,
        "idempotency_key" text not null,
        "created_at" text not null,
        "updated_at" text not null,
        "counted_on" text,
        "number" text,
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
