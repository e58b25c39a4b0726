import type { Kysely, Selectable, SelectQueryBuilder } from "kysely";
import type { CategorySummary, ImageRef, ProductSummary } from "#common/catalog/catalog-types.ts";
import { averageRating } from "#common/reviews/review-types.ts";
import type { DB } from "../../platform/db/schema.ts";
import { priceAt, type SalePricing } from "#common/catalog/sale-price.ts";
import { shopClock } from "../../platform/clock.ts";
import { toIsoString } from "../../platform/db/values.ts";
import type { ProductTable } from "./catalog-tables.ts";
import { SEARCH_RESULT_CAP } from "./search/product-search.ts";
import { SHOP_PAGE_SIZE } from "#common/shared/constants.ts";

// The rows the shop's lists and pages read, and the shapes they are answered in.

/** Lists count their products up to this many and say "1,000+" beyond: a count never reads the whole catalogue. */
export const TOTAL_CAP = SEARCH_RESULT_CAP;

/** The rows of a list's page (from 1): its twelve, after the pages before it (docs/decisions/064). */
export const pageRows = (page: number) => ({ limit: SHOP_PAGE_SIZE, offset: SHOP_PAGE_SIZE * (page - 1) });

export const PRODUCT_COLUMNS = [
  "p.id",
  "p.name",
  "p.description",
  "p.price_paise",
  "p.stock",
  "p.category_id",
  "p.created_at",
  // Maintained by the reviews module with every review write: the average costs no aggregate (decision 020).
  "p.review_count",
  "p.rating_total",
  // The sale's columns (decision 047): what the price is now is worked out from them when a row is shaped.
  "p.compare_at_paise",
  "p.sale_starts_at",
  "p.sale_ends_at",
  // Set when the sizes' prices differ (decision 048): the card says 'From' before the lowest.
  "p.max_price_paise",
] as const;

export type ProductsFrom = SelectQueryBuilder<DB & { p: DB["products"] }, "p", object>;

/** Columns of a product card: the product and its first picture. */
export function withSummaryColumns(query: ProductsFrom) {
  return query
    .leftJoin("product_images as img", (join) => join.onRef("img.product_id", "=", "p.id").on("img.position", "=", 0))
    .select([
      ...PRODUCT_COLUMNS,
      "img.url as image_url",
      "img.width as image_width",
      "img.height as image_height",
      "img.media_key as image_media_key",
    ]);
}

/** Product cards with their first picture, to narrow and order. */
export function summaries(db: Kysely<DB>) {
  return withSummaryColumns(db.selectFrom("products as p"));
}

/** The care profile is read by the product page, not by cards: a card's row leaves it out. */
type CareColumn = Extract<keyof ProductTable, `care_${string}`>;

type SummaryRow = Omit<Selectable<ProductTable>, "updated_at" | "rating_average" | CareColumn> & {
  image_url: string | null;
  image_width: number | null;
  image_height: number | null;
  image_media_key: string | null;
};

/** The sale columns of a row, as the price rule reads them. */
export function salePricing(row: Pick<Selectable<ProductTable>, "price_paise" | "compare_at_paise" | "sale_starts_at" | "sale_ends_at">): SalePricing {
  return {
    pricePaise: row.price_paise,
    compareAtPaise: row.compare_at_paise,
    saleStartsAt: row.sale_starts_at === null ? null : toIsoString(row.sale_starts_at),
    saleEndsAt: row.sale_ends_at === null ? null : toIsoString(row.sale_ends_at),
  };
}

/** What a product costs and shows at `now`: the price charged, and the sale shown beside it if one runs. */
export function pricedAt(row: Parameters<typeof salePricing>[0], now: number): Pick<ProductSummary, "pricePaise" | "sale"> {
  const price = priceAt(salePricing(row), now);
  return {
    pricePaise: price.chargedPaise,
    sale: price.regularPaise === null ? null : { regularPaise: price.regularPaise, savingPaise: price.savingPaise, savingPercent: price.savingPercent },
  };
}

export function toSummary(row: SummaryRow, now: number = shopClock.now()): ProductSummary {
  const image: ImageRef | null =
    row.image_url === null
      ? null
      : { url: row.image_url, width: row.image_width ?? 800, height: row.image_height ?? 800, alt: row.name, mediaKey: row.image_media_key };
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    ...pricedAt(row, now),
    priceVaries: row.max_price_paise !== null,
    stock: row.stock,
    categoryId: row.category_id,
    image,
    createdAt: toIsoString(row.created_at),
    reviewCount: row.review_count,
    averageRating: averageRating(row.review_count, row.rating_total),
  };
}

export function toCategory(row: Selectable<DB["categories"]>): CategorySummary {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    image: { url: row.image_url, width: row.image_width, height: row.image_height, alt: row.name, mediaKey: row.image_media_key },
  };
}
