import { Hono } from "hono";
import { couponListQuerySchema, couponListSchema, couponSchema, createCouponSchema, setCouponPausedSchema, updateCouponSchema } from "#common/coupons/coupon-schemas.ts";
import type { PlatformEnv } from "../../platform/http/http-env.ts";
import { describeRoute, idParameter, json, jsonBody, parameters, problems } from "../../platform/http/api-docs.ts";
import { currentUser } from "../../platform/http/request-context.ts";
import { readJson } from "../../platform/http/read-json.ts";
import type { CouponsService } from "./coupons.ts";

/** /api/admin/coupons: the owner's discount codes. The admin check and every rule are in the service. */
export function adminCouponsApi(coupons: CouponsService) {
  return new Hono<PlatformEnv>()
    .get(
      "/",
      describeRoute({
        summary: "Discount codes, newest first, a page of 50 with its uses counted; `after` / `before` take the page's cursors (admins)",
        parameters: parameters(couponListQuerySchema, "query"),
        responses: { 200: json(couponListSchema, "One page of codes"), ...problems(400, 401, 403) },
      }),
      async (c) => c.json(await coupons.listCoupons(await currentUser(c), c.req.query())),
    )
    .post(
      "/",
      describeRoute({
        summary: "Make a discount code: percent or amount, optional minimum, dates (shop's time zone), use limit, once per customer, categories (admins)",
        requestBody: jsonBody(createCouponSchema),
        responses: { 201: json(couponSchema, "Made"), ...problems(400, 401, 403, 409) },
      }),
      async (c) => {
        const user = await currentUser(c);
        return c.json(await coupons.createCoupon(user, await readJson(c)), 201);
      },
    )
    .patch(
      "/:couponId",
      describeRoute({
        summary: "Pause or resume a discount code (admins); a paused code is refused as unknown",
        parameters: [idParameter("couponId")],
        requestBody: jsonBody(setCouponPausedSchema),
        responses: { 200: json(couponSchema, "The code"), ...problems(400, 401, 403, 404) },
      }),
      async (c) => {
        const user = await currentUser(c);
        return c.json(await coupons.setCouponPaused(user, c.req.param("couponId"), await readJson(c)));
      },
    )
    .patch(
      "/:couponId/terms",
      describeRoute({
        summary:
          "Change a discount code's terms (admins): the fields of making one, validated the same way; fields left out keep their value. Total uses cannot go below the uses counted; placed orders keep their discount",
        parameters: [idParameter("couponId")],
        requestBody: jsonBody(updateCouponSchema),
        responses: { 200: json(couponSchema, "The code as changed"), ...problems(400, 401, 403, 404, 409) },
      }),
      async (c) => {
        const user = await currentUser(c);
        return c.json(await coupons.updateCoupon(user, c.req.param("couponId"), await readJson(c)));
      },
    )
    .delete(
      "/:couponId",
      describeRoute({
        summary: "Delete a discount code (admins); orders that used it keep its text and their discount",
        parameters: [idParameter("couponId")],
        responses: { 200: json(couponSchema, "Deleted"), ...problems(401, 403, 404) },
      }),
      async (c) => c.json(await coupons.deleteCoupon(await currentUser(c), c.req.param("couponId"))),
    );
}
