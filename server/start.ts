import http from "node:http";
import net from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Logger } from "pino";
import type { ServerBuild } from "react-router";
import { createApp, type HealthState } from "./app.ts";
import { composeShop } from "./compose.ts";
import type { Config } from "./config.ts";
import { lockDataDir } from "./platform/data-dir/data-dir-lock.ts";
import { secureDataDir } from "./platform/data-dir/data-dir-permissions.ts";
import { openDatabase } from "./platform/db/client.ts";
import { closeWithin } from "./platform/shutdown.ts";
import { migrateToLatest } from "./migrations.ts";
import { seedSampleData, startCellCountFolding, watchSaleBoundaries } from "./modules/catalog/index.ts";
import { followTestClock } from "./platform/clock.ts";
import { createPageHandler, createPersonalParts } from "./pages.ts";
import { PROJECT_ROOT } from "./project-root.ts";
import { openFileLimit } from "./platform/open-file-limit.ts";
import { listenForMetrics } from "./platform/metrics/metrics-endpoint.ts";
import { startBackupSchedule } from "./platform/backup/backup-schedule.ts";

const UPLOAD_SWEEP_INTERVAL_MS = 60 * 60 * 1000;
/** Once stopping, how long a connection that has sent no request yet is left open for its first one (see stop). */
const FIRST_REQUEST_GRACE_MS = 1000;
/** The part of the shutdown budget kept for closing the change feed and the database (at most a quarter of it). */
const FINAL_CLOSES_RESERVE_MS = 500;
/** Of the time requests may drain in, what is kept for answering the pictures whose decoding was stopped. */
const DECODE_ANSWER_MS = 500;

export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

