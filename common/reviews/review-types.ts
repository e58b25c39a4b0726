// Shapes the reviews service returns and the product page and JSON API show.
export interface Review {
  id: string;
  productId: string;
  rating: number;
  text: string;
  /** The author's full name, or 'Anonymous' once their account is gone. */
  authorName: string;
  /** Null once the author's account is gone. */
  authorId: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ReviewPage {
  items: Review[];
  /** Pass as `after` for the next, older page; null on the last page. */
  nextCursor: string | null;
}

/** The maintained figures of one product: number of reviews and the average to one decimal (null without reviews). */
export interface RatingSummary {
  reviewCount: number;
  averageRating: number | null;
}

/** The average to one decimal, from the product's maintained count and total; null when there are no reviews. */
export function averageRating(reviewCount: number, ratingTotal: number): number | null {
  return reviewCount > 0 ? Math.round((ratingTotal / reviewCount) * 10) / 10 : null;
}
