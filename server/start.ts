import { mkdir } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { getRequestListener } from "@hono/node-server";
import type { Logger } from "pino";
import type { ServerBuild } from "react-router";
import { createApp, type HealthState } from "./app.ts";
import { composeShop } from "./compose.ts";
import type { Config } from "./config.ts";
import { lockDataDir } from "./data-dir-lock.ts";
import { openDatabase } from "./db/client.ts";
import { migrateToLatest } from "./db/migrate.ts";
import { seedSampleData } from "./db/seed.ts";
import { createPageHandler } from "./http/pages.ts";

const PROJECT_ROOT = path.resolve(import.meta.dirname, "..");
/**
 * Shutdown's whole budget: requests in flight, then the e-mails they queued, share it, so the database and the
 * data folder lock are released within it — inside the 10 s a container runtime waits before killing.
 */
const SHUTDOWN_BUDGET_MS = 8_000;

export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

/** Opens the database, migrates, seeds, then listens: the server answers only once it is ready. */
export async function startServer(config: Config, logger: Logger): Promise<RunningServer> {
  await mkdir(path.join(config.dataDir, "media"), { recursive: true });
  const releaseLock = config.databaseUrl ? undefined : await lockDataDir(config.dataDir);
  const database = openDatabase({ databaseUrl: config.databaseUrl, sqliteFile: path.join(config.dataDir, "shop.db") });
  const applied = await migrateToLatest(database);
  if (applied.length) logger.info({ migrations: applied }, "database migrated");
  if (config.seedSampleData) {
    // Like the spec's seeding step, a failure here is reported but does not keep the shop closed.
    try {
      const seeded = await seedSampleData(database);
      if (seeded.outcome === "seeded") logger.info(seeded, "sample data added");
      if (seeded.outcome === "kept-existing-catalogue") logger.info("the database already has a catalogue: no sample data added");
    } catch (error) {
      logger.error({ err: error }, "sample data could not be added");
    }
  }

  const { services, mailer, closeMail } = await composeShop(config, database, logger);
  const health: HealthState = { ready: false };
  const dev = config.mode === "development";
  const vite = dev
    ? await (await import("vite")).createServer({ root: PROJECT_ROOT, server: { middlewareMode: true } })
    : undefined;
  const build = vite
    ? () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>
    : ((await import(pathToFileURL(path.join(PROJECT_ROOT, "build/server/index.js")).href)) as ServerBuild);
  const app = createApp({
    config,
    services,
    logger,
    health,
    pages: {
      handler: createPageHandler(build, dev ? "development" : "production", config.shop),
      ...(dev ? {} : { clientDir: path.join(PROJECT_ROOT, "build/client") }),
    },
  });

  const listener = getRequestListener(app.fetch);
  const server = http.createServer(vite ? (req, res) => vite.middlewares(req, res, () => listener(req, res)) : listener);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, resolve);
  });
  health.ready = true;
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const url = `http://${config.host === "0.0.0.0" ? "localhost" : config.host}:${port}`;
  logger.info({ url, publicUrl: config.publicUrl.origin, database: database.dialect, mail: mailer.kind }, "Plant Shop is ready");

  return {
    url,
    /**
     * Stops accepting, lets requests in flight finish and the e-mails they queued go out (bounded), then closes
     * the database and the data folder lock.
     */
    async stop() {
      health.ready = false;
      const deadline = Date.now() + SHUTDOWN_BUDGET_MS;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), SHUTDOWN_BUDGET_MS / 2);
      await closed;
      clearTimeout(timer);
      await vite?.close();
      await closeMail(Math.max(0, deadline - Date.now()));
      await database.destroy();
      await releaseLock?.();
      logger.info("Plant Shop stopped");
    },
  };
}
