import type { Logger } from "pino";
import { backupAndPrune, MEDIA_IN_BUCKET_NOTICE } from "./backup.ts";

export interface BackupScheduleOptions {
  dataDir: string;
  backupDir: string;
  databaseUrl: string | undefined;
  /** The pictures are in a bucket (MEDIA_S3_BUCKET): not archived (see BackupOptions). */
  mediaInBucket?: boolean;
  everyMs: number;
  keep: number;
  logger: Logger;
}

export interface BackupSchedule {
  /** Takes a backup now (also what the timer calls); never throws: a failure is logged at error level. */
  runOnce(): Promise<void>;
  /** Stops the timer and waits for a backup in progress to end. */
  stop(): Promise<void>;
}

/**
 * The server's own backups every BACKUP_EVERY_HOURS: one at a time (a slow one is not overlapped by the next),
 * old archives deleted only after a new one is complete and verified (docs/decisions/055).
 */
export function startBackupSchedule({ dataDir, backupDir, databaseUrl, mediaInBucket = false, everyMs, keep, logger }: BackupScheduleOptions): BackupSchedule {
  let running: Promise<void> | undefined;
  if (databaseUrl) logger.info({ backupDir }, `scheduled backups copy ${mediaInBucket ? "" : "the pictures and "}the auth secret only: back the PostgreSQL database up with pg_dump (README, Backups)`);
  if (mediaInBucket) logger.info({ backupDir }, MEDIA_IN_BUCKET_NOTICE);
  const runOnce = () => {
    running ??= backupAndPrune({ dataDir, backupDir, databaseUrl, mediaInBucket, keep })
      .then(
        ({ archive, sha256, deleted }) => logger.info({ archive, sha256, deleted }, "backup taken"),
        (error: unknown) => logger.error({ err: error, backupDir }, "BACKUP FAILED: no new backup was taken and no older one was deleted"),
      )
      .finally(() => (running = undefined));
    return running;
  };
  const timer = setInterval(() => void runOnce(), everyMs);
  // The timer never keeps the process alive by itself.
  timer.unref();
  return {
    runOnce,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
