import type { Context } from "hono";
import type { AppEnv } from "./env.ts";

/** The peer address of the connection (in-process test requests have none). */
export function clientIp(c: Context<AppEnv>): string | null {
  return c.env?.incoming?.socket.remoteAddress ?? null;
}
