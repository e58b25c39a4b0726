import { sql, type Kysely } from "kysely";
import type { MigrationContext } from "../../../platform/db/migrate.ts";

/** The catalogue: categories, products and their images. */
export function catalogTablesMigration({ timestamp }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("categories")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("description", "text", (c) => c.notNull())
        .addColumn("image_url", "text", (c) => c.notNull())
        .addColumn("image_width", "integer", (c) => c.notNull())
        .addColumn("image_height", "integer", (c) => c.notNull())
        .addColumn("created_at", timestamp, (c) => c.notNull())
        .execute();
      // Names are unique ignoring case: 'Succulents' and 'succulents' are one category.
      await sql`create unique index categories_name_unique on categories (lower(name))`.execute(db);

      await db.schema
        .createTable("products")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("description", "text", (c) => c.notNull())
        .addColumn("price_paise", "integer", (c) => c.notNull().check(sql`price_paise >= 0`))
        .addColumn("stock", "integer", (c) => c.notNull().check(sql`stock >= 0`))
        .addColumn("category_id", "text", (c) => c.notNull().references("categories.id").onDelete("restrict"))
        .addColumn("created_at", timestamp, (c) => c.notNull())
        .addColumn("updated_at", timestamp, (c) => c.notNull())
        .execute();
      await sql`create unique index products_name_unique on products (lower(name))`.execute(db);
      await db.schema.createIndex("products_created_at").on("products").columns(["created_at", "id"]).execute();
      await db.schema.createIndex("products_category").on("products").columns(["category_id", "created_at"]).execute();

      await db.schema
        .createTable("product_images")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("product_id", "text", (c) => c.notNull().references("products.id").onDelete("cascade"))
        .addColumn("position", "integer", (c) => c.notNull().check(sql`position >= 0`))
        .addColumn("url", "text", (c) => c.notNull())
        .addColumn("width", "integer", (c) => c.notNull())
        .addColumn("height", "integer", (c) => c.notNull())
        .addUniqueConstraint("product_images_position_unique", ["product_id", "position"])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ["product_images", "products", "categories"]) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
