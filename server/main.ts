import { ConfigError, loadConfig } from "./config.ts";
import { DataDirInUseError } from "./platform/data-dir/data-dir-lock.ts";
import { DatabaseUnavailableError } from "./platform/db/connection-loss.ts";
import { routeConsoleToLog } from "./platform/console-to-log.ts";
import { createProcessLogger } from "./platform/process-logger.ts";
import { startServer } from "./start.ts";

// Process entry: configuration, start-up, graceful shutdown on SIGTERM/SIGINT.
/** Writes the logger's queued lines; called before every exit. */
let flushLogs = () => {};

async function main(): Promise<void> {
  // Whatever this process creates (the data folder's files, locks, temporary files) is its user's alone;
  // the shop's own files also carry that mode explicitly (decision 015).
  process.umask(0o077);
  const config = loadConfig();
  const { logger, flush } = createProcessLogger(config.logLevel);
  flushLogs = flush;
  const server = await startServer(config, logger);
  // Once started (a failure to start prints plainly, above): what libraries print goes out as JSON log lines too.
  // Development keeps the console, where Vite talks to the developer.
  if (config.mode !== "development") routeConsoleToLog(logger);
  let stopping = false;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, "shutting down");
      server.stop().then(
        () => {
          flush();
          process.exit(0);
        },
        (error: unknown) => {
          logger.error({ err: error }, "shutdown failed");
          flush();
          process.exit(1);
        },
      );
    });
  }
}

main().catch((error: unknown) => {
  // Readable start-up failures (bad configuration, data folder in use) print without a stack trace.
  if (error instanceof ConfigError || error instanceof DataDirInUseError) console.error(error.message);
  // Start-up needs the database (migrations): said as what it is, for the operator, and the supervisor restarts.
  else if (error instanceof DatabaseUnavailableError) console.error(`The database could not be reached at start-up (DATABASE_URL): ${error.cause instanceof Error ? error.cause.message : String(error.cause)}`);
  else console.error(error);
  flushLogs();
  process.exit(1);
});
