import { Hono } from "hono";
import type { AppEnv } from "../../app-env.ts";
import { currentUser } from "../../platform/http/request-context.ts";

/** The owner's overview as JSON (the service refuses everybody but admins). */
export const adminOverviewApi = new Hono<AppEnv>().get("/", async (c) => c.json(await c.var.services.overview.getOverview(await currentUser(c))));
