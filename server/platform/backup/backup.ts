import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { copyFile, mkdir, mkdtemp, open, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import Database from "better-sqlite3";
import * as tar from "tar";

/** What a backup archive holds, beside the files: its own description, checked by restore. */
export const MANIFEST = "manifest.json";
export const ARCHIVE_PATTERN = /^plant-shop-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z\.tar\.gz$/;
const FORMAT = "plant-shop-backup";
const FORMAT_VERSION = 1;
/** The files at the top of DATA_DIR a restored shop needs; the database is copied apart, through SQLite's backup. */
const KEPT_FILES = ["auth-secret"];
/** Copy every remaining page in one step, so the copy is one read transaction: a snapshot, whatever is written meanwhile. */
const ALL_PAGES = 0x7fffffff;

export interface Manifest {
  format: typeof FORMAT;
  version: number;
  createdAt: string;
  /** "sqlite": shop.db is in the archive; "postgres": the database is not (pg_dump's job, README "Backups"). */
  database: "sqlite" | "postgres";
  /** Every file of the archive but the manifest, by its path inside the archive, with its sha256. */
  files: Record<string, string>;
}

export interface BackupOptions {
  dataDir: string;
  backupDir: string;
  /** PostgreSQL: only the media and the secret are archived. */
  databaseUrl?: string | undefined;
  /**
   * MEDIA_S3_BUCKET is set: the pictures are in the bucket, not DATA_DIR/media, and the archive holds none (the
   * provider's versioning or replication keeps them; README, Backups). A leftover local folder is not copied either.
   */
  mediaInBucket?: boolean;
  now?: Date;
}

export interface BackupResult {
  archive: string;
  sha256: string;
  manifest: Manifest;
}

export class BackupError extends Error {}

/** What a backup says when the pictures are in a bucket: it does not hold them, and what does. */
export const MEDIA_IN_BUCKET_NOTICE =
  "MEDIA_S3_BUCKET is set: this backup holds NO pictures (they are in the bucket). Keep them with the provider's bucket versioning or replication (README, Backups).";

export function archiveName(at: Date): string {
  return `plant-shop-${at.toISOString().replaceAll(":", "-")}.tar.gz`;
}

export function checksumFileOf(archive: string): string {
  return `${archive}.sha256`;
}

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/**
 * A consistent copy of the shop while it runs: the SQLite database through SQLite's online backup, then the
 * pictures and the auth secret, into one gzipped tar under `backupDir` with a `.sha256` beside it. The archive is
 * written under a hidden temporary name and renamed last, once its checksum file exists, so a name matching
 * ARCHIVE_PATTERN is always a complete backup (docs/decisions/055).
 */
export async function createBackup({ dataDir, backupDir, databaseUrl, mediaInBucket = false, now = new Date() }: BackupOptions): Promise<BackupResult> {
  await mkdir(backupDir, { recursive: true, mode: 0o700 });
  const name = archiveName(now);
  const archive = path.join(backupDir, name);
  const partial = path.join(backupDir, `.${name}.partial`);
  const staging = await mkdtemp(path.join(backupDir, `.staging-`));
  try {
    const files: Record<string, string> = {};
    if (!databaseUrl) {
      // The database first: every picture a product names at that moment is then in the media folder when copied.
      const source = new Database(path.join(dataDir, "shop.db"), { readonly: true, fileMustExist: true });
      try {
        await source.backup(path.join(staging, "shop.db"), { progress: () => ALL_PAGES });
      } finally {
        source.close();
      }
      files["shop.db"] = await sha256Of(path.join(staging, "shop.db"));
    }
    for (const kept of KEPT_FILES) {
      if (await copyIfPresent(path.join(dataDir, kept), path.join(staging, kept))) files[kept] = await sha256Of(path.join(staging, kept));
    }
    await mkdir(path.join(staging, "media"), { mode: 0o700 });
    const mediaEntries = mediaInBucket ? [] : await readdir(path.join(dataDir, "media"), { withFileTypes: true }).catch(ifMissing([]));
    for (const entry of mediaEntries) {
      // Hidden names are pictures still being written (the media store's temporary files).
      if (!entry.isFile() || entry.name.startsWith(".")) continue;
      const inArchive = `media/${entry.name}`;
      if (await copyIfPresent(path.join(dataDir, "media", entry.name), path.join(staging, inArchive))) files[inArchive] = await sha256Of(path.join(staging, inArchive));
    }
    const manifest: Manifest = { format: FORMAT, version: FORMAT_VERSION, createdAt: now.toISOString(), database: databaseUrl ? "postgres" : "sqlite", files };
    await writeFile(path.join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });

    await tar.create({ gzip: true, file: partial, cwd: staging, portable: true, mode: 0o600 }, [MANIFEST, ...Object.keys(files)]);
    await syncFile(partial);
    const sha256 = await sha256Of(partial);
    // Read back before it is called a backup: the archive lists, and its manifest is the one written.
    await verifyArchive(partial, sha256, manifest);
    const checksumFile = checksumFileOf(archive);
    await writeFile(`${checksumFile}.partial`, `${sha256}  ${name}\n`, { mode: 0o600 });
    await syncFile(`${checksumFile}.partial`);
    await rename(`${checksumFile}.partial`, checksumFile);
    await rename(partial, archive);
    await syncDir(backupDir);
    return { archive, sha256, manifest };
  } catch (error) {
    await rm(partial, { force: true });
    await rm(`${checksumFileOf(archive)}.partial`, { force: true });
    throw error;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** The archive's checksum is the one computed, and its manifest lists exactly the files written. */
async function verifyArchive(file: string, sha256: string, manifest: Manifest) {
  if ((await sha256Of(file)) !== sha256) throw new BackupError(`the archive ${file} changed while it was being checked`);
  const entries: string[] = [];
  let read: Manifest | undefined;
  const chunks: Buffer[] = [];
  await tar.list({
    file,
    onReadEntry: (entry) => {
      entries.push(entry.path);
      if (entry.path === MANIFEST) entry.on("data", (chunk: Buffer) => chunks.push(chunk));
      else entry.resume();
    },
  });
  if (chunks.length) read = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Manifest;
  const expected = [MANIFEST, ...Object.keys(manifest.files)].sort();
  if (JSON.stringify(entries.sort()) !== JSON.stringify(expected) || JSON.stringify(read) !== JSON.stringify(manifest)) {
    throw new BackupError(`the archive ${file} does not read back as written`);
  }
}

/** The complete archives in `backupDir`, oldest first (their names sort by time). */
export async function listBackups(backupDir: string): Promise<string[]> {
  const names = await readdir(backupDir).catch(ifMissing([] as string[]));
  return names.filter((n) => ARCHIVE_PATTERN.test(n)).sort().map((n) => path.join(backupDir, n));
}

/**
 * What a backup cut off half-way leaves (the process killed, the machine down): its staging folder, its hidden
 * partial archive and its partial checksum file. A running backup keeps writing to its own, so only those untouched this long are
 * another's leftovers; a day is far beyond the longest backup.
 */
export const LEFTOVER_AGE_MS = 24 * 60 * 60 * 1000;
const LEFTOVER = /^(?:\.staging-.+|\.plant-shop-.+\.partial|plant-shop-.+\.sha256\.partial)$/;

async function sweepLeftovers(backupDir: string, now: number): Promise<void> {
  for (const name of await readdir(backupDir).catch(ifMissing([] as string[]))) {
    if (!LEFTOVER.test(name)) continue;
    const leftover = path.join(backupDir, name);
    const info = await stat(leftover).catch(ifMissing(null));
    if (info && now - info.mtimeMs > LEFTOVER_AGE_MS) await rm(leftover, { recursive: true, force: true });
  }
}

/**
 * Deletes the oldest archives (and their checksum files) beyond the newest `keep`, and what backups cut off more
 * than a day ago left; answers the archives it deleted.
 */
export async function pruneBackups(backupDir: string, keep: number, now = Date.now()): Promise<string[]> {
  await sweepLeftovers(backupDir, now);
  const archives = await listBackups(backupDir);
  const old = archives.slice(0, Math.max(0, archives.length - keep));
  for (const archive of old) {
    // The archive first: a checksum file without its archive is harmless, an archive without one cannot be restored.
    await rm(archive, { force: true });
    await rm(checksumFileOf(archive), { force: true });
  }
  return old;
}

/** A backup, then, only once it is complete and verified, the oldest beyond `keep` deleted. */
export async function backupAndPrune(options: BackupOptions & { keep: number }): Promise<BackupResult & { deleted: string[] }> {
  const result = await createBackup(options);
  const deleted = await pruneBackups(options.backupDir, options.keep);
  return { ...result, deleted };
}

async function copyIfPresent(from: string, to: string): Promise<boolean> {
  try {
    await copyFile(from, to);
    return true;
  } catch (error) {
    // Deleted since it was listed (a picture removed meanwhile): not part of this backup.
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

function ifMissing<T>(fallback: T) {
  return (error: unknown): T => {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return fallback;
    throw error;
  };
}

async function syncFile(file: string) {
  const handle = await open(file, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function syncDir(dir: string) {
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export function readManifest(text: string): Manifest {
  let parsed: Partial<Manifest>;
  try {
    parsed = JSON.parse(text) as Partial<Manifest>;
  } catch {
    parsed = {};
  }
  if (parsed.format !== FORMAT || parsed.version !== FORMAT_VERSION || typeof parsed.files !== "object" || !parsed.files) {
    throw new BackupError("the archive is not a Plant Shop backup this version can restore (its manifest.json is missing or of another format)");
  }
  return parsed as Manifest;
}
