import { Hono } from "hono";
import type { AppEnv } from "../../app-env.ts";
import { currentUser } from "../../platform/http/request-context.ts";
import { readJson } from "../../platform/http/read-json.ts";

/** The admins' Contact Us inbox (the service refuses everybody else): list, and mark handled or waiting. */
export const adminMessagesApi = new Hono<AppEnv>()
  .get("/", async (c) => c.json(await c.var.services.contact.listMessages(await currentUser(c), c.req.query())))
  .patch("/:messageId", async (c) =>
    c.json(await c.var.services.contact.setHandled(await currentUser(c), c.req.param("messageId"), await readJson(c))),
  );
