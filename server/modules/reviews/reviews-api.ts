import { Hono } from "hono";
import type { AppEnv } from "../../app-env.ts";
import { currentUser } from "../../platform/http/request-context.ts";
import { readJson } from "../../platform/http/read-json.ts";

/** Mounted at /api/products/:productId/reviews (server/api-routes.ts). */
export const reviewsApi = new Hono<AppEnv>()
  .get("/", async (c) => c.json(await c.var.services.reviews.listReviews(c.req.param("productId"), c.req.query())))
  .get("/mine", async (c) => c.json({ review: await c.var.services.reviews.getMyReview(await currentUser(c), c.req.param("productId")) }))
  .put("/mine", async (c) => {
    const user = await currentUser(c);
    // A body that is not JSON is refused by the service's own check, with the spec's prefix.
    const body = await readJson(c).catch(() => null);
    const { review, created } = await c.var.services.reviews.saveMyReview(user, c.req.param("productId"), body);
    return c.json(review, created ? 201 : 200);
  })
  .delete("/mine", async (c) => {
    await c.var.services.reviews.deleteMyReview(await currentUser(c), c.req.param("productId"));
    return c.body(null, 204);
  })
  .delete("/:reviewId", async (c) => {
    await c.var.services.reviews.deleteReview(await currentUser(c), c.req.param("productId"), c.req.param("reviewId"));
    return c.body(null, 204);
  });
