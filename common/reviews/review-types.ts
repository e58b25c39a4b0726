// Shapes the reviews service returns and the product page and JSON API show: inferred from the schemas that document them.
import type { z } from "zod";
import type { ratingSummarySchema, reviewPageSchema, reviewSchema } from "./review-schemas.ts";
export type Review = z.infer<typeof reviewSchema>;
export type ReviewPage = z.infer<typeof reviewPageSchema>;
/** The maintained figures of one product: number of reviews and the average to one decimal (null without reviews). */
export type RatingSummary = z.infer<typeof ratingSummarySchema>;

/** The average to one decimal, from the product's maintained count and total; null when there are no reviews. */
export function averageRating(reviewCount: number, ratingTotal: number): number | null {
  return reviewCount > 0 ? Math.round((ratingTotal / reviewCount) * 10) / 10 : null;
}
