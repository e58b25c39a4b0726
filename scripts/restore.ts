import path from "node:path";
import { BackupError } from "../server/platform/backup/backup.ts";
import { restoreBackup } from "../server/platform/backup/restore.ts";
import { ConfigError, loadConfig } from "../server/config.ts";

// npm run restore <archive>: a backup into an empty DATA_DIR, checked before anything is written (README, Backups).
const USAGE = "Usage: npm run restore -- <archive.tar.gz>   (into DATA_DIR, which must be empty; the .sha256 file must be beside the archive)";

async function main(): Promise<number> {
  const [archive, ...rest] = process.argv.slice(2);
  if (!archive || rest.length) {
    console.error(USAGE);
    return 2;
  }
  process.umask(0o077);
  const config = loadConfig();
  const { manifest, restored } = await restoreBackup({ archive: path.resolve(archive), dataDir: config.dataDir });
  console.log(`Restored the backup of ${manifest.createdAt} into ${config.dataDir}: ${restored.length} files.`);
  if (manifest.database === "postgres") {
    console.log("This backup holds no database (the shop ran on PostgreSQL): restore it with pg_restore from your pg_dump file (README, Backups).");
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError || error instanceof BackupError ? error.message : error);
    process.exit(1);
  },
);
