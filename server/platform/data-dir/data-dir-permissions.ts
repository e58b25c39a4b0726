import { chmod, lstat, mkdir, readdir } from "node:fs/promises";
import path from "node:path";

/** The data folder and every folder in it: its owner only (decision 015). */
export const PRIVATE_DIR_MODE = 0o700;
/** Every file the shop writes there: the database, its WAL files, the auth secret, e-mails, pictures. */
export const PRIVATE_FILE_MODE = 0o600;

/** What the shop keeps at the top of its data folder; nothing else there is touched (DATA_DIR may be shared). */
const OWN_FILES = /^(shop\.db(-wal|-shm|-journal)?|auth-secret)$/;
/** The shop's own folders, whose whole content it wrote. */
const OWN_FOLDERS = ["media", "outbox"];

export interface DataDirReport {
  /** Paths whose mode was looser than the shop's and was tightened. */
  tightened: string[];
  /** Paths whose mode could not be changed (another owner), with the reason. */
  failed: string[];
}

/**
 * Creates the data folder private (0700) with its media folder, and tightens an existing one that is looser:
 * the folder, the shop's files at its top (0600), and its own folders with everything in them. Those folders are
 * walked only when they or the data folder were loose — i.e. once, for a folder an older version made — so a
 * start-up does not grow with the pictures stored.
 */
export async function secureDataDir(dataDir: string): Promise<DataDirReport> {
  const report: DataDirReport = { tightened: [], failed: [] };
  await mkdir(path.join(dataDir, "media"), { recursive: true, mode: PRIVATE_DIR_MODE });
  const folderWasLoose = await tighten(dataDir, PRIVATE_DIR_MODE, report);
  for (const entry of await readdir(dataDir, { withFileTypes: true })) {
    const full = path.join(dataDir, entry.name);
    if (entry.isFile() && OWN_FILES.test(entry.name)) await tighten(full, PRIVATE_FILE_MODE, report);
    if (entry.isDirectory() && OWN_FOLDERS.includes(entry.name)) {
      const wasLoose = await tighten(full, PRIVATE_DIR_MODE, report);
      if (wasLoose || folderWasLoose) await tightenTree(full, report);
    }
  }
  return report;
}

async function tightenTree(folder: string, report: DataDirReport): Promise<void> {
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    // Symbolic links are left alone: what they point to is not the shop's to change.
    if (entry.isDirectory()) {
      await tighten(full, PRIVATE_DIR_MODE, report);
      await tightenTree(full, report);
    } else if (entry.isFile()) {
      await tighten(full, PRIVATE_FILE_MODE, report);
    }
  }
}

/** Takes away every permission `mode` does not grant; true when there was any to take. */
async function tighten(target: string, mode: number, report: DataDirReport): Promise<boolean> {
  const current = (await lstat(target)).mode & 0o777;
  const wanted = current & mode;
  if (current === wanted) return false;
  try {
    await chmod(target, wanted);
    report.tightened.push(target);
  } catch (error) {
    report.failed.push(`${target}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  return true;
}
