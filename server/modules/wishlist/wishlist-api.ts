import { Hono } from "hono";
import { wishlistPageSchema, wishlistProductParamSchema, wishlistQuerySchema, wishlistStateSchema } from "#common/wishlist/wishlist-schemas.ts";
import { describeRoute, json, parameters, problems } from "../../platform/http/api-docs.ts";
import type { PlatformEnv } from "../../platform/http/http-env.ts";
import { currentUser } from "../../platform/http/request-context.ts";
import type { WishlistService } from "./wishlist.ts";

/** The signed-in shopper's saved plants (docs/product.md, Wishlist): theirs only, 401 without a session. */
export const wishlistApi = (wishlist: WishlistService) =>
  new Hono<PlatformEnv>()
    .get(
      "/",
      describeRoute({
        summary: "The signed-in shopper's saved plants, newest first, with their current price, sale and stock; a page at a time by key",
        parameters: parameters(wishlistQuerySchema, "query"),
        responses: { 200: json(wishlistPageSchema, "A page of the list"), ...problems(400, 401) },
      }),
      async (c) => c.json(await wishlist.list(await currentUser(c), c.req.query())),
    )
    .put(
      "/:productId",
      describeRoute({
        summary: "Save a plant to the signed-in shopper's wishlist (saving it again changes nothing)",
        parameters: parameters(wishlistProductParamSchema, "path"),
        responses: { 200: json(wishlistStateSchema, "Already saved"), 201: json(wishlistStateSchema, "Saved"), ...problems(400, 401, 404, 409) },
      }),
      async (c) => {
        const { created, ...state } = await wishlist.save(await currentUser(c), c.req.param("productId"));
        return c.json(state, created ? 201 : 200);
      },
    )
    .delete(
      "/:productId",
      describeRoute({
        summary: "Remove a plant from the signed-in shopper's wishlist (removing one not saved changes nothing)",
        parameters: parameters(wishlistProductParamSchema, "path"),
        responses: { 200: json(wishlistStateSchema, "Not saved now"), ...problems(400, 401) },
      }),
      async (c) => c.json(await wishlist.remove(await currentUser(c), c.req.param("productId"))),
    );
