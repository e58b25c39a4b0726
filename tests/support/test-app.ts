import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { pino, type Logger } from "pino";
import { apiDocument, apiRoutes } from "../../server/api-routes.ts";
import { createApp, type AppOptions } from "../../server/app.ts";
import { composeShop, type ComposeOptions } from "../../server/compose.ts";
import { loadConfig } from "../../server/config.ts";
import type { Infrastructure, Services } from "../../server/create-services.ts";
import { apiContract, type OpenApiDocument } from "./api-contract.ts";
import { createTestDatabase, type TestDatabase } from "./test-database.ts";

export const TEST_ORIGIN = "http://127.0.0.1:4999";

/**
 * What the API promises: the OpenAPI document, generated as the server generates it (from the route table
 * api-routes.ts mounts; tests/api/openapi.test.ts checks the served one). Made once per test file, while it is
 * imported, so its cold start (~2 s on a busy machine) counts against no test's time limit. Only the route table
 * is read, no handler runs: no shop stands behind it.
 */
const noShop = {} as never;
const contract = apiContract((await apiDocument(apiRoutes(noShop, noShop, TEST_ORIGIN), TEST_ORIGIN)) as unknown as OpenApiDocument);

export interface TestApp {
  database: TestDatabase;
  /** The shop's domain services, to arrange a test's data and check its outcome. */
  services: Services;
  /** What they run on: the change feed, the media store, uploads. */
  infrastructure: Infrastructure;
  dataDir: string;
  /** Drives the app in-process; a JSON API answer that is not what the OpenAPI document promises fails the test. */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** Serves the app on a loopback port as the real server does (front cache first); returns its address. Closed by cleanup(). */
  listen(): Promise<string>;
  cleanup(): Promise<void>;
}

/** The whole HTTP app (without the page renderer unless given) over a fresh database, driven in-process. */
export async function createTestApp(
  env: NodeJS.ProcessEnv = {},
  pages?: AppOptions["pages"],
  logger: Logger = pino({ level: "silent" }),
  shop: ComposeOptions = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "plant-shop-app-"));
  mkdirSync(path.join(dataDir, "media"));
  const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, PUBLIC_URL: TEST_ORIGIN, ...env });
  const { services, infrastructure, startMailWorker, closeMail, endLiveStreams, closeChanges } = await composeShop(config, database, logger, shop);
  startMailWorker();
  const { app, listener } = createApp({ config, services, infrastructure, logger, health: { ready: true }, ...(pages ? { pages } : {}) });
  let server: http.Server | undefined;
  return {
    database,
    services,
    infrastructure,
    dataDir,
    async request(p, init) {
      const response = await app.request(p, init);
      await contract.check(init?.method ?? "GET", p, response);
      return response;
    },
    listen: () =>
      new Promise((resolve) => {
        const listening = http.createServer(listener);
        server = listening.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(listening.address() as { port: number }).port}`));
      }),
    async cleanup() {
      endLiveStreams();
      await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
      await closeMail(5_000);
      await closeChanges();
      await database.cleanup();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A JSON POST as a page of the shop would send it. */
export function postJson(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: TEST_ORIGIN, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  };
}
