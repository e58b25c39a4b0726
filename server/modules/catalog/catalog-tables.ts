import type { ColumnType, Generated } from "kysely";
import type { Difficulty, LightLevel, PetSafety, PlantPlace } from "#common/catalog/care-profile.ts";
import type { Timestamp } from "../../platform/db/values.ts";

// The catalog's tables as Kysely sees them, created by ./migrations and added to the database's type (DB) here, so
// that the platform names no feature (docs/decisions/002-database-portability.md). The search tables are read
// with SQL of their own (./search) and are not typed here.

export interface CategoryTable {
  id: string;
  name: string;
  description: string;
  image_url: string;
  image_width: number;
  image_height: number;
  /** Set when the image was made from an upload: the key of its variants (migration 0009, decision 022). */
  image_media_key: string | null;
  created_at: Timestamp;
}

export interface ProductTable {
  id: string;
  name: string;
  description: string;
  price_paise: number;
  stock: number;
  category_id: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Maintained with every review write (migration 0008-reviews): the average needs no aggregate. */
  review_count: Generated<number>;
  rating_total: Generated<number>;
  /** The regular price shown struck through while on sale (migration 0022, decision 047); null: no sale. */
  compare_at_paise: ColumnType<number | null, number | null | undefined, number | null>;
  sale_starts_at: ColumnType<string | Date | null, string | null | undefined, string | null>;
  sale_ends_at: ColumnType<string | Date | null, string | null | undefined, string | null>;
  /** Set when the variants' prices differ: the highest ('From Rs. X' on a card). price_paise is the lowest (migration 0023). */
  max_price_paise: ColumnType<number | null, number | null | undefined, number | null>;
  /** The care profile (migration 0024, decision 049): each part optional, null when the owner has not said. */
  care_light: ColumnType<LightLevel | null, LightLevel | null | undefined, LightLevel | null>;
  care_watering: ColumnType<string | null, string | null | undefined, string | null>;
  care_water_every_days: ColumnType<number | null, number | null | undefined, number | null>;
  care_pet_safe: ColumnType<PetSafety | null, PetSafety | null | undefined, PetSafety | null>;
  care_difficulty: ColumnType<Difficulty | null, Difficulty | null | undefined, Difficulty | null>;
  care_place: ColumnType<PlantPlace | null, PlantPlace | null | undefined, PlantPlace | null>;
  care_height_cm: ColumnType<number | null, number | null | undefined, number | null>;
  care_flowering: ColumnType<string | null, string | null | undefined, string | null>;
  /** Computed by the database (migration 0025): the facet cell the filters read, never written. */
  care_cell: ColumnType<number, never, never>;
  /** Computed by the database (migration 0025): the average review, 0 without reviews. */
  rating_average: ColumnType<number, never, never>;
}

/**
 * A product's sellable unit (migration 0023, decision 048): its size or option, with its own price, compare-at
 * price and stock. The product's price_paise, compare_at_paise, max_price_paise and stock summarise its variants.
 */
export interface ProductVariantTable {
  id: string;
  product_id: string;
  position: number;
  /** Empty for a product's only variant (no choice to name); required once there are several. */
  label: string;
  sku: string;
  price_paise: number;
  compare_at_paise: number | null;
  stock: number;
  /** One of the product's pictures, shown first while this size is chosen; null: the product's own order. */
  image_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ProductImageTable {
  id: string;
  product_id: string;
  position: number;
  url: string;
  width: number;
  height: number;
  /** Set when the image was made from an upload: the key of its variants (migration 0009, decision 022). */
  media_key: string | null;
}

/** One row per one-time seed that has run (migration 0007-seeding-record). */
export interface SeedRunTable {
  name: string;
  ran_at: Timestamp;
  categories_created: number;
  products_created: number;
}

/**
 * How many products each facet cell holds in a scope ('' the whole shop, else a category's id), settled, as a JSON
 * array with a number per cell (migration 0035-facet-cell-counts, docs/decisions/062). Kept by triggers; read with
 * its changes by ./cell-counts.ts.
 */
export interface ProductCellCountTable {
  scope: string;
  counts: string;
}

/**
 * How many products each facet cell holds in one price band of a scope, settled, as a JSON array with a number per
 * cell (migration 0036-price-band-counts, docs/decisions/063). Kept like product_cell_counts.
 */
export interface ProductPriceBandCountTable {
  scope: string;
  band: number;
  counts: string;
}

/**
 * A product write's change to a priced cell's count (cell × PRICE_BAND_COUNT + band: the count of its cell and of its
 * cell in its band) not yet folded into product_cell_counts and product_price_band_counts (PostgreSQL only).
 */
export interface ProductCellCountChangeTable {
  id: Generated<number>;
  scope: string;
  priced_cell: number;
  delta: number;
}

/**
 * A catalogue import's preview, then its progress (migration 0037-catalog-imports, docs/decisions/058): `view` and
 * `plans` are JSON (what the page shows; the product form saves to make), kept a day.
 */
export interface CatalogImportTable {
  token: string;
  state: "preview" | "running" | "finished";
  view: string;
  plans: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

declare module "../../platform/db/schema.ts" {
  interface DB {
    product_cell_counts: ProductCellCountTable;
    product_price_band_counts: ProductPriceBandCountTable;
    product_cell_count_changes: ProductCellCountChangeTable;
    categories: CategoryTable;
    products: ProductTable;
    product_images: ProductImageTable;
    product_variants: ProductVariantTable;
    seed_runs: SeedRunTable;
    catalog_imports: CatalogImportTable;
  }
}
