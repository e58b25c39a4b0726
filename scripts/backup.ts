import { BackupError, backupAndPrune, MEDIA_IN_BUCKET_NOTICE } from "../server/platform/backup/backup.ts";
import { ConfigError, loadConfig } from "../server/config.ts";

// npm run backup: a consistent copy of the running shop into BACKUP_DIR (README, Backups; docs/decisions/055).
// Safe while the server runs and takes orders: the database is read through SQLite's online backup.
async function main(): Promise<number> {
  process.umask(0o077);
  const config = loadConfig();
  const mediaInBucket = config.mediaS3 !== undefined;
  if (config.databaseUrl) {
    console.error(`DATABASE_URL is set: this backup holds ${mediaInBucket ? "" : "the pictures and "}the auth secret only. Back the PostgreSQL database up with pg_dump -Fc (README, Backups).`);
  }
  if (mediaInBucket) console.error(MEDIA_IN_BUCKET_NOTICE);
  const { archive, sha256, deleted } = await backupAndPrune({ dataDir: config.dataDir, backupDir: config.backup.dir, databaseUrl: config.databaseUrl, mediaInBucket, keep: config.backup.keep });
  console.log(`Backup written: ${archive}\nsha256: ${sha256}`);
  if (deleted.length) console.log(`Older backups deleted (BACKUP_KEEP=${config.backup.keep}): ${deleted.join(", ")}`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError || error instanceof BackupError ? error.message : error);
    console.error("The backup FAILED: no new backup was written and no older one was deleted.");
    process.exit(1);
  },
);
