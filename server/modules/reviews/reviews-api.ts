import { Hono } from "hono";
import { productIdParamSchema } from "#common/catalog/catalog-schemas.ts";
import { myReviewSchema, reviewInputSchema, reviewListQuerySchema, reviewPageSchema, reviewSchema } from "#common/reviews/review-schemas.ts";
import type { PlatformEnv } from "../../platform/http/http-env.ts";
import type { ReviewsService } from "./reviews.ts";
import { describeRoute, idParameter, json, jsonBody, notModified, parameters, problems } from "../../platform/http/api-docs.ts";
import { currentUser } from "../../platform/http/request-context.ts";
import { readJson } from "../../platform/http/read-json.ts";

const productParameters = parameters(productIdParamSchema, "path");

/** Mounted at /api/products/:productId/reviews (server/api-routes.ts). */
export const reviewsApi = (reviews: ReviewsService) => new Hono<PlatformEnv>()
  .get(
    "/",
    describeRoute({
      summary: "A product's reviews, newest first; pass nextCursor as `after` for the next page",
      parameters: [...productParameters, ...parameters(reviewListQuerySchema, "query")],
      responses: { 200: json(reviewPageSchema, "A page of reviews"), ...problems(400, 404), ...notModified },
    }),
    async (c) => c.json(await reviews.listReviews(c.req.param("productId"), c.req.query())),
  )
  .get(
    "/mine",
    describeRoute({
      summary: "The signed-in shopper's review of the product (null for none or a visitor)",
      parameters: productParameters,
      responses: { 200: json(myReviewSchema, "Their review"), ...problems(400, 404) },
    }),
    async (c) => c.json({ review: await reviews.getMyReview(await currentUser(c), c.req.param("productId")) }),
  )
  .put(
    "/mine",
    describeRoute({
      summary: "Add the signed-in shopper's review, or replace theirs (one per shopper per product)",
      parameters: productParameters,
      requestBody: jsonBody(reviewInputSchema),
      responses: { 200: json(reviewSchema, "Replaced"), 201: json(reviewSchema, "Added"), ...problems(400, 401, 403, 404, 413, 415) },
    }),
    async (c) => {
      const user = await currentUser(c);
      // A body that is not JSON is refused by the service's own check, with 'Failed to add review:' before its message.
      const body = await readJson(c).catch(() => null);
      const { review, created } = await reviews.saveMyReview(user, c.req.param("productId"), body);
      return c.json(review, created ? 201 : 200);
    },
  )
  .delete(
    "/mine",
    describeRoute({
      summary: "Delete the signed-in shopper's review",
      parameters: productParameters,
      responses: { 204: { description: "Deleted" }, ...problems(401, 403, 404) },
    }),
    async (c) => {
      await reviews.deleteMyReview(await currentUser(c), c.req.param("productId"));
      return c.body(null, 204);
    },
  )
  .delete(
    "/:reviewId",
    describeRoute({
      summary: "Delete one review: an admin any, anyone else only their own",
      parameters: [...productParameters, idParameter("reviewId")],
      responses: { 204: { description: "Deleted" }, ...problems(401, 403, 404) },
    }),
    async (c) => {
      await reviews.deleteReview(await currentUser(c), c.req.param("productId"), c.req.param("reviewId"));
      return c.body(null, 204);
    },
  );
