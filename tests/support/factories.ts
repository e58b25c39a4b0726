import { randomUUID } from "node:crypto";
import type { Insertable, Kysely } from "kysely";
import type { CareProfile } from "../../common/catalog/care-profile.ts";
import type { DB } from "../../server/platform/db/schema.ts";

let sequence = 0;
const unique = (prefix: string) => `${prefix} ${++sequence}-${randomUUID().slice(0, 8)}`;

/**
 * Timestamps that increase with every call, so "oldest first" is well defined in tests. The browser tests share one
 * shop across Playwright's worker processes, which start one after another (a spec launching its own Chromium, or a
 * failure, starts a new one): each worker begins a span of its own after the last one's (TEST_WORKER_INDEX counts
 * them), so what a later worker makes is newer than anything an earlier one made. A span holds 10,000 rows a second
 * apart; unset (Vitest), the span is the first.
 */
const WORKER_SPAN_MS = 10_000 * 1000;
let clock = Date.parse("2030-01-01T00:00:00Z") + Number(process.env.TEST_WORKER_INDEX ?? 0) * WORKER_SPAN_MS;
const nextTimestamp = () => new Date((clock += 1000)).toISOString();

export async function createCategory(db: Kysely<DB>, overrides: Partial<Insertable<DB["categories"]>> = {}) {
  const row: Insertable<DB["categories"]> = {
    id: randomUUID(),
    name: unique("Category"),
    description: "Plants for testing",
    image_url: "/illustrations/categories/indoor-plants.svg",
    image_width: 600,
    image_height: 600,
    created_at: nextTimestamp(),
    ...overrides,
  };
  await db.insertInto("categories").values(row).execute();
  return row;
}

export async function createProduct(
  db: Kysely<DB>,
  overrides: Partial<Insertable<DB["products"]>> & { images?: string[] } = {},
) {
  const { images = ["/illustrations/products/snake-plant-1.svg"], ...fields } = overrides;
  const categoryId = fields.category_id ?? (await createCategory(db)).id;
  const createdAt = fields.created_at ?? nextTimestamp();
  const row: Insertable<DB["products"]> = {
    id: randomUUID(),
    name: unique("Fern"),
    description: "A plant made for a test",
    price_paise: 99_900,
    stock: 10,
    created_at: createdAt,
    updated_at: createdAt,
    ...fields,
    category_id: categoryId,
  };
  await db.insertInto("products").values(row).execute();
  // Its only variant, under the product's id as a migrated product's (docs/decisions/048): no label, the id as SKU.
  await db
    .insertInto("product_variants")
    .values({
      id: row.id,
      product_id: row.id,
      position: 0,
      label: "",
      sku: `SKU-${row.id}`,
      price_paise: row.price_paise,
      compare_at_paise: row.compare_at_paise ?? null,
      stock: row.stock,
      created_at: createdAt,
      updated_at: createdAt,
    })
    .execute();
  if (images.length) {
    await db
      .insertInto("product_images")
      .values(images.map((url, position) => ({ id: randomUUID(), product_id: row.id, position, url, width: 800, height: 800 })))
      .execute();
  }
  return row;
}

/** A care profile with every part said, as the product's JSON and the edit form answer it; a new object per call. */
export function careProfile(overrides: Partial<CareProfile> = {}): CareProfile {
  return {
    light: "bright-indirect",
    watering: "When the top 2 cm of soil is dry",
    waterEveryDays: 7,
    petSafe: "no",
    difficulty: "beginner",
    place: "indoor",
    heightCm: 120,
    flowering: "Spring",
    ...overrides,
  };
}

/**
 * Reviews of one product, with the product's review count and rating total moved in step, as the reviews service
 * moves them: a page then shows the same average as after reviews written through it.
 */
export async function createReviews(
  db: Kysely<DB>,
  productId: string,
  reviews: Array<Partial<Insertable<DB["reviews"]>> & Pick<Insertable<DB["reviews"]>, "user_id" | "rating">>,
) {
  const rows: Array<Insertable<DB["reviews"]>> = reviews.map((review) => {
    const createdAt = review.created_at ?? nextTimestamp();
    return { id: randomUUID(), text: "A review made for a test", created_at: createdAt, updated_at: createdAt, ...review, product_id: productId };
  });
  const ratings = rows.reduce((total, row) => total + row.rating, 0);
  await db.insertInto("reviews").values(rows).execute();
  await db
    .updateTable("products")
    .set((eb) => ({ review_count: eb("review_count", "+", rows.length), rating_total: eb("rating_total", "+", ratings) }))
    .where("id", "=", productId)
    .execute();
  return rows;
}

/**
 * Changes a one-variant product's price, compare-at price or stock behind the shop's back (a test's arrangement), on
 * the variant and on the product's summary of it together, as the catalog's own writes keep them.
 */
export async function setSelling(db: Kysely<DB>, productId: string, fields: { stock?: number; price_paise?: number; compare_at_paise?: number | null }) {
  await db.updateTable("product_variants").set(fields).where("product_id", "=", productId).execute();
  await db.updateTable("products").set(fields).where("id", "=", productId).execute();
}

/**
 * A plant sold in several sizes, made as the owner's form makes one: the first size under the product's id, the
 * product's row summarising them (the lowest price, the highest when they differ, the total stock). Answers the
 * product and its sizes' ids in order.
 */
export async function createProductWithSizes(
  db: Kysely<DB>,
  sizes: { label: string; price_paise: number; stock: number; compare_at_paise?: number | null }[],
  overrides: Partial<Insertable<DB["products"]>> & { images?: string[] } = {},
) {
  const [first, ...more] = sizes;
  if (!first) throw new Error("a plant needs at least one size");
  const prices = sizes.map((size) => size.price_paise);
  const product = await createProduct(db, {
    ...overrides,
    price_paise: Math.min(...prices),
    max_price_paise: Math.max(...prices) > Math.min(...prices) ? Math.max(...prices) : null,
    stock: sizes.reduce((n, size) => n + size.stock, 0),
  });
  await db
    .updateTable("product_variants")
    .set({ label: first.label, price_paise: first.price_paise, compare_at_paise: first.compare_at_paise ?? null, stock: first.stock })
    .where("id", "=", product.id)
    .execute();
  const ids = [product.id];
  for (const [index, size] of more.entries()) {
    const id = randomUUID();
    await db
      .insertInto("product_variants")
      .values({
        id,
        product_id: product.id,
        position: index + 1,
        label: size.label,
        sku: `SKU-${id}`,
        price_paise: size.price_paise,
        compare_at_paise: size.compare_at_paise ?? null,
        stock: size.stock,
        created_at: String(product.created_at),
        updated_at: String(product.created_at),
      })
      .execute();
    ids.push(id);
  }
  return { product, sizeIds: ids };
}
