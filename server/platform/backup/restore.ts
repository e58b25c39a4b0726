import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import Database from "better-sqlite3";
import * as tar from "tar";
import { DataDirInUseError, lockDataDir } from "../data-dir/data-dir-lock.ts";
import { BackupError, checksumFileOf, MANIFEST, readManifest, sha256Of, type Manifest } from "./backup.ts";

export interface RestoreResult {
  manifest: Manifest;
  /** The files written into the data folder, by their path inside it. */
  restored: string[];
}

/**
 * Restores a backup archive into an empty data folder (created when missing). Refused, with nothing written:
 * a folder that is in use by a server or not empty, an archive whose sha256 is not the one beside it, an archive
 * whose files are not those its manifest lists. The files are unpacked in a hidden folder inside DATA_DIR, checked
 * one by one, and only then moved into place, while the data folder's lock keeps a server from starting on it.
 */
export async function restoreBackup({ archive, dataDir }: { archive: string; dataDir: string }): Promise<RestoreResult> {
  const archiveStat = await stat(archive).catch(() => undefined);
  if (!archiveStat?.isFile()) throw new BackupError(`There is no backup archive at ${archive}.`);
  await refuseUnlessEmpty(dataDir);
  const checksumFile = checksumFileOf(archive);
  const expected = existsSync(checksumFile) ? (await readFile(checksumFile, "utf8")).trim().split(/\s+/)[0] : undefined;
  if (!expected || !/^[0-9a-f]{64}$/.test(expected)) {
    throw new BackupError(`The checksum file ${checksumFile} is missing or unreadable: the archive cannot be verified, so nothing was restored.`);
  }
  const actual = await sha256Of(archive);
  if (actual !== expected) {
    throw new BackupError(`The archive ${archive} is damaged: its sha256 is ${actual}, not ${expected} as ${path.basename(checksumFile)} says. Nothing was restored.`);
  }

  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  let release: (() => void) | undefined;
  try {
    release = lockDataDir(dataDir);
  } catch (error) {
    if (error instanceof DataDirInUseError) throw new BackupError(inUse(dataDir));
    throw error;
  }
  const staging = await mkdtemp(path.join(dataDir, ".restoring-"));
  try {
    await tar.extract({ file: archive, cwd: staging, strict: true });
    const manifest = readManifest(await readFile(path.join(staging, MANIFEST), "utf8").catch(() => ""));
    const found = (await filesUnder(staging)).filter((file) => file !== MANIFEST).sort();
    const listed = Object.keys(manifest.files).sort();
    if (JSON.stringify(found) !== JSON.stringify(listed)) throw new BackupError("The archive's files are not the ones its manifest lists. Nothing was restored.");
    for (const [file, sha256] of Object.entries(manifest.files)) {
      if ((await sha256Of(path.join(staging, file))) !== sha256) throw new BackupError(`The archive's ${file} is not the file that was backed up. Nothing was restored.`);
    }
    if (manifest.database === "sqlite") checkDatabase(path.join(staging, "shop.db"));
    await rm(path.join(staging, MANIFEST));
    const top = await readdir(staging);
    for (const entry of top) await rename(path.join(staging, entry), path.join(dataDir, entry));
    return { manifest, restored: listed };
  } finally {
    await rm(staging, { recursive: true, force: true });
    release();
  }
}

function inUse(dataDir: string) {
  return `The data folder ${dataDir} is in use by a running Plant Shop server. Stop it, and restore into an empty folder.`;
}

/** Refuses a folder in use by a server (its lock is held) or holding anything at all. */
async function refuseUnlessEmpty(dataDir: string) {
  const entries = await readdir(dataDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [] as string[];
    throw error;
  });
  if (entries.includes("server.lock")) {
    try {
      lockDataDir(dataDir)();
    } catch (error) {
      if (error instanceof DataDirInUseError) throw new BackupError(inUse(dataDir));
      throw error;
    }
  }
  if (entries.length) {
    throw new BackupError(`The data folder ${dataDir} is not empty (it holds ${entries.slice(0, 5).join(", ")}${entries.length > 5 ? ", …" : ""}). Restore into an empty folder: nothing was restored.`);
  }
}

function checkDatabase(file: string) {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const result = db.pragma("quick_check", { simple: true });
    if (result !== "ok") throw new BackupError(`The archive's database fails SQLite's check (${String(result)}). Nothing was restored.`);
  } finally {
    db.close();
  }
}

async function filesUnder(root: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(path.join(root, prefix), { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await filesUnder(root, relative)));
    else out.push(relative);
  }
  return out;
}
