import { Hono, type Context } from "hono";
import { addToCartSchema, cartSchema, setQuantitySchema } from "#common/cart/cart-schemas.ts";
import { applyCouponSchema } from "#common/coupons/coupon-schemas.ts";
import type { PlatformEnv } from "../../platform/http/http-env.ts";
import type { CartService } from "./cart.ts";
import { describeRoute, idParameter, json, jsonBody, problems } from "../../platform/http/api-docs.ts";
import { clientIp } from "../../platform/http/client-ip.ts";
import { currentUser } from "../../platform/http/request-context.ts";
import { readJson } from "../../platform/http/read-json.ts";
import type { VisitorCartCookies } from "./visitor-cart-cookie.ts";
import type { VisitorCartOutcome } from "./visitor-cart.ts";

/**
 * The shopper's cart: a signed-in shopper's, or a visitor's, kept under the cookie the first add sets
 * (docs/decisions/037). Every answer is the whole cart as it now stands.
 */
export const cartApi = (cart: CartService, visitorCarts: VisitorCartCookies) => {
  const token = (c: Context<PlatformEnv>) => visitorCarts.read(c.req.raw.headers);
  const tell = (c: Context<PlatformEnv>, outcome: VisitorCartOutcome) => {
    for (const cookie of visitorCarts.write(outcome)) c.header("Set-Cookie", cookie, { append: true });
  };
  /** The visitor's cart after a change; the token the change issued (a new cart's) is the one to read with. */
  const visitorCartAfter = async (c: Context<PlatformEnv>, outcome: VisitorCartOutcome) => {
    const { cart: now, outcome: read } = await cart.getVisitorCart(outcome.kind === "issued" ? outcome.token : token(c));
    tell(c, outcome.kind === "unchanged" ? read : outcome);
    return now;
  };
  return new Hono<PlatformEnv>()
    .get(
      "/",
      describeRoute({
        summary: "The shopper's cart with current prices and totals (a visitor's: empty until something is added)",
        responses: { 200: json(cartSchema, "The cart") },
      }),
      async (c) => {
        const user = await currentUser(c);
        if (user) return c.json(await cart.getCart(user));
        const { cart: visitorCart, outcome } = await cart.getVisitorCart(token(c));
        tell(c, outcome);
        return c.json(visitorCart);
      },
    )
    .post(
      "/items",
      describeRoute({
        summary: "Add a product (quantity 1 by default; never beyond the stock). A visitor's first add sets the cart's cookie",
        requestBody: jsonBody(addToCartSchema),
        responses: { 201: json(cartSchema, "The cart"), ...problems(400, 404, 409, 429) },
      }),
      async (c) => {
        const user = await currentUser(c);
        const input = await readJson(c);
        if (user) {
          await cart.addToCart(user, input);
          return c.json(await cart.getCart(user), 201);
        }
        return c.json(await visitorCartAfter(c, await cart.addToVisitorCart(token(c), input, { clientIp: clientIp(c) })), 201);
      },
    )
    .patch(
      "/items/:itemId",
      describeRoute({
        summary: "Set a line's quantity; 0 or less removes it",
        parameters: [idParameter("itemId")],
        requestBody: jsonBody(setQuantitySchema),
        responses: { 200: json(cartSchema, "The cart"), ...problems(400, 404, 409) },
      }),
      async (c) => {
        const user = await currentUser(c);
        const input = await readJson(c);
        if (user) {
          await cart.setQuantity(user, c.req.param("itemId"), input);
          return c.json(await cart.getCart(user));
        }
        return c.json(await visitorCartAfter(c, await cart.setVisitorQuantity(token(c), c.req.param("itemId"), input)));
      },
    )
    .put(
      "/coupon",
      describeRoute({
        summary: "Apply a discount code to the cart (accounts only; replaces one applied before). Refused with the reason: unknown, expired, not yet valid, minimum not reached, used up, already used, nothing it applies to; tries are rate-limited",
        requestBody: jsonBody(applyCouponSchema),
        responses: { 200: json(cartSchema, "The cart with the discount"), ...problems(400, 401, 409, 429) },
      }),
      async (c) => {
        return c.json(await cart.applyCoupon(await currentUser(c), await readJson(c)));
      },
    )
    .delete(
      "/coupon",
      describeRoute({ summary: "Take the discount code off the cart", responses: { 200: json(cartSchema, "The cart"), ...problems(401) } }),
      async (c) => {
        const user = await currentUser(c);
        await cart.removeCoupon(user);
        return c.json(await cart.getCart(user));
      },
    )
    .delete(
      "/items/:itemId",
      describeRoute({
        summary: "Remove a line",
        parameters: [idParameter("itemId")],
        responses: { 200: json(cartSchema, "The cart"), ...problems(404) },
      }),
      async (c) => {
        const user = await currentUser(c);
        if (user) {
          await cart.removeItem(user, c.req.param("itemId"));
          return c.json(await cart.getCart(user));
        }
        return c.json(await visitorCartAfter(c, await cart.removeVisitorItem(token(c), c.req.param("itemId"))));
      },
    );
};
