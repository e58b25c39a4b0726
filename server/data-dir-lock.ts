import lockfile from "proper-lockfile";

export class DataDirInUseError extends Error {}

/**
 * One server process per embedded database: SQLite in WAL mode is safe across processes, but two shops
 * seeding and migrating one file at once are not what anybody means to run. PostgreSQL needs no lock.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  try {
    return await lockfile.lock(dataDir, { lockfilePath: `${dataDir}/server.lock`, stale: 15_000, update: 5_000 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOCKED") {
      throw new DataDirInUseError(
        `Another Plant Shop server is already using the data folder ${dataDir}. Stop it first, or start this one with another DATA_DIR (or a PostgreSQL DATABASE_URL, which many servers can share).`,
      );
    }
    throw error;
  }
}
