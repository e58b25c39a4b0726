import { Hono } from "hono";
import { contactMessagesPageSchema, markHandledSchema, messageListQuerySchema, storedContactMessageSchema } from "#common/contact/contact-schemas.ts";
import type { PlatformEnv } from "../../platform/http/http-env.ts";
import type { ContactService } from "./contact.ts";
import { describeRoute, idParameter, json, jsonBody, parameters, problems } from "../../platform/http/api-docs.ts";
import { currentUser } from "../../platform/http/request-context.ts";
import { readJson } from "../../platform/http/read-json.ts";

/** The admins' Contact Us inbox (the service refuses everybody else): list, and mark handled or waiting. */
export const adminMessagesApi = (contact: ContactService) => new Hono<PlatformEnv>()
  .get(
    "/",
    describeRoute({
      summary: "The Contact Us inbox, newest first, all or only the unhandled, twenty a page by key (admins)",
      parameters: parameters(messageListQuerySchema, "query"),
      responses: { 200: json(contactMessagesPageSchema, "A page of messages"), ...problems(400, 401, 403) },
    }),
    async (c) => c.json(await contact.listMessages(await currentUser(c), c.req.query())),
  )
  .patch(
    "/:messageId",
    describeRoute({
      summary: "Mark a message handled, or waiting again (admins)",
      parameters: [idParameter("messageId")],
      requestBody: jsonBody(markHandledSchema),
      responses: { 200: json(storedContactMessageSchema, "The message as it now is"), ...problems(400, 401, 403, 404) },
    }),
    async (c) => c.json(await contact.setHandled(await currentUser(c), c.req.param("messageId"), await readJson(c))),
  );
