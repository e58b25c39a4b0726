import { useEffect } from "react";
import { toast } from "../../../shared/lib/toast.ts";
import { Link, useActionData, useFetcher, useLocation } from "react-router";
import type { Review } from "#common/reviews/review-types.ts";
import { REVIEW_MAX_LENGTH } from "#common/shared/constants.ts";
import { messages } from "#common/shared/messages.ts";
import { useFormErrors } from "../../../shared/lib/use-form-errors.ts";
import { FormField } from "../../../shared/ui/form-field.tsx";
import { FormMessage } from "../../../shared/ui/form-message.tsx";
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
 * Add Review (docs/product.md, Reviews): textarea, star picker, 'Add Review'; prefilled with the shopper's own
 * review, which writing again replaces. A visitor is asked to log in instead. Checked in the browser first
 * (useFormErrors), each field showing its message ('Please provide a review and a rating.' for a missing text
 * or rating). Posts to the product page's action, so it works before JavaScript loads; the list and average
 * come back with the page's loader data.
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
  // Before JavaScript has loaded, the form posts to the page itself, which answers with the same result.
  const posted = useActionData<ReviewActionResult>();
  const sent =
    fetcher.data?.intent === "review-save" ? fetcher.data : undefined;
  const result =
    sent ?? (posted?.intent === "review-save" ? posted : undefined);
  const failure = result && !result.ok ? result : undefined;
  // Checked in the browser with the schema the server uses (loaded on demand: zod is not in the page's first load).
  const { errors, onSubmit, prepare } = useFormErrors(
    () =>
      import("#common/reviews/review-schemas.ts").then(
        (m) => m.reviewInputSchema,
      ),
    failure?.fieldErrors,
  );
  useEffect(() => {
    if (fetcher.state === "idle" && sent?.ok) toast.success(r.added);
  }, [fetcher.state, sent]);

  return (
    <fetcher.Form
      method="post"
      action={`/product/${productId}`}
      noValidate
      onSubmit={onSubmit}
      onFocus={prepare}
      className="mt-6 space-y-4"
      aria-label={mine ? r.yourReview : r.addReview}
    >
      <input type="hidden" name="intent" value="review-save" />
      {/* Refusals that name no field: the server failed, the product is gone. */}
      <FormMessage
        message={
          failure && !Object.keys(failure.fieldErrors ?? {}).length
            ? failure.message
            : null
        }
      />
      {/* A new key when the shopper's review changes (saved, deleted): the fields show what is stored now. */}
      <div
        key={mine ? `${mine.id}-${mine.updatedAt}` : "new"}
        className="space-y-4"
      >
        <FormField
          label={r.yourReview}
          name="text"
          multiline
          rows={4}
          maxLength={REVIEW_MAX_LENGTH}
          defaultValue={mine?.text ?? ""}
          error={errors.text}
        />
        <StarPicker
          name="rating"
          defaultValue={mine?.rating ?? null}
          error={errors.rating}
        />
      </div>
      <SubmitButton
        busy={fetcher.state !== "idle"}
        busyLabel="Sending your review"
      >
        {r.addReview}
      </SubmitButton>
    </fetcher.Form>
  );
}
