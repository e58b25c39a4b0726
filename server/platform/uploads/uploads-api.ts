import { Hono } from "hono";
import type { AppEnv } from "../../app-env.ts";
import { currentUser } from "../http/request-context.ts";

/**
 * The tus endpoint (/api/uploads and /api/uploads/<id>). Mounted before the JSON body limits: a PATCH carries a
 * 5 MiB chunk, and tus itself refuses an upload larger than it was declared (at most 20 MB).
 */
export const uploadsApi = new Hono<AppEnv>().all("/*", async (c) => c.var.services.uploads.handle(c.req.raw, await currentUser(c)));
