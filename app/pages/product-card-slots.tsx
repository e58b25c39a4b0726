import type { ProductSummary } from "#common/catalog/catalog-types.ts";
import type { ProductCardSlots } from "../features/catalog/components/product-card.tsx";
import { RatingSummary } from "../features/reviews/components/stars.tsx";
import { HeartButton } from "../features/wishlist/components/heart-button.tsx";
import { usePersonal } from "../shared/components/personal-parts.tsx";

/**
 * What the other features show on a catalog card, one place for every page with a product grid: the rating under
 * the price, the wishlist's heart over the picture. `saved` is which of the page's plants the person saved, read by
 * the page's loader (none in a page every visitor or every shopper shares: there the server fills each shopper's
 * hearts in, server/shopper-pages.ts).
 */
export function useProductCardSlots(saved: readonly string[]): (product: ProductSummary) => ProductCardSlots {
  const { signedIn } = usePersonal();
  const savedIds = new Set(saved);
  return (product) => ({
    corner: <HeartButton productId={product.id} productName={product.name} saved={savedIds.has(product.id)} signedIn={signedIn} />,
    details: <RatingSummary averageRating={product.averageRating} reviewCount={product.reviewCount} compact />,
  });
}
