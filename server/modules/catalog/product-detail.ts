import type { ProductDetail } from "#common/catalog/catalog-types.ts";
import { averageRating } from "#common/reviews/review-types.ts";
import { messages } from "#common/shared/messages.ts";
import { productIdParamSchema } from "#common/catalog/catalog-schemas.ts";
import { toIsoString } from "../../platform/db/values.ts";
import { NotFoundError, parseInput } from "../../platform/errors.ts";
import type { CatalogContext } from "./catalog-context.ts";
import { shopClock } from "../../platform/clock.ts";
import { CARE_COLUMNS, careFromRow } from "./care-columns.ts";
import { PRODUCT_COLUMNS, pricedAt } from "./product-rows.ts";
import { listVariants } from "./variants.ts";

/**
 * When the product last changed, for its event stream's `ready` event (decision 019): one indexed
 * row of one column, where the product itself would also read its category and images.
 */
export async function getProductVersion(ctx: Pick<CatalogContext, "db">, input: unknown): Promise<{ updatedAt: string }> {
  const { productId } = parseInput(productIdParamSchema, input);
  const product = await ctx.db.selectFrom("products").select("updated_at").where("id", "=", productId).executeTakeFirst();
  if (!product) throw new NotFoundError(messages.product.notFound);
  return { updatedAt: toIsoString(product.updated_at) };
}

export async function getProduct(ctx: Pick<CatalogContext, "db">, input: unknown): Promise<ProductDetail> {
  const { productId } = parseInput(productIdParamSchema, input);
  const product = await ctx.db
    .selectFrom("products as p")
    .innerJoin("categories as c", "c.id", "p.category_id")
    .select([...PRODUCT_COLUMNS, ...CARE_COLUMNS, "p.updated_at", "c.name as category_name"])
    .where("p.id", "=", productId)
    .executeTakeFirst();
  if (!product) throw new NotFoundError(messages.product.notFound);
  const variants = await listVariants(ctx.db, productId);
  const now = shopClock.now();
  const images = await ctx.db
    .selectFrom("product_images")
    .select(["id", "url", "width", "height", "media_key as mediaKey"])
    .where("product_id", "=", productId)
    .orderBy("position")
    .execute();
  return {
    id: product.id,
    name: product.name,
    description: product.description,
    ...pricedAt(product, now),
    priceVaries: product.max_price_paise !== null,
    stock: product.stock,
    variants: variants.map((variant) => ({
      id: variant.id,
      label: variant.label,
      sku: variant.sku,
      // The sale window is the product's; each size has its own compare-at price.
      ...pricedAt({ ...variant, sale_starts_at: product.sale_starts_at, sale_ends_at: product.sale_ends_at }, now),
      stock: variant.stock,
      pictureIndex: variant.image_id === null ? null : nullIfMissing(images.findIndex((image) => image.id === variant.image_id)),
    })),
    categoryId: product.category_id,
    category: { id: product.category_id, name: product.category_name },
    images: images.map(({ id: _id, ...image }, index) => ({
      ...image,
      alt: `${product.name}, picture ${index + 1} of ${images.length}`,
    })),
    createdAt: toIsoString(product.created_at),
    updatedAt: toIsoString(product.updated_at),
    reviewCount: product.review_count,
    averageRating: averageRating(product.review_count, product.rating_total),
    care: careFromRow(product),
  };
}

const nullIfMissing = (index: number) => (index < 0 ? null : index);