/** Opens the database, migrates, seeds, then listens: the server answers only once it is ready. */
export async function startServer(config: Config, logger: Logger): Promise<RunningServer> {
  // Private to the shop's user: a looser folder (an older version's) is tightened, and said (decision 015).
  const permissions = await secureDataDir(config.dataDir);
  if (permissions.tightened.length) logger.warn({ paths: permissions.tightened.slice(0, 20), count: permissions.tightened.length }, "data folder was readable by others; tightened");
  if (permissions.failed.length) logger.warn({ paths: permissions.failed.slice(0, 20), count: permissions.failed.length }, "data folder is readable by others and could not be tightened");
  const releaseLock = config.databaseUrl ? undefined : lockDataDir(config.dataDir);
  const database = openDatabase({
    databaseUrl: config.databaseUrl,
    sqliteFile: path.join(config.dataDir, "shop.db"),
    connectTimeoutMs: config.databaseConnectTimeoutMs,
    logger,
  });
  const applied = await migrateToLatest(database);
  if (applied.length) logger.info({ migrations: applied }, "database migrated");
  if (config.seedSampleData) {
    // A failure to add the samples is reported but does not keep the shop closed: the shop works without them.
    try {
      const seeded = await seedSampleData(database);
      if (seeded.outcome === "seeded") logger.info(seeded, "sample data added");
      if (seeded.outcome === "kept-existing-catalogue") logger.info("the database already has a catalogue: no sample data added");
    } catch (error) {
      logger.error({ err: error }, "sample data could not be added");
    }
  }

  const { services, infrastructure, mailer, startMailWorker, closeMail, endLiveStreams, closeChanges } = await composeShop(config, database, logger);
  startMailWorker();
  // Test only: the shop's clock follows a file the browser tests write (sale windows, docs/decisions/047).
  const stopTestClock = config.testClockFile ? followTestClock(config.testClockFile, (error) => logger.error({ err: error }, "test clock unreadable")) : () => {};
  // Each sale window's start and end becomes a change of its product when it comes (docs/decisions/047).
  const saleBoundaries = watchSaleBoundaries({
    db: database.db,
    changes: infrastructure.changes,
    onError: (error) => logger.error({ err: error }, "sale boundaries could not be read"),
  });
  // On PostgreSQL product writes leave their cell counts' changes as rows; every copy folds them now and then, one at
  // a time (docs/decisions/062).
  const stopCellCountFolding = startCellCountFolding(database, (error) => logger.error({ err: error }, "facet cell counts could not be folded"));
  // Every copy cancels the UPI orders not paid in time; each is cancelled exactly once (docs/decisions/054).
  const stopUnpaidWatch = services.orders.watchUnpaidOrders((error) => logger.error({ err: error }, "unpaid orders could not be cancelled"));
  // The operator sees what the live pages may hold: half the open-file limit, when lower, replaces LIVE_STREAMS_MAX.
  logger.info({ liveStreams: services.productEvents.limits, openFiles: openFileLimit() }, "live product streams bounded");
  // Abandoned uploads (tus expiration, a day) are swept hourly; the timer never keeps the process alive.
  const sweepUploads = () =>
    infrastructure.uploads.removeExpired().then(
      (removed) => removed && logger.info({ removed }, "expired uploads removed"),
      (error: unknown) => logger.error({ err: error }, "expired uploads could not be removed"),
    );
  void sweepUploads();
  const uploadSweep = setInterval(sweepUploads, UPLOAD_SWEEP_INTERVAL_MS);
  uploadSweep.unref();
  // Visitors' back-in-stock alerts never confirmed within a week are forgotten, hourly too.
  const forgetAlerts = () =>
    services.alerts.forgetUnconfirmed().then(
      (forgotten) => forgotten && logger.info({ forgotten }, "unconfirmed stock alerts forgotten"),
      (error: unknown) => logger.error({ err: error }, "unconfirmed stock alerts could not be forgotten"),
    );
  void forgetAlerts();
  const alertSweep = setInterval(forgetAlerts, UPLOAD_SWEEP_INTERVAL_MS);
  alertSweep.unref();
  // BACKUP_EVERY_HOURS: the server backs itself up (docs/decisions/055); the first one after that long, not at start.
  const backups = config.backup.everyMs
    ? startBackupSchedule({ dataDir: config.dataDir, backupDir: config.backup.dir, databaseUrl: config.databaseUrl, mediaInBucket: config.mediaS3 !== undefined, everyMs: config.backup.everyMs, keep: config.backup.keep, logger })
    : undefined;
  const health: HealthState = { ready: false };
  const dev = config.mode === "development";
  const vite = dev
    ? await (await import("vite")).createServer({ root: PROJECT_ROOT, server: { middlewareMode: true } })
    : undefined;
  const build = vite
    ? () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>
    : ((await import(pathToFileURL(path.join(PROJECT_ROOT, "build/server/index.js")).href)) as ServerBuild);
  const { listener } = createApp({
    config,
    services,
    infrastructure,
    logger,
    health,
    pages: {
      handler: createPageHandler(build, dev ? "development" : "production", config.shop),
      personalParts: createPersonalParts(build),
      ...(dev ? {} : { clientDir: path.join(PROJECT_ROOT, "build/client") }),
    },
  });

  const handle: http.RequestListener = vite ? (req, res) => vite.middlewares(req, res, () => listener(req, res)) : listener;
  const inFlight = new Set<http.ServerResponse>();
  let stopping = false;
  // The open connections, and those that have carried a request: on stopping, an idle connection that has been
  // answered is closed at once, but a fresh one (a proxy such as nginx connects, then writes its request) is given
  // FIRST_REQUEST_GRACE_MS to send it. Node's closeIdleConnections counts a fresh connection as idle: destroying it
  // with the request already in its buffers answered the proxy with a reset, and nginx never sends a POST again,
  // so a shopper's order failed with a 502 while the copy restarted (tests/e2e/two-copies-restart.spec.ts).
  const connections = new Set<net.Socket>();
  const served = new WeakSet<net.Socket>();
  const closeIdleAnswered = () => {
    const busy = new Set([...inFlight].map((res) => res.socket));
    for (const socket of connections) if (served.has(socket) && !busy.has(socket)) socket.destroy();
  };
  const server = http.createServer((req, res) => {
    served.add(req.socket);
    inFlight.add(res);
    res.once("close", () => {
      inFlight.delete(res);
      // Its connection is idle now: during shutdown it is closed rather than kept alive for another request.
      if (stopping) setImmediate(closeIdleAnswered);
    });
    // A request that still arrives on a kept-alive connection is answered, and the client told not to reuse it.
    if (stopping) res.setHeader("Connection", "close");
    handle(req, res);
  });
  server.on("connection", (socket: net.Socket) => {
    connections.add(socket);
    socket.once("close", () => connections.delete(socket));
  });
  // Its own listener, bound like the shop's but never reachable through the public port (docs/decisions/056);
  // first, so that a port already taken stops the start before the shop is reachable.
  const metricsServer =
    config.metrics.port === undefined ? undefined : await listenForMetrics({ metrics: infrastructure.metrics, token: config.metrics.token, host: config.host, port: config.metrics.port });
  if (metricsServer) logger.info({ port: config.metrics.port, host: config.host }, "metrics listening");
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
     * Stops accepting, lets requests in flight finish and the e-mails being sent go out, then closes the change
     * feed, the database and the data folder lock: all of it within SHUTDOWN_TIMEOUT_SECONDS (see closeWithin).
     */
    async stop() {
      health.ready = false;
      stopping = true;
      // The budget, end to end: requests in flight and then the e-mails they queued get all of it but a reserve,
      // kept for the final closes (the change feed, the database); each close is bounded, and one that hangs is
      // abandoned, so the process exits within the budget whatever does not answer.
      const deadline = Date.now() + config.shutdownTimeoutMs;
      const drainBy = deadline - Math.min(FINAL_CLOSES_RESERVE_MS, config.shutdownTimeoutMs / 4);
      for (const res of inFlight) if (!res.headersSent) res.setHeader("Connection", "close");
      // Live pages' event streams never finish by themselves: ended now, their pages reconnect to another server
      // (or to this one once it is back) and catch up.
      endLiveStreams();
      // Pictures being decoded get most of the budget, then their decoder processes are killed (a decode in
      // native code cannot be interrupted otherwise) and their requests answered "restarting"; the rest of the
      // budget is for those answers to go out. Pictures waiting for a decoder are answered so at once.
      const decodersClosed = infrastructure.media.close(Math.max(0, drainBy - DECODE_ANSWER_MS - Date.now()));
      // Stop accepting at once, through net.Server's close: http.Server's own closes the idle connections
      // first, which leaves a moment in which a client that saw its idle connection closed can still connect.
      // The callback comes once every connection has ended.
      const closed = new Promise<void>((resolve) => net.Server.prototype.close.call(server, () => resolve()));
      // A turn of the event loop before idle connections are closed, so that requests already in the socket
      // buffers when the signal came are read (and so count as in flight).
      setImmediate(closeIdleAnswered);
      // Then the fresh connections that still have sent nothing (a browser's spare ones): closed after the grace.
      const freshClosed = setTimeout(() => server.closeIdleConnections(), Math.min(FIRST_REQUEST_GRACE_MS, Math.max(0, drainBy - Date.now())));
      freshClosed.unref();
      const timer = setTimeout(() => {
        logger.warn({ requests: inFlight.size }, "shutdown budget spent: closing connections with requests still running");
        server.closeAllConnections();
      }, drainBy - Date.now());
      // A scrape in flight is short: its connections are closed with the listener.
      const closeMetrics = () =>
        new Promise<void>((resolve) => {
          if (!metricsServer) return resolve();
          metricsServer.close(() => resolve());
          metricsServer.closeAllConnections();
        });
      clearInterval(uploadSweep);
      clearInterval(alertSweep);
      saleBoundaries.close();
      stopUnpaidWatch();
      stopTestClock();
      await closeWithin(
        [
          { name: "connections", close: () => closed.finally(() => clearTimeout(timer)), by: deadline },
          { name: "metrics listener", close: () => closeMetrics(), by: drainBy },
          { name: "picture decoders", close: () => decodersClosed, by: drainBy },
          { name: "vite", close: async () => vite?.close(), by: drainBy },
          { name: "mail", close: () => closeMail(Math.max(0, drainBy - Date.now())), by: drainBy },
          { name: "backup", close: async () => backups?.stop(), by: drainBy },
          { name: "cell count folding", close: stopCellCountFolding, by: drainBy },
          { name: "change feed", close: closeChanges, by: deadline },
          { name: "database", close: () => database.destroy(), by: deadline },
        ],
        logger,
      );
      releaseLock?.();
      logger.info("Plant Shop stopped");
    },
  };
}
