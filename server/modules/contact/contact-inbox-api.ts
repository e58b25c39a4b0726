import { Hono } from "hono";
import { contactInboxSchema } from "#common/contact/contact-schemas.ts";
import { describeRoute, json, problems } from "../../platform/http/api-docs.ts";
import type { AppEnv } from "../../app-env.ts";
import { currentUser } from "../../platform/http/request-context.ts";

/** The admins' Contact Us inbox (the service refuses everybody else). */
export const contactInboxApi = new Hono<AppEnv>().get(
  "/",
  describeRoute({
    summary: "The Contact Us inbox's newest page (admins only); /admin/messages pages, filters and marks handled",
    responses: { 200: json(contactInboxSchema, "The messages"), ...problems(401, 403) },
  }),
  async (c) => c.json({ items: (await c.var.services.contact.listMessages(await currentUser(c), {})).items }),
);
