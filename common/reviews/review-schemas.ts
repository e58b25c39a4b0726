import { z } from "zod";
import { REVIEW_MAX_LENGTH, REVIEWS_MAX_PAGE_SIZE, REVIEWS_PAGE_SIZE } from "../shared/constants.ts";
import { formNumber, idSchema, multiLineText } from "../shared/fields.ts";
import { messages } from "../shared/messages.ts";
import { isServerInstant } from "../shared/timestamps.ts";

const r = messages.reviews;

/**
 * A shopper's review (docs/product.md, Reviews): non-empty text and a rating 1–5, else the one message
 * 'Please provide a review and a rating.'
 * Text is plain and kept as typed, lines included; it is trimmed and always shown escaped.
 */
export const reviewInputSchema = z.object({
  text: z
    .string({ error: r.incomplete })
    .trim()
    .min(1, r.incomplete)
    .max(REVIEW_MAX_LENGTH, r.textTooLong(REVIEW_MAX_LENGTH))
    .pipe(multiLineText()),
  // A form sends "4"; a missing or zero rating makes the review incomplete, anything else not 1–5 is refused the same way.
  rating: formNumber(z.number({ error: r.incomplete }).int(r.incomplete).min(1, r.incomplete).max(5, r.incomplete)),
});
export type ReviewInput = z.infer<typeof reviewInputSchema>;

/**
 * The key of the last review a page showed (its created_at and id), opaque to clients: the next page starts
 * right after it, so a page costs the same however many reviews came before it.
 */
export const reviewCursorSchema = z
  .string()
  .max(200)
  .transform((value, ctx) => {
    const decoded = decodeCursor(value);
    if (!decoded) {
      ctx.addIssue({ code: "custom", message: "Not a valid page of reviews." });
      return z.NEVER;
    }
    return decoded;
  });

export const reviewListQuerySchema = z.object({
  after: reviewCursorSchema.optional(),
  limit: z.coerce.number().int().min(1).max(REVIEWS_MAX_PAGE_SIZE).default(REVIEWS_PAGE_SIZE),
});

export const reviewIdSchema = idSchema;

// ---- What the JSON API answers about reviews.

/**
 * The maintained review figures of one product, as every product the API answers carries them: the number of
 * reviews and the average to one decimal (null without reviews).
 */
export const ratingSummarySchema = z.strictObject({
  reviewCount: z.int().min(0),
  averageRating: z.number().min(1).max(5).nullable().meta({ description: "To one decimal; null while there are no reviews" }),
});

export const reviewSchema = z
  .strictObject({
    id: z.string(),
    productId: z.string(),
    rating: z.int().min(1).max(5),
    text: z.string().meta({ description: "Plain text; show it escaped" }),
    authorName: z.string().meta({ description: "The author's full name, or 'Anonymous' once their account is gone" }),
    authorId: z.string().nullable().meta({ description: "Null once the author's account is gone" }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "Review" });

export const reviewPageSchema = z
  .strictObject({
    items: z.array(reviewSchema),
    nextCursor: z.string().nullable().meta({ description: "Pass as `after` for the next, older page; null on the last page" }),
  })
  .meta({ id: "ReviewPage" });

/** The signed-in shopper's own review of a product: null for none, or for a visitor. */
export const myReviewSchema = z.strictObject({ review: reviewSchema.nullable() }).meta({ id: "MyReview" });

export interface ReviewCursor {
  createdAt: string;
  id: string;
}

export function encodeCursor({ createdAt, id }: ReviewCursor): string {
  return `${createdAt}_${id}`;
}

function decodeCursor(value: string): ReviewCursor | null {
  const separator = value.indexOf("_");
  if (separator < 0) return null;
  const createdAt = value.slice(0, separator);
  const id = value.slice(separator + 1);
  if (!isServerInstant(createdAt)) return null;
  if (!idSchema.safeParse(id).success) return null;
  return { createdAt, id };
}
