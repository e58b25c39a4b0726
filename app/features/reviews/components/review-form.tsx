import { useEffect } from "react";
import { toast } from "../../../shared/lib/toast.ts";
import { Link, useFetcher, useLocation } from "react-router";
import type { Review } from "#common/reviews/review-types.ts";
import { REVIEW_MAX_LENGTH } from "#common/shared/constants.ts";
import { messages } from "#common/shared/messages.ts";
import { SubmitButton } from "../../../shared/ui/submit-button.tsx";
import { StarPicker } from "./star-picker.tsx";

const r = messages.reviews;

/** What the product page's action answers to the review forms. */
export type ReviewActionResult =
  | { ok: true; intent: "review-save" | "review-delete" }
  | {
      ok: false;
      intent: "review-save" | "review-delete";
      message: string;
      fieldErrors?: Record<string, string>;
    };

/**
 * Add Review (spec sections 2 and 5): textarea, star picker, 'Add Review'; prefilled with the shopper's own
 * review, which writing again replaces. A visitor is asked to log in instead. Posts to the product page's
 * action, so it works before JavaScript loads; the list and average come back with the page's loader data.
 */
export function ReviewForm({
  productId,
  mine,
  signedIn,
}: {
  productId: string;
  mine: Review | null;
  signedIn: boolean;
}) {
  const location = useLocation();
  if (!signedIn) {
    return (
      <p className="mt-6 text-stone-700">
        <Link
          to={`/login?redirectTo=${encodeURIComponent(location.pathname)}`}
          className="font-semibold text-leaf-800 underline"
        >
          {r.logInToReview}
        </Link>
      </p>
    );
  }
  return <SignedInForm productId={productId} mine={mine} />;
}

function SignedInForm({
  productId,
  mine,
}: {
  productId: string;
  mine: Review | null;
}) {
  const fetcher = useFetcher<ReviewActionResult>();
  const result =
    fetcher.data?.intent === "review-save" ? fetcher.data : undefined;
  useEffect(() => {
    if (fetcher.state === "idle" && result?.ok) toast.success(r.added);
  }, [fetcher.state, result]);
  // The spec's one message for a missing text or rating; other refusals say what is wrong.
  const error =
    result && !result.ok
      ? (result.fieldErrors?.text ??
        result.fieldErrors?.rating ??
        result.message)
      : null;

  return (
    <fetcher.Form
      method="post"
      action={`/product/${productId}`}
      noValidate
      className="mt-6 space-y-4"
      aria-label={mine ? r.yourReview : r.addReview}
    >
      <input type="hidden" name="intent" value="review-save" />
      {/* A new key when the shopper's review changes (saved, deleted): the fields show what is stored now. */}
      <div
        key={mine ? `${mine.id}-${mine.updatedAt}` : "new"}
        className="space-y-4"
      >
        <div>
          <label htmlFor="review-text" className="field-label">
            {r.yourReview}
          </label>
          <textarea
            id="review-text"
            name="text"
            rows={4}
            maxLength={REVIEW_MAX_LENGTH}
            defaultValue={mine?.text ?? ""}
            className="field-input"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "review-error" : undefined}
          />
        </div>
        <StarPicker
          name="rating"
          defaultValue={mine?.rating ?? null}
          invalid={!!error}
        />
      </div>
      {error ? (
        <p id="review-error" role="alert" className="field-error">
          {error}
        </p>
      ) : null}
      <SubmitButton
        busy={fetcher.state !== "idle"}
        busyLabel="Sending your review"
      >
        {r.addReview}
      </SubmitButton>
    </fetcher.Form>
  );
}
