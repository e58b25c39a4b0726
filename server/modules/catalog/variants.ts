import { randomBytes } from "node:crypto";
import type { Kysely, QueryCreator } from "kysely";
import type { DB } from "../../platform/db/schema.ts";

// A product's variants (docs/decisions/048): the sellable units, each with its label, SKU, price, compare-at price
// and stock. This file reads them and names new ones; inventory.ts writes them (their stock, their prices) and keeps
// their product's summary of them. Both are the catalog's: no other module writes a variant.

/** The variant columns a cart line shows and the checkout prices, by variant id: join it `as` an alias on its `id`. */
export function variantsForLines(from: QueryCreator<DB>) {
  return from.selectFrom("product_variants").select(["id", "product_id", "label", "sku", "price_paise", "compare_at_paise", "stock"]);
}

/** The id of the product's first variant in the owner's order (the one a product page shows unless another is chosen), as a subquery. */
export function firstVariantOf(from: QueryCreator<DB>, productId: string) {
  return from.selectFrom("product_variants").select("id").where("product_id", "=", productId).orderBy("position").orderBy("id").limit(1);
}

/** A product's variants in the owner's order. */
export function listVariants(from: Kysely<DB>, productId: string) {
  return from
    .selectFrom("product_variants")
    .select(["id", "label", "sku", "price_paise", "compare_at_paise", "stock", "position", "image_id"])
    .where("product_id", "=", productId)
    .orderBy("position")
    .orderBy("id")
    .execute();
}

/**
 * A SKU for a variant the owner gave none (a product made by the one-price form): the name's first words in capitals
 * and four random hex digits, e.g. 'SNAKE-PLANT-3F9A'. The owner may change it; the unique index refuses a repeat.
 */
export function skuFor(name: string, label = ""): string {
  const words = `${name} ${label}`
    .normalize("NFKD")
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, " ")
    .trim()
    .split(" ")
    .filter(Boolean);
  const stem = words.join("-").slice(0, 24).replace(/-+$/, "") || "PLANT";
  return `${stem}-${randomBytes(2).toString("hex").toUpperCase()}`;
}
