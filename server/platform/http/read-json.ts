import type { Context } from "hono";
import type { PlatformEnv } from "./http-env.ts";
import { InvalidInputError } from "../errors.ts";

export async function readJson<E extends PlatformEnv>(c: Context<E>): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw new InvalidInputError("The request body is not valid JSON.");
  }
}
