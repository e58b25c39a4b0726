import { randomUUID } from "node:crypto";
import { sql, type Kysely } from "kysely";
import type { Database } from "../../platform/db/client.ts";
import type { DB } from "../../platform/db/schema.ts";
import { paiseFromRupees } from "#common/shared/money.ts";
import { sampleCategories, sampleProducts } from "./sample-data.ts";
import { inWriteTransaction } from "../../platform/db/write-transaction.ts";
import { EMPTY_CARE_PROFILE } from "#common/catalog/care-profile.ts";
import { careColumns } from "./care-columns.ts";
import { addVariants, insertProduct } from "./inventory.ts";

const ILLUSTRATIONS = "/illustrations";
const PRODUCT_IMAGE_SIZE = 800;
const CATEGORY_IMAGE_SIZE = 600;
/** The row in seed_runs that says the sample catalogue's one chance has been taken. */
export const SAMPLE_CATALOGUE_SEED = "sample-catalogue";

export interface SeedResult {
  /**
   * `seeded`: the database was new and now holds the samples; `already-seeded`: an earlier start did it;
   * `kept-existing-catalogue`: the database already had categories or products (made before seeding was
   * recorded, or by an owner while seeding was off), so nothing was added and that is now recorded.
   */
  outcome: "seeded" | "already-seeded" | "kept-existing-catalogue";
  categoriesCreated: number;
  productsCreated: number;
}

/**
 * Adds the sample categories and products once, when the database is new (seeding runs on the server and is
 * recorded; docs/decisions/017-seeding-once-and-ci.md). The record is written in the same transaction
 * as the samples, so a failed seed leaves neither, and an owner who deletes or renames a sample product does
 * not get it back at the next start.
 */
export async function seedSampleData(database: Pick<Database, "db" | "dialect">, now: Date = new Date()): Promise<SeedResult> {
  return inWriteTransaction(database, async (trx) => {
    // Several servers may start at once on one PostgreSQL: one seeds, the others then find the record.
    // (SQLite: the write transaction is exclusive already.)
    if (database.dialect === "postgres") await sql`select pg_advisory_xact_lock(hashtext('plant-shop:seed'))`.execute(trx);
    const done = await trx.selectFrom("seed_runs").select("name").where("name", "=", SAMPLE_CATALOGUE_SEED).executeTakeFirst();
    if (done) return { outcome: "already-seeded", categoriesCreated: 0, productsCreated: 0 };

    const existing =
      (await trx.selectFrom("categories").select("id").limit(1).executeTakeFirst()) ??
      (await trx.selectFrom("products").select("id").limit(1).executeTakeFirst());
    const result: SeedResult = existing
      ? { outcome: "kept-existing-catalogue", categoriesCreated: 0, productsCreated: 0 }
      : { outcome: "seeded", ...(await insertSamples(trx, now)) };
    await trx
      .insertInto("seed_runs")
      .values({
        name: SAMPLE_CATALOGUE_SEED,
        ran_at: now.toISOString(),
        categories_created: result.categoriesCreated,
        products_created: result.productsCreated,
      })
      .execute();
    return result;
  });
}

async function insertSamples(trx: Kysely<DB>, now: Date): Promise<Pick<SeedResult, "categoriesCreated" | "productsCreated">> {
  const categoryIds = new Map<string, string>();
  for (const category of sampleCategories) {
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
    categoryIds.set(category.name, id);
  }

  for (const [index, product] of sampleProducts.entries()) {
    const categoryId = categoryIds.get(product.category);
    if (!categoryId) throw new Error(`Sample product ${product.name} names an unknown category`);
    // One millisecond apart, so "oldest first" keeps the sample table's order (docs/product.md, Sample catalogue).
    const createdAt = new Date(now.getTime() + index).toISOString();
    const id = randomUUID();
    await insertProduct(trx, {
      id,
      label: product.sizes?.first ?? "",
      sku: sampleSku(product.slug, product.sizes ? 1 : 0),
      name: product.name,
      description: product.description,
      price_paise: paiseFromRupees(product.rupees),
      compare_at_paise: product.compareAtRupees === undefined ? null : paiseFromRupees(product.compareAtRupees),
      stock: product.stock,
      category_id: categoryId,
      ...careColumns({ ...EMPTY_CARE_PROFILE, ...product.care }),
      created_at: createdAt,
      updated_at: createdAt,
    });
    if (product.sizes) {
      await addVariants(
        trx,
        id,
        product.sizes.more.map((size, index) => ({ label: size.label, sku: sampleSku(product.slug, index + 2), pricePaise: paiseFromRupees(size.rupees), stock: size.stock })),
        createdAt,
      );
    }
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
  }
  return { categoriesCreated: sampleCategories.length, productsCreated: sampleProducts.length };
}

/** 'fiddle-leaf-fig', 2 → 'FIDDLE-LEAF-FIG-2'; a plant sold in one size has the slug alone ('SNAKE-PLANT'). */
function sampleSku(slug: string, size: number): string {
  return size === 0 ? slug.toUpperCase() : `${slug.toUpperCase()}-${size}`;
}
