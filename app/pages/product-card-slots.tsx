import type { ProductSummary } from "#common/catalog/catalog-types.ts";
import type { ProductCardSlots } from "../features/catalog/components/product-card.tsx";
import { RatingSummary } from "../features/reviews/components/stars.tsx";
import { HeartButton } from "../features/wishlist/components/heart-button.tsx";
import { usePersonal } from "../shared/components/personal-parts.tsx";
import { savedAfterAnswers } from "../features/wishlist/lib/heart-answers.ts";

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

/**
 * Which of a list page's plants the person saved, for the list to keep with its cards (useGrowingList): the loader's
 * answer, or in a page every signed-in shopper shares (whose loaders read nobody's hearts) the person's data.
 */
export function useSavedOnPage(saved: readonly string[]): readonly string[] {
  const { data, shared } = usePersonal();
  return shared && data !== "marked" ? data.saved : saved;
}

/**
 * Which of the cards a list kept from its earlier pages the person saved: as the list kept them, changed by what the
 * person did to their hearts since (no loader reads those cards again).
 */
export function useSavedOfKept(): (kept: readonly { id: string }[], saved: readonly string[]) => readonly string[] {
  const { data } = usePersonal();
  const userId = data === "marked" ? undefined : data.user?.id;
  return (kept, saved) => savedAfterAnswers(userId, kept.map((card) => card.id), saved);
}
