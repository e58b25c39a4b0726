import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { captureLogs } from "../support/log-capture.ts";
import { loadPages } from "../support/page-build.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "../support/test-app.ts";
import { routeConsoleToLog } from "../../server/platform/console-to-log.ts";

// What the production server logs when a client sends what the pages cannot take: JSON lines only, at warning,
// never at error (an error is the server's fault, which an operator is paged for).

const logs = captureLogs();
let app: TestApp;
let pages: Awaited<ReturnType<typeof loadPages>>;
let url: string;
beforeAll(async () => {
  pages = await loadPages(TEST_ORIGIN);
  app = await createTestApp({}, { handler: pages.handler }, logs.logger);
  url = await app.listen();
}, 120_000);
afterAll(async () => {
  await app.cleanup();
  await pages.close();
});

let restoreConsole: () => void;
let printed: unknown[][];
let spies: { mockRestore(): void }[];
beforeEach(() => {
  logs.lines.length = 0;
  printed = [];
  // What would reach the terminal as raw text: the console's own writers, under what the server installs.
  spies = (["warn"] as const).map((method) => vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void printed.push(args)));
  restoreConsole = routeConsoleToLog(logs.logger);
});
afterEach(() => {
  restoreConsole();
  for (const spy of spies) spy.mockRestore();
});

describe("a page request the client got wrong", () => {
  it("a URL with a malformed percent-encoding: React Router's 'could not be decoded' is a JSON warning with the request id, not raw text", async () => {
    const response = await fetch(`${url}/product/%E0%A4%A`);
    expect(response.status).toBe(404);
    const requestId = response.headers.get("x-request-id");
    const decoded = logs.lines.filter((line) => line.msg.includes("could not be decoded"));
    expect(decoded.length).toBeGreaterThan(0);
    for (const line of decoded) expect(line).toMatchObject({ level: 40, source: "console", requestId });
    expect(printed).toEqual([]);
    expect(logs.lines.filter((line) => line.level >= 50)).toEqual([]);
  });

  // The test's PUBLIC_URL names port 4999, which passes the shop's own check; the page's URL is the listening port's.
  it("a form posted with an Origin the page's URL does not match: a warning naming the 400, not an error", async () => {
    const response = await fetch(`${url}/login`, {
      method: "POST",
      headers: { Origin: TEST_ORIGIN, "Content-Type": "application/x-www-form-urlencoded" },
      body: "email=a%40example.com&password=x",
    });
    expect(response.status).toBe(400);
    expect(logs.lines.filter((line) => line.level >= 50)).toEqual([]);
    expect(logs.lines.find((line) => line.msg === "page request refused")).toMatchObject({ level: 40, status: 400 });
  });
});
