import { useEffect } from "react";
import { toast } from "../../../shared/lib/toast.ts";
import { Link, useFetcher } from "react-router";
import type { Review, ReviewPage } from "#common/reviews/review-types.ts";
import { messages } from "#common/shared/messages.ts";
import { ShopTime } from "../../../shared/ui/shop-time.tsx";
import { SubmitButton } from "../../../shared/ui/submit-button.tsx";
import { Stars } from "./stars.tsx";
import type { ReviewActionResult } from "./review-form.tsx";

const r = messages.reviews;
/** One fetcher for every delete button of the page, under this key, so that ReviewList reads its answer. */
const DELETE_REVIEW = "review-delete";

export interface ReviewViewer {
  id: string;
  isAdmin: boolean;
}

/**
 * The reviews panel (docs/product.md, Reviews): 500px high and scrolling, newest first, a page at a time.
 * 'More reviews' is a plain link to the next page by key, so it works before JavaScript loads. Texts are React text nodes,
 * always escaped, never HTML.
 */
export function ReviewList({
  page,
  after,
  viewer,
}: {
  page: ReviewPage;
  after: string | null;
  viewer: ReviewViewer | null;
}) {
  // The deletion's answer is read here, not by the review's own button: the live page (docs/decisions/019) may read the
  // list again before the answer arrives, and the deleted review leaves the page with its button.
  const deletion = useFetcher<ReviewActionResult>({ key: DELETE_REVIEW });
  const deleted = deletion.data;
  useEffect(() => {
    if (deleted?.ok && deleted.intent === "review-delete") toast.success(r.deleted);
  }, [deleted]);
  return (
    <section aria-labelledby="reviews-heading" className="mt-12">
      <h2 id="reviews-heading" className="text-2xl font-bold text-stone-900">
        {r.heading}
      </h2>
      {deleted && !deleted.ok && deletion.state === "idle" ? (
        <p role="alert" className="field-error mt-2">
          {deleted.message}
        </p>
      ) : null}
      <div
        className="mt-4 h-[500px] overflow-y-auto rounded-2xl border border-stone-200 bg-white p-4"
        data-testid="reviews-panel"
        tabIndex={0}
        aria-label={r.heading}
      >
        {page.items.length === 0 && !after ? (
          <p className="text-stone-600">{r.empty}</p>
        ) : (
          <ul className="divide-y divide-stone-100">
            {page.items.map((review) => (
              <ReviewItem
                key={review.id}
                review={review}
                canDelete={
                  !!viewer && (viewer.isAdmin || viewer.id === review.authorId)
                }
              />
            ))}
          </ul>
        )}
        <div className="mt-4 flex flex-wrap gap-4 text-sm">
          {after ? (
            <Link
              to="?"
              preventScrollReset
              className="font-semibold text-leaf-800 underline"
            >
              {r.newestReviews}
            </Link>
          ) : null}
          {page.nextCursor ? (
            <Link
              to={`?reviewsAfter=${encodeURIComponent(page.nextCursor)}`}
              preventScrollReset
              className="font-semibold text-leaf-800 underline"
            >
              {r.moreReviews}
            </Link>
          ) : null}
        </div>
      </div>
    </section>
  );
}

function ReviewItem({
  review,
  canDelete,
}: {
  review: Review;
  canDelete: boolean;
}) {
  return (
    <li className="py-4" data-testid="review">
      <div className="flex flex-wrap items-center gap-3">
        <Stars rating={review.rating} />
        <ShopTime instant={review.createdAt} show="date" className="text-sm text-stone-500" />
      </div>
      <p className="mt-2 whitespace-pre-line break-words text-stone-800">
        {review.text}
      </p>
      <p className="mt-1 text-sm text-stone-600">
        {r.by} {review.authorName}
      </p>
      {canDelete ? <DeleteReview review={review} /> : null}
    </li>
  );
}

function DeleteReview({ review }: { review: Review }) {
  const fetcher = useFetcher<ReviewActionResult>({ key: DELETE_REVIEW });
  const deleting = fetcher.state !== "idle" && fetcher.formData?.get("reviewId") === review.id;
  return (
    <fetcher.Form
      method="post"
      action={`/product/${review.productId}`}
      className="mt-2"
    >
      <input type="hidden" name="intent" value="review-delete" />
      <input type="hidden" name="reviewId" value={review.id} />
      <SubmitButton
        busy={deleting}
        busyLabel="Deleting the review"
        className="text-sm font-semibold text-red-700 underline"
      >
        {r.deleteReview}
      </SubmitButton>
    </fetcher.Form>
  );
}
