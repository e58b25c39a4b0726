import { closeSync, openSync, rmdirSync, statSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

export class DataDirInUseError extends Error {}

/** What `lockDataDir` answers: lets the data folder go (also done by the kernel when the process ends). */
export type ReleaseDataDir = () => void;

/**
 * One server process per embedded database (docs/decisions/012): SQLite in WAL mode is safe across processes,
 * but two shops seeding and migrating one file at once are not what anybody means to run. PostgreSQL needs no lock.
 *
 * The lock is an exclusive write transaction on a small SQLite file of its own, `DATA_DIR/server.lock`, held
 * for the life of the process. SQLite takes it as an OS file lock, which the kernel drops the moment the
 * process dies (a restart after `kill -9` starts at once) and which nothing renews or expires (a frozen
 * server keeps it). The admin command opens `shop.db` only, so it works beside a running server.
 */
export function lockDataDir(dataDir: string): ReleaseDataDir {
  const file = path.join(dataDir, "server.lock");
  removeOldLockFolder(file);
  // Created owner-only before SQLite opens it; it never holds data, only the lock.
  closeSync(openSync(file, "a", 0o600));
  const lock = new Database(file, { timeout: 0 });
  try {
    lock.pragma("locking_mode = EXCLUSIVE");
    lock.exec("BEGIN EXCLUSIVE");
  } catch (error) {
    lock.close();
    if ((error as { code?: unknown }).code === "SQLITE_BUSY") {
      throw new DataDirInUseError(
        `Another Plant Shop server is already using the data folder ${dataDir}. Stop it first, or start this one with another DATA_DIR (or a PostgreSQL DATABASE_URL, which many servers can share).`,
      );
    }
    throw error;
  }
  // Closing ends the transaction without writing anything, which lets the lock go.
  return () => lock.close();
}

/** Versions before decision 012 locked with an empty folder of this name; one left by a crash is removed. */
function removeOldLockFolder(file: string) {
  try {
    if (statSync(file).isDirectory()) rmdirSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}
