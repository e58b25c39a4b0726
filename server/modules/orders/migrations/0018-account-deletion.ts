import { sql, type Kysely } from "kysely";
import type { MigrationContext } from "../../../platform/db/migrate.ts";

/**
 * An order outlives its customer's account (docs/decisions/040-account-deletion-and-email-change.md): deleting an account detaches
 * its orders (`detachCustomer`), so `orders.user_id` may now be null. The foreign key stays `on delete restrict`:
 * an account whose orders were not detached first still cannot be deleted.
 *
 * PostgreSQL drops the NOT NULL in place. SQLite cannot, so the table is rebuilt as SQLite documents it (foreign
 * keys off, a new table, the rows copied, the old one dropped, the new one renamed, its indexes made again, the
 * keys checked): with the keys on, dropping `orders` would delete every order line through their cascade. The
 * statements are written out as the table stood at 0014, because a migration is history.
 */
export function nullableOrderCustomerMigration({ dialect }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === "postgres") await sql`alter table orders alter column user_id drop not null`.execute(db);
      else await rebuildOrdersOnSqlite(db, { customerRequired: false });
    },
    async down(db: Kysely<unknown>) {
      // Refused (NOT NULL) while a detached order exists: those orders have no customer to give back.
      if (dialect === "postgres") await sql`alter table orders alter column user_id set not null`.execute(db);
      else await rebuildOrdersOnSqlite(db, { customerRequired: true });
    },
  };
}

const COLUMNS = sql.raw(
  ["id", "user_id", "status", "subtotal_paise", "shipping_paise", "total_paise", "ship_name", "ship_phone", "ship_address", "payment_method", "idempotency_key", "created_at", "updated_at", "counted_on", "number"]
    .map((column) => `"${column}"`)
    .join(", "),
);

async function rebuildOrdersOnSqlite(db: Kysely<unknown>, { customerRequired }: { customerRequired: boolean }) {
  // Only outside a transaction does SQLite take this pragma; Kysely runs SQLite's migrations outside one.
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await sql`create table "orders_rebuilt" (
        "id" text primary key,
        "user_id" text ${sql.raw(customerRequired ? "not null " : "")}references "users" ("id") on delete restrict,
        "status" text not null check (status in ('pending', 'processing', 'shipped', 'delivered', 'cancelled')),
        "subtotal_paise" bigint not null check (subtotal_paise >= 0),
        "shipping_paise" bigint not null check (shipping_paise >= 0),
        "total_paise" bigint not null check (total_paise = subtotal_paise + shipping_paise),
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
      await sql`insert into "orders_rebuilt" (${COLUMNS}) select ${COLUMNS} from "orders"`.execute(trx);
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
