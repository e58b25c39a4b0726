import { Hono } from "hono";
import { activityPageSchema, activityQuerySchema } from "#common/audit/audit-schemas.ts";
import type { PlatformEnv } from "../../platform/http/http-env.ts";
import { describeRoute, json, parameters, problems } from "../../platform/http/api-docs.ts";
import { currentUser } from "../../platform/http/request-context.ts";
import type { AuditService } from "./audit.ts";

/** /api/admin/activity: who changed what, newest first. The admin check is in the service. */
export function adminActivityApi(audit: AuditService) {
  return new Hono<PlatformEnv>().get(
    "/",
    describeRoute({
      summary: "The admins' changes, newest first, 50 a page; filter by `actor` (account id), `kind` and `thing` (its id); `after` takes the page's `next` (admins)",
      parameters: parameters(activityQuerySchema, "query"),
      responses: { 200: json(activityPageSchema, "One page of changes"), ...problems(400, 401, 403) },
    }),
    async (c) => c.json(await audit.listActivity(await currentUser(c), c.req.query())),
  );
}
