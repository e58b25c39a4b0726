import { Hono } from "hono";
import type { AppEnv } from "../../app-env.ts";
import { currentUser } from "../../platform/http/request-context.ts";

/**
 * The admins' Contact Us inbox under its first address: the newest page, as before. /api/admin/messages
 * (modules/contact) pages, filters and marks messages handled.
 */
export const adminApi = new Hono<AppEnv>().get("/contact-messages", async (c) =>
  c.json({ items: (await c.var.services.contact.listMessages(await currentUser(c), {})).items }),
);
