import { sql, type Kysely } from "kysely";
import type { MigrationContext } from "../../../platform/db/migrate.ts";

/**
 * Discount codes (docs/decisions/046). `used_count` is the number of orders carrying the code, kept by the checkout
 * (a conditional increment: never past `max_uses`, the check a backstop) and given back by a cancellation, so the
 * admin list counts uses without counting rows. `coupon_uses` says which order used which code for whom (the
 * once-per-customer rule reads it by its index); `cart_coupons` is the code a shopper applied to their cart.
 */
export function couponsMigration({ dialect, timestamp }: MigrationContext) {
  const bool = sql.raw(dialect === "postgres" ? "boolean" : "integer");
  const no = sql.raw(dialect === "postgres" ? "false" : "0");
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("coupons")
        .addColumn("id", "text", (c) => c.primaryKey())
        // Stored upper-case (normalised by the schema), so uniqueness is not case-sensitive.
        .addColumn("code", "text", (c) => c.notNull().unique())
        .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('percent', 'amount')`))
        .addColumn("amount", "bigint", (c) => c.notNull().check(sql`amount > 0 and (kind = 'amount' or amount <= 100)`))
        .addColumn("min_subtotal_paise", "bigint", (c) => c.check(sql`min_subtotal_paise >= 0`))
        .addColumn("starts_at", timestamp)
        .addColumn("ends_at", timestamp)
        .addColumn("max_uses", "integer", (c) => c.check(sql`max_uses > 0`))
        .addColumn("once_per_customer", bool, (c) => c.notNull())
        .addColumn("paused", bool, (c) => c.notNull().defaultTo(no))
        .addColumn("used_count", "integer", (c) => c.notNull().defaultTo(0).check(sql`used_count >= 0 and (max_uses is null or used_count <= max_uses)`))
        .addColumn("created_at", timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("coupons_created").on("coupons").columns(["created_at", "id"]).execute();
      await db.schema
        .createTable("coupon_categories")
        .addColumn("coupon_id", "text", (c) => c.notNull().references("coupons.id").onDelete("cascade"))
        .addColumn("category_id", "text", (c) => c.notNull().references("categories.id").onDelete("cascade"))
        .addPrimaryKeyConstraint("coupon_categories_pk", ["coupon_id", "category_id"])
        .execute();
      await db.schema
        .createTable("coupon_uses")
        .addColumn("order_id", "text", (c) => c.primaryKey().references("orders.id").onDelete("cascade"))
        .addColumn("coupon_id", "text", (c) => c.notNull().references("coupons.id").onDelete("cascade"))
        .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("set null"))
        .addColumn("created_at", timestamp, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("coupon_uses_coupon_user").on("coupon_uses").columns(["coupon_id", "user_id"]).execute();
      await db.schema
        .createTable("cart_coupons")
        .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
        .addColumn("coupon_id", "text", (c) => c.notNull().references("coupons.id").onDelete("cascade"))
        .execute();
      await db.schema.createIndex("cart_coupons_coupon").on("cart_coupons").column("coupon_id").execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable("cart_coupons").execute();
      await db.schema.dropTable("coupon_uses").execute();
      await db.schema.dropTable("coupon_categories").execute();
      await db.schema.dropTable("coupons").execute();
    },
  };
}
