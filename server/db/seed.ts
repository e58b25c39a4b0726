import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { Database } from "./client.ts";
import { sampleCategories, sampleProducts } from "./sample-data.ts";

const ILLUSTRATIONS = "/illustrations";
const PRODUCT_IMAGE_SIZE = 800;
const CATEGORY_IMAGE_SIZE = 600;

export interface SeedResult {
  categoriesCreated: number;
  productsCreated: number;
}

/**
 * Creates the sample categories and products whose names are not there yet (decisions.md: seeding runs on
 * the server, idempotently by name). One transaction: a failed seed leaves nothing half-written.
 */
export async function seedSampleData({ db, dialect }: Pick<Database, "db" | "dialect">, now: Date = new Date()): Promise<SeedResult> {
  return db.transaction().execute(async (trx) => {
    // Several servers may start at once on one PostgreSQL: one seeds, the others then find everything there.
    if (dialect === "postgres") await sql`select pg_advisory_xact_lock(hashtext('plant-shop:seed'))`.execute(trx);
    const existingCategories = await trx.selectFrom("categories").select(["id", "name"]).execute();
    const categoryIds = new Map(existingCategories.map((c) => [c.name.toLowerCase(), c.id]));
    let categoriesCreated = 0;
    for (const category of sampleCategories) {
      if (categoryIds.has(category.name.toLowerCase())) continue;
      const id = randomUUID();
      await trx
        .insertInto("categories")
        .values({
          id,
          name: category.name,
          description: category.description,
          image_url: `${ILLUSTRATIONS}/categories/${category.image}.svg`,
          image_width: CATEGORY_IMAGE_SIZE,
          image_height: CATEGORY_IMAGE_SIZE,
          created_at: now.toISOString(),
        })
        .execute();
      categoryIds.set(category.name.toLowerCase(), id);
      categoriesCreated++;
    }

    const existingProducts = new Set(
      (await trx.selectFrom("products").select("name").execute()).map((p) => p.name.toLowerCase()),
    );
    let productsCreated = 0;
    for (const [index, product] of sampleProducts.entries()) {
      if (existingProducts.has(product.name.toLowerCase())) continue;
      const categoryId = categoryIds.get(product.category.toLowerCase());
      if (!categoryId) throw new Error(`Sample product ${product.name} names an unknown category`);
      // One millisecond apart, so "oldest first" keeps the spec's table order.
      const createdAt = new Date(now.getTime() + index).toISOString();
      const id = randomUUID();
      await trx
        .insertInto("products")
        .values({
          id,
          name: product.name,
          description: product.description,
          price_paise: product.rupees * 100,
          stock: product.stock,
          category_id: categoryId,
          created_at: createdAt,
          updated_at: createdAt,
        })
        .execute();
      await trx
        .insertInto("product_images")
        .values(
          [1, 2].map((view, position) => ({
            id: randomUUID(),
            product_id: id,
            position,
            url: `${ILLUSTRATIONS}/products/${product.slug}-${view}.svg`,
            width: PRODUCT_IMAGE_SIZE,
            height: PRODUCT_IMAGE_SIZE,
          })),
        )
        .execute();
      productsCreated++;
    }
    return { categoriesCreated, productsCreated };
  });
}
