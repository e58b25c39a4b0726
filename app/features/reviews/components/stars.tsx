import { messages } from "#common/shared/messages.ts";
import type { RatingSummary as RatingFigures } from "#common/reviews/review-types.ts";

const STAR_PATH =
  "M12 2.5l2.9 6.1 6.6.8-4.9 4.6 1.3 6.6L12 17.3l-5.9 3.3 1.3-6.6L2.5 9.4l6.6-.8z";

export function StarIcon({
  filled,
  className = "h-4 w-4",
}: {
  filled: boolean;
  className?: string;
}) {
  return (
    <svg
      viewBox="0 0 24 24"
      aria-hidden="true"
      className={`${className} ${filled ? "fill-amber-500 text-amber-500" : "fill-none text-stone-400"}`}
    >
      <path
        d={STAR_PATH}
        stroke="currentColor"
        strokeWidth="1.5"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** A rating of 1–5 as five stars, read out as "4 stars" (whole ratings) or "4.3 out of 5" (averages). */
export function Stars({
  rating,
  className,
}: {
  rating: number;
  className?: string;
}) {
  const label = Number.isInteger(rating)
    ? messages.reviews.starName(rating)
    : `${rating.toFixed(1)} out of 5`;
  return (
    <span
      role="img"
      aria-label={label}
      className={`inline-flex gap-0.5 ${className ?? ""}`}
    >
      {[1, 2, 3, 4, 5].map((n) => (
        <StarIcon key={n} filled={n <= Math.round(rating)} />
      ))}
    </span>
  );
}

/**
 * The average (one decimal) and the number of reviews, from the product's maintained figures; "No ratings
 * yet" without reviews. Used by the product page and every product card.
 */
export function RatingSummary({
  averageRating,
  reviewCount,
  compact = false,
}: RatingFigures & { compact?: boolean }) {
  if (averageRating === null || reviewCount === 0) {
    return (
      <p className="text-sm text-stone-500">{messages.reviews.noRatingYet}</p>
    );
  }
  const average = averageRating.toFixed(1);
  return (
    <p
      className="flex items-center gap-2 text-sm text-stone-700"
      data-testid="rating-summary"
    >
      <Stars rating={averageRating} />
      {compact ? (
        <span aria-label={messages.reviews.average(average, reviewCount)}>
          {average} ({reviewCount})
        </span>
      ) : (
        <span>{messages.reviews.average(average, reviewCount)}</span>
      )}
    </p>
  );
}
