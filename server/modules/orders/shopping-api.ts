import { Hono } from "hono";
import type { AppEnv } from "../../app-env.ts";
import { currentUser } from "../../platform/http/request-context.ts";
import { readJson } from "../../platform/http/read-json.ts";

export const cartApi = new Hono<AppEnv>()
  .get("/", async (c) => c.json(await c.var.services.cart.getCart(await currentUser(c))))
  .post("/items", async (c) => {
    const user = await currentUser(c);
    await c.var.services.cart.addToCart(user, await readJson(c));
    return c.json(await c.var.services.cart.getCart(user), 201);
  })
  .patch("/items/:itemId", async (c) => {
    const user = await currentUser(c);
    await c.var.services.cart.setQuantity(user, c.req.param("itemId"), await readJson(c));
    return c.json(await c.var.services.cart.getCart(user));
  })
  .delete("/items/:itemId", async (c) => {
    const user = await currentUser(c);
    await c.var.services.cart.removeItem(user, c.req.param("itemId"));
    return c.json(await c.var.services.cart.getCart(user));
  });

export const ordersApi = new Hono<AppEnv>()
  .get("/", async (c) => c.json({ items: await c.var.services.orders.listMyOrders(await currentUser(c)) }))
  .post("/", async (c) => c.json(await c.var.services.orders.placeOrder(await currentUser(c), await readJson(c)), 201))
  .get("/:orderId", async (c) => c.json(await c.var.services.orders.getOrder(await currentUser(c), c.req.param("orderId"))))
  .post("/:orderId/cancel", async (c) => c.json(await c.var.services.orders.cancelOrder(await currentUser(c), c.req.param("orderId"))));

export const adminOrdersApi = new Hono<AppEnv>()
  .get("/", async (c) => c.json(await c.var.services.orders.listAllOrders(await currentUser(c), c.req.query())))
  .get("/:orderId", async (c) => c.json(await c.var.services.orders.getOrderForAdmin(await currentUser(c), c.req.param("orderId"))))
  .patch("/:orderId", async (c) =>
    c.json(await c.var.services.orders.setStatus(await currentUser(c), c.req.param("orderId"), await readJson(c))),
  );
