import type { ProductSummary } from "#common/catalog/catalog-types.ts";
import type { ProductCardSlots } from "../features/catalog/components/product-card.tsx";
import { RatingSummary } from "../features/reviews/components/stars.tsx";

/** What the other features show on a catalog card, one place for every page with a product grid. */
export function productCardSlots(product: ProductSummary): ProductCardSlots {
  return { details: <RatingSummary averageRating={product.averageRating} reviewCount={product.reviewCount} compact /> };
}
