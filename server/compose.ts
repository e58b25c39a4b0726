import path from "node:path";
import type { Logger } from "pino";
import { createSealer } from "./platform/sealed-values.ts";
import { loadAuthSecret } from "./modules/accounts/index.ts";
import { ConfigError, type Config } from "./config.ts";
import type { Database } from "./platform/db/client.ts";
import { createInfrastructure, createServices, type ServiceDependencies } from "./create-services.ts";
import { ServiceError } from "./platform/errors.ts";
import { createMailOutbox, outboxBacklog, startMailWorker, type MailWorker, type MailWorkerOptions } from "./platform/mail/mail-outbox.ts";
import { createMailer } from "./platform/mail/mailer.ts";
import { createLocalChangeFeed } from "./platform/change-feed/change-feed.ts";
import { createPostgresChangeFeed } from "./platform/change-feed/postgres-change-feed.ts";
import { freeDiskSpace, type FreeDiskSpace } from "./platform/uploads/free-disk-space.ts";
import { createMetrics, type ShopMetrics } from "./platform/metrics/metrics.ts";
import { createPostgresUploadLocker } from "./platform/uploads/postgres-upload-locker.ts";

export interface ComposeOptions {
  /** The free space of the data folder's disk, when not statfs's (tests simulate a full disk with it). */
  freeDiskSpace?: FreeDiskSpace;
}

/**
 * The shop's domain services, the infrastructure they run on and the outside connections, built from the
 * configuration (server start-up and tests).
 */
export async function composeShop(config: Config, database: Pick<Database, "db" | "dialect" | "pool">, logger: Logger, options: ComposeOptions = {}) {
  const mailer = createMailer({
    smtpUrl: config.mail.smtpUrl,
    from: config.mail.from,
    outboxDir: path.join(config.dataDir, "outbox"),
  });
  const authSecret = await loadAuthSecret(config.authSecret, config.dataDir);
  // One key for everything the shop seals: queued mail bodies and the pages' own cookies.
  const sealer = createSealer(authSecret);
  const outbox = createMailOutbox(sealer);
  // Every process of a shop on PostgreSQL hears every change; on SQLite one process owns the database (decision 019).
  const changes =
    database.dialect === "postgres" && config.databaseUrl
      ? await createPostgresChangeFeed({ databaseUrl: config.databaseUrl, db: database.db, logger })
      : createLocalChangeFeed();
  // Several copies share PostgreSQL: an upload is written by one of them at a time (decision 060).
  const uploadLocker = database.dialect === "postgres" && config.databaseUrl ? createPostgresUploadLocker({ databaseUrl: config.databaseUrl, logger }) : undefined;
  // The process's own figures only where someone can read them (their collectors run all the time).
  const metrics = createMetrics({ processMetrics: config.metrics.port !== undefined || config.metrics.token !== undefined });
  const dependencies: ServiceDependencies = {
    metrics,
    database,
    dataDir: config.dataDir,
    publicUrl: config.publicUrl,
    authSecret,
    sealer,
    shopName: config.shop.name,
    contactEmail: config.mail.contactEmail,
    timeZone: config.shop.timeZone,
    shippingFeePaise: config.shop.shippingFeePaise,
    freeShippingAbovePaise: config.shop.freeShippingAbovePaise,
    upi: config.upi,
    outbox,
    logger,
    limits: config.limits,
    uploadQuota: config.uploads,
    mediaS3: config.mediaS3,
    uploadLocker,
    ...(options.freeDiskSpace ? { freeDiskSpace: options.freeDiskSpace } : {}),
    changes,
    signInProviders: config.signInProviders,
    requireAdminTwoFactor: config.requireAdminTwoFactor,
  };
  const infrastructure = createInfrastructure(dependencies);
  const services = createServices(infrastructure, dependencies);
  watchOnScrape(metrics, database, services.productEvents, options.freeDiskSpace ?? freeDiskSpace({ directory: config.dataDir }));
  if (config.admin) {
    const outcome = await services.accounts.ensureAdmin(config.admin).catch((error: unknown) => {
      // What the account rules refuse is a setting to fix: said as one, not as a stack trace (decision 015).
      if (error instanceof ServiceError) throw new ConfigError([`ADMIN_EMAIL / ADMIN_PASSWORD: the admin account cannot be made: ${error.message}`]);
      throw error;
    });
    logger.info({ email: config.admin.email, outcome }, "admin account ready");
  }
  let worker: MailWorker | undefined;
  return {
    services,
    infrastructure,
    mailer,
    /**
     * Starts this process's mail worker, which sends what the services queue (the server and the tests; not the
     * admin command). With several processes on PostgreSQL each runs one; each mail is still sent once.
     */
    startMailWorker(options: Partial<Omit<MailWorkerOptions, "database" | "mailer" | "outbox" | "logger">> = {}) {
      worker ??= startMailWorker({ database, mailer, outbox, logger, ...options });
      return worker;
    },
    /**
     * Ends the live pages' streams (they would otherwise hold shutdown up to its budget) and stops listening for
     * changes. The streams end first, while the HTTP server drains; the feed closes after it has.
     */
    endLiveStreams() {
      services.productEvents.close();
    },
    async closeChanges() {
      await changes.close();
      await uploadLocker?.close();
    },
    /** Stops the worker, letting the e-mails it is sending finish (for at most `timeoutMs`), then closes the mail connections. */
    async closeMail(timeoutMs: number) {
      await worker?.stop(timeoutMs);
      await mailer.close();
    },
  };
}

/** The figures read when /metrics is scraped: the outbox's backlog, the live streams open, the disk, the PostgreSQL pool. */
function watchOnScrape(metrics: ShopMetrics, database: Pick<Database, "db" | "pool">, liveStreams: { readonly size: number }, freeDisk: FreeDiskSpace) {
  // The scrape reads its gauges at once: the two outbox figures share the reading in flight (one query, not two).
  let reading: ReturnType<typeof outboxBacklog> | undefined;
  const backlog = () => {
    reading ??= outboxBacklog(database.db).finally(() => {
      reading = undefined;
    });
    return reading;
  };
  metrics.gaugeOnScrape("plantshop_mail_outbox_pending", "Mails queued and not sent yet, retries included (counted up to 10000).", async () => (await backlog()).pending);
  metrics.gaugeOnScrape("plantshop_mail_outbox_oldest_pending_age_seconds", "Age of the oldest mail queued and not sent yet; 0 when none is waiting.", async () => {
    const { oldestQueuedAt } = await backlog();
    return oldestQueuedAt ? Math.max(0, (Date.now() - oldestQueuedAt.getTime()) / 1000) : 0;
  });
  metrics.gaugeOnScrape("plantshop_live_streams_open", "Live product pages' event streams open on this process.", () => liveStreams.size);
  metrics.gaugeOnScrape("plantshop_data_dir_free_bytes", "Bytes free for the shop on the disk of DATA_DIR (the SQLite database, media, uploads, outbox files).", freeDisk);
  if (database.pool) metrics.watchPool(database.pool);
}
