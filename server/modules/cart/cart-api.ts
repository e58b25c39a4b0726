import { Hono } from "hono";
import { addToCartSchema, cartSchema, setQuantitySchema } from "#common/cart/cart-schemas.ts";
import type { PlatformEnv } from "../../platform/http/http-env.ts";
import type { CartService } from "./cart.ts";
import { describeRoute, idParameter, json, jsonBody, problems } from "../../platform/http/api-docs.ts";
import { currentUser } from "../../platform/http/request-context.ts";
import { readJson } from "../../platform/http/read-json.ts";

/** The signed-in shopper's cart; every answer is the whole cart as it now stands. */
export const cartApi = (cart: CartService) => new Hono<PlatformEnv>()
  .get(
    "/",
    describeRoute({
      summary: "The signed-in shopper's cart with current prices and totals",
      responses: { 200: json(cartSchema, "The cart"), ...problems(401) },
    }),
    async (c) => c.json(await cart.getCart(await currentUser(c))),
  )
  .post(
    "/items",
    describeRoute({
      summary: "Add a product (quantity 1 by default; never beyond the stock)",
      requestBody: jsonBody(addToCartSchema),
      responses: { 201: json(cartSchema, "The cart"), ...problems(400, 401, 404, 409) },
    }),
    async (c) => {
      const user = await currentUser(c);
      await cart.addToCart(user, await readJson(c));
      return c.json(await cart.getCart(user), 201);
    },
  )
  .patch(
    "/items/:itemId",
    describeRoute({
      summary: "Set a line's quantity; 0 or less removes it",
      parameters: [idParameter("itemId")],
      requestBody: jsonBody(setQuantitySchema),
      responses: { 200: json(cartSchema, "The cart"), ...problems(400, 401, 404, 409) },
    }),
    async (c) => {
      const user = await currentUser(c);
      await cart.setQuantity(user, c.req.param("itemId"), await readJson(c));
      return c.json(await cart.getCart(user));
    },
  )
  .delete(
    "/items/:itemId",
    describeRoute({
      summary: "Remove a line",
      parameters: [idParameter("itemId")],
      responses: { 200: json(cartSchema, "The cart"), ...problems(401, 404) },
    }),
    async (c) => {
      const user = await currentUser(c);
      await cart.removeItem(user, c.req.param("itemId"));
      return c.json(await cart.getCart(user));
    },
  );
