import { sql, type Kysely } from "kysely";
import type { MigrationContext } from "../../../platform/db/migrate.ts";

/**
 * Cart lines by variant (docs/decisions/048): a line names the size it holds, so one cart may hold two sizes of a
 * plant. Every line held the product, which the catalogue's part of this migration made its own first variant under
 * the product's id: `variant_id` starts as a copy of `product_id`. A variant that goes leaves its line behind,
 * unavailable, as a product that goes always did.
 *
 * One line per cart and variant, no longer per product. PostgreSQL swaps the unique constraints in place; SQLite
 * cannot drop one, so both carts' line tables are rebuilt as SQLite documents it (see the orders' 0018), written
 * out as they stood, because a migration is history.
 */
export function cartVariantsMigration({ dialect }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === "postgres") {
        for (const [table, owner, oldUnique] of TABLES) {
          await sql`alter table ${sql.table(table)} add column variant_id text references product_variants (id) on delete set null`.execute(db);
          await sql`update ${sql.table(table)} set variant_id = product_id`.execute(db);
          await sql`alter table ${sql.table(table)} drop constraint ${sql.ref(oldUnique)}`.execute(db);
          await sql`alter table ${sql.table(table)} add constraint ${sql.ref(`${table}_${owner}_variant_unique`)} unique (${sql.ref(owner)}, variant_id)`.execute(db);
        }
      } else {
        await rebuildOnSqlite(db, { variants: true });
      }
    },
    async down(db: Kysely<unknown>) {
      if (dialect === "postgres") {
        for (const [table, owner, oldUnique] of TABLES) {
          await sql`alter table ${sql.table(table)} drop column variant_id`.execute(db);
          await sql`alter table ${sql.table(table)} add constraint ${sql.ref(oldUnique)} unique (${sql.ref(owner)}, product_id)`.execute(db);
        }
      } else {
        await rebuildOnSqlite(db, { variants: false });
      }
    },
  };
}

const TABLES = [
  ["cart_items", "user_id", "cart_items_user_product_unique"],
  ["visitor_cart_items", "cart_id", "visitor_cart_items_cart_product_unique"],
] as const;

async function rebuildOnSqlite(db: Kysely<unknown>, { variants }: { variants: boolean }) {
  // Only outside a transaction does SQLite take this pragma; Kysely runs SQLite's migrations outside one.
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      const variantColumn = sql.raw(variants ? `"variant_id" text references "product_variants" ("id") on delete set null,` : "");
      await sql`create table "cart_items_rebuilt" (
        "id" text primary key,
        "user_id" text not null references "users" ("id") on delete cascade,
        "product_id" text references "products" ("id") on delete set null,
        ${variantColumn}
        "quantity" integer not null check (quantity > 0),
        "created_at" text not null,
        ${sql.raw(variants ? `constraint "cart_items_user_id_variant_unique" unique ("user_id", "variant_id")` : `constraint "cart_items_user_product_unique" unique ("user_id", "product_id")`)})`.execute(trx);
      await sql`create table "visitor_cart_items_rebuilt" (
        "id" text primary key,
        "cart_id" text not null references "visitor_carts" ("id") on delete cascade,
        "product_id" text references "products" ("id") on delete set null,
        ${variantColumn}
        "quantity" integer not null check (quantity > 0),
        "created_at" text not null,
        ${sql.raw(variants ? `constraint "visitor_cart_items_cart_id_variant_unique" unique ("cart_id", "variant_id")` : `constraint "visitor_cart_items_cart_product_unique" unique ("cart_id", "product_id")`)})`.execute(trx);
      for (const [table, owner] of TABLES) {
        const common = sql.raw(`"id", "${owner}", "product_id", "quantity", "created_at"`);
        if (variants) await sql`insert into ${sql.table(`${table}_rebuilt`)} (${common}, "variant_id") select ${common}, "product_id" from ${sql.table(table)}`.execute(trx);
        else await sql`insert into ${sql.table(`${table}_rebuilt`)} (${common}) select ${common} from ${sql.table(table)}`.execute(trx);
        await sql`drop table ${sql.table(table)}`.execute(trx);
        await sql`alter table ${sql.table(`${table}_rebuilt`)} rename to ${sql.table(table)}`.execute(trx);
      }
      const broken = await sql`pragma foreign_key_check`.execute(trx);
      if (broken.rows.length) throw new Error(`rebuilding the carts' lines broke ${broken.rows.length} foreign keys`);
    });
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}
