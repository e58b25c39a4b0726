import { Hono } from "hono";
import { overviewSchema } from "#common/overview/overview-types.ts";
import type { PlatformEnv } from "../../platform/http/http-env.ts";
import type { OverviewService } from "./overview.ts";
import { describeRoute, json, problems } from "../../platform/http/api-docs.ts";
import { currentUser } from "../../platform/http/request-context.ts";

/** The owner's overview as JSON (the service refuses everybody but admins). */
export const adminOverviewApi = (overview: OverviewService) => new Hono<PlatformEnv>().get(
  "/",
  describeRoute({
    summary: "Orders and revenue today and over the last 30 days, low stock, unhandled messages (admins)",
    responses: { 200: json(overviewSchema, "The overview"), ...problems(401, 403) },
  }),
  async (c) => c.json(await overview.getOverview(await currentUser(c))),
);
