import { Hono } from "hono";
import { contactMessageSchema, contactReceiptSchema } from "#common/contact/contact-schemas.ts";
import { clientIp } from "../../platform/http/client-ip.ts";
import { describeRoute, json, jsonBody, problems } from "../../platform/http/api-docs.ts";
import type { PlatformEnv } from "../../platform/http/http-env.ts";
import type { ContactService } from "./contact.ts";
import { readJson } from "../../platform/http/read-json.ts";

export const contactApi = (contact: ContactService) => new Hono<PlatformEnv>().post(
  "/",
  describeRoute({
    summary: "Send a Contact Us message to the shop",
    requestBody: jsonBody(contactMessageSchema),
    responses: { 201: json(contactReceiptSchema, "Stored"), ...problems(400, 429) },
  }),
  async (c) => {
    const result = await contact.sendMessage(await readJson(c), { clientIp: clientIp(c) });
    return c.json(result, 201);
  },
);
