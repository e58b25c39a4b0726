// The reviews module's public face: the composition root, the other modules and the tests import only this.
export { createReviewsService, type ReviewsService } from "./reviews.ts";
export { reviewsApi } from "./reviews-api.ts";
export { reviewsMigrations } from "./migrations/reviews-migrations.ts";
export { detachAuthor, listReviewedProducts } from "./review-queries.ts";
