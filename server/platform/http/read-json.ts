import type { Context } from "hono";
import type { AppEnv } from "../../app-env.ts";
import { InvalidInputError } from "../errors.ts";

export async function readJson(c: Context<AppEnv>): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw new InvalidInputError("The request body is not valid JSON.");
  }
}
