import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { captureLogs } from "../../../tests/support/log-capture.ts";
import { handleError } from "./errors.ts";
import type { PlatformEnv } from "./http-env.ts";

/** An app whose one route fails with `error` once `ready` resolves, logging into `logs`. */
function failingApp(logs: ReturnType<typeof captureLogs>, ready: Promise<unknown>, error: Error) {
  const app = new Hono<PlatformEnv>();
  app.onError(handleError);
  app.use(async (c, next) => {
    c.set("log", logs.logger);
    c.set("requestId", "req-1");
    await next();
  });
  app.post("/upload", async () => {
    await ready;
    throw error;
  });
  return app;
}

describe("handleError", () => {
  it("logs a failure of a request its client aborted at info, not error", async () => {
    const logs = captureLogs();
    const client = new AbortController();
    const app = failingApp(logs, Promise.resolve(client.abort()), new Error("body stream cut off"));
    const response = await app.request("/upload", { method: "POST", signal: client.signal });
    expect(response.status).toBe(400);
    expect(logs.lines.map((line) => [line.level, line.msg])).toEqual([[30, "request aborted by the client"]]);
  });

  it("still logs a failure of a request nobody aborted at error, answered 500", async () => {
    const logs = captureLogs();
    const app = failingApp(logs, Promise.resolve(), new Error("the database is gone"));
    const response = await app.request("/upload", { method: "POST" });
    expect(response.status).toBe(500);
    expect(logs.lines.map((line) => [line.level, line.msg])).toEqual([[50, "request failed"]]);
  });
});
