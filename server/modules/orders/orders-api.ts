import { Hono } from "hono";
import { checkoutSchema } from "#common/cart/cart-schemas.ts";
import {
  adminOrderPageSchema,
  adminOrdersQuerySchema,
  orderDetailSchema,
  orderListSchema,
  codBlockSchema,
  codStandingSchema,
  paymentOptionSchema,
  setOrderStatusSchema,
  upiReferenceSchema,
  viewedOrderSchema,
} from "#common/orders/order-schemas.ts";
import { z } from "zod";
import type { PlatformEnv } from "../../platform/http/http-env.ts";
import type { OrdersService } from "./orders.ts";
import { describeRoute, idParameter, json, jsonBody, parameters, problems } from "../../platform/http/api-docs.ts";
import { currentUser } from "../../platform/http/request-context.ts";
import { readJson } from "../../platform/http/read-json.ts";

const orderId = idParameter("orderId");

/** A shopper's own orders. */
export const ordersApi = (orders: OrdersService) => new Hono<PlatformEnv>()
  .get(
    "/",
    describeRoute({
      summary: "The signed-in shopper's orders, newest first",
      responses: { 200: json(orderListSchema, "The orders"), ...problems(401) },
    }),
    async (c) => c.json({ items: await orders.listMyOrders(await currentUser(c)) }),
  )
  .post(
    "/",
    describeRoute({
      summary:
        "Place an order from the cart, paid by Cash on Delivery or UPI (it then awaits its payment, its stock held); the same idempotencyKey never makes a second order",
      requestBody: jsonBody(checkoutSchema),
      responses: { 201: json(orderDetailSchema, "The order"), ...problems(400, 401, 403, 409, 429) },
    }),
    async (c) => c.json(await orders.placeOrder(await currentUser(c), await readJson(c)), 201),
  )
  .get(
    "/payment-options",
    describeRoute({
      summary: "The ways the signed-in shopper may pay at checkout, each with why not when they may not",
      responses: { 200: json(z.strictObject({ items: z.array(paymentOptionSchema) }), "The methods"), ...problems(401) },
    }),
    async (c) => c.json({ items: await orders.paymentOptions(await currentUser(c)) }),
  )
  .get(
    "/:orderId",
    describeRoute({
      summary: "One of one's orders (404 for anybody else's)",
      parameters: [orderId],
      responses: { 200: json(viewedOrderSchema, "The order"), ...problems(401, 404) },
    }),
    async (c) => c.json(await orders.getOrder(await currentUser(c), c.req.param("orderId"))),
  )
  .post(
    "/:orderId/cancel",
    describeRoute({
      summary: "Cancel one's own pending order; its stock returns (404 for anybody else's, admins too: they use PATCH /admin/orders/{orderId})",
      parameters: [orderId],
      responses: { 200: json(orderDetailSchema, "The cancelled order"), ...problems(401, 404, 409) },
    }),
    async (c) => c.json(await orders.cancelOrder(await currentUser(c), c.req.param("orderId"))),
  )
  .put(
    "/:orderId/upi-reference",
    describeRoute({
      summary: "Give the UPI reference (UTR) of one's payment for one's own order awaiting it (404 for anybody else's)",
      parameters: [orderId],
      requestBody: jsonBody(upiReferenceSchema),
      responses: { 200: json(orderDetailSchema, "The order"), ...problems(400, 401, 404, 409) },
    }),
    async (c) => c.json(await orders.giveUpiReference(await currentUser(c), c.req.param("orderId"), await readJson(c))),
  );

/** Every order, for admins (the service refuses everybody else). */
export const adminOrdersApi = (orders: OrdersService) => new Hono<PlatformEnv>()
  .get(
    "/",
    describeRoute({
      summary: "All orders, newest first, 20 a page (admins only)",
      parameters: parameters(adminOrdersQuerySchema, "query"),
      responses: { 200: json(adminOrderPageSchema, "A page of orders"), ...problems(401, 403) },
    }),
    async (c) => c.json(await orders.listAllOrders(await currentUser(c), c.req.query())),
  )
  .get(
    "/:orderId",
    describeRoute({
      summary: "Any order (admins only)",
      parameters: [orderId],
      responses: { 200: json(orderDetailSchema, "The order"), ...problems(401, 403, 404) },
    }),
    async (c) => c.json(await orders.getOrderForAdmin(await currentUser(c), c.req.param("orderId"))),
  )
  .patch(
    "/:orderId",
    describeRoute({
      summary:
        "Move an order: awaiting_payment → pending (paid) or cancelled (not received); pending → processing → shipped → delivered or refused; cancelled from pending or processing (admins only)",
      parameters: [orderId],
      requestBody: jsonBody(setOrderStatusSchema),
      responses: { 200: json(orderDetailSchema, "The order"), ...problems(400, 401, 403, 404, 409) },
    }),
    async (c) => c.json(await orders.setStatus(await currentUser(c), c.req.param("orderId"), await readJson(c))),
  )
  .get(
    "/:orderId/cod",
    describeRoute({
      summary: "The order's customer and Cash on Delivery: parcels refused, and whether it is turned off for them (null once the account is deleted; admins only)",
      parameters: [orderId],
      responses: { 200: json(codStandingSchema.nullable(), "The standing"), ...problems(401, 403, 404) },
    }),
    async (c) => c.json(await orders.codStanding(await currentUser(c), c.req.param("orderId"))),
  )
  .put(
    "/:orderId/cod",
    describeRoute({
      summary: "Turn Cash on Delivery off (blocked: true) or back on for the order's customer (admins only)",
      parameters: [orderId],
      requestBody: jsonBody(codBlockSchema),
      responses: { 200: json(codStandingSchema, "The standing after"), ...problems(400, 401, 403, 404, 409) },
    }),
    async (c) => c.json(await orders.setCodBlocked(await currentUser(c), c.req.param("orderId"), await readJson(c))),
  );
