import { Hono } from "hono";
import type { AppEnv } from "../../app-env.ts";

export const categoriesApi = new Hono<AppEnv>()
  .get("/", async (c) => c.json({ items: await c.var.services.catalog.listCategories() }))
  .get("/:categoryId", async (c) => c.json(await c.var.services.catalog.getCategory({ page: c.req.query("page"), ...c.req.param() })));
