import { Hono } from "hono";
import { clientIp } from "../../platform/http/client-ip.ts";
import type { AppEnv } from "../../app-env.ts";
import { readJson } from "../../platform/http/read-json.ts";

export const contactApi = new Hono<AppEnv>().post("/", async (c) => {
  const result = await c.var.services.contact.sendMessage(await readJson(c), { clientIp: clientIp(c) });
  return c.json(result, 201);
});
