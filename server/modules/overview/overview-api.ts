import { Hono } from "hono";
import { overviewSchema } from "#common/overview/overview-types.ts";
import type { AppEnv } from "../../app-env.ts";
import { describeRoute, json, problems } from "../../platform/http/api-docs.ts";
import { currentUser } from "../../platform/http/request-context.ts";

/** The owner's overview as JSON (the service refuses everybody but admins). */
export const adminOverviewApi = new Hono<AppEnv>().get(
  "/",
  describeRoute({
    summary: "Orders and revenue today and over the last 30 days, low stock, unhandled messages (admins)",
    responses: { 200: json(overviewSchema, "The overview"), ...problems(401, 403) },
  }),
  async (c) => c.json(await c.get("services").overview.getOverview(await currentUser(c))),
);
