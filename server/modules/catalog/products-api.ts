import { Hono } from "hono";
import { clientIp } from "../../platform/http/client-ip.ts";
import type { AppEnv } from "../../app-env.ts";

export const productsApi = new Hono<AppEnv>()
  .get("/", async (c) => c.json(await c.var.services.catalog.listProducts(c.req.query(), { clientIp: clientIp(c) })))
  .get("/suggestions", async (c) =>
    c.json(await c.var.services.catalog.suggestProducts(c.req.query(), { clientIp: clientIp(c) })),
  )
  .get("/:productId", async (c) => c.json(await c.var.services.catalog.getProduct(c.req.param())));
