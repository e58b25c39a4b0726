import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import * as tar from "tar";
import { afterEach, describe, expect, it } from "vitest";
import { captureLogs } from "../tests/support/log-capture.ts";
import { createCategory, createProduct } from "../tests/support/factories.ts";
import { migrateToLatest } from "./migrations.ts";
import { lockDataDir } from "./platform/data-dir/data-dir-lock.ts";
import { openDatabase } from "./platform/db/client.ts";
import { archiveName, backupAndPrune, BackupError, checksumFileOf, createBackup, LEFTOVER_AGE_MS, listBackups, sha256Of } from "./platform/backup/backup.ts";
import { startBackupSchedule } from "./platform/backup/backup-schedule.ts";
import { restoreBackup } from "./platform/backup/restore.ts";

const dirs: string[] = [];
function freshDir(name: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `plant-shop-${name}-`));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A data folder as a running shop leaves it: a migrated database with a product, pictures, the secret, and what a backup leaves out. */
async function shopDataDir() {
  const dataDir = freshDir("data");
  const database = openDatabase({ sqliteFile: path.join(dataDir, "shop.db") });
  await migrateToLatest(database);
  const category = await createCategory(database.db);
  const product = await createProduct(database.db, { category_id: category.id, name: "Backed-up Monstera", stock: 4 });
  // Kept open, as the server keeps it: part of the database is still in the WAL file when the backup runs.
  mkdirSync(path.join(dataDir, "media"));
  writeFileSync(path.join(dataDir, "media", "abc-800.webp"), "picture bytes");
  writeFileSync(path.join(dataDir, "media", ".def-800.webp.tmp"), "half a picture");
  writeFileSync(path.join(dataDir, "auth-secret"), "s".repeat(64));
  mkdirSync(path.join(dataDir, "uploads"));
  writeFileSync(path.join(dataDir, "uploads", "unfinished"), "part of an upload");
  return { dataDir, database, product };
}

async function entriesOf(archive: string) {
  const entries: string[] = [];
  await tar.list({ file: archive, onReadEntry: (entry) => entries.push(entry.path) });
  return entries.sort();
}

async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a refusal");
}

describe("createBackup", () => {
  it("writes one archive of the database, the pictures and the secret (no unfinished upload or picture) with its sha256 beside it, and it restores", async () => {
    const { dataDir, database, product } = await shopDataDir();
    const backupDir = path.join(freshDir("backups"), "nested");
    const { archive, sha256, manifest } = await createBackup({ dataDir, backupDir, now: new Date("2026-11-28T03:00:00.000Z") });
    await database.destroy();

    expect(path.basename(archive)).toBe("plant-shop-2026-11-28T03-00-00.000Z.tar.gz");
    expect(readdirSync(backupDir).sort()).toEqual([path.basename(archive), `${path.basename(archive)}.sha256`]);
    expect(await entriesOf(archive)).toEqual(["auth-secret", "manifest.json", "media/abc-800.webp", "shop.db"]);
    expect(sha256).toBe(await sha256Of(archive));
    expect(readFileSync(checksumFileOf(archive), "utf8")).toBe(`${sha256}  ${path.basename(archive)}\n`);
    expect(manifest).toMatchObject({ database: "sqlite", createdAt: "2026-11-28T03:00:00.000Z" });
    expect(Object.keys(manifest.files).sort()).toEqual(["auth-secret", "media/abc-800.webp", "shop.db"]);

    const target = path.join(freshDir("restore"), "data");
    const restored = await restoreBackup({ archive, dataDir: target });
    expect(restored.restored.sort()).toEqual(["auth-secret", "media/abc-800.webp", "shop.db"]);
    expect(readFileSync(path.join(target, "media", "abc-800.webp"), "utf8")).toBe("picture bytes");
    expect(readFileSync(path.join(target, "auth-secret"), "utf8")).toBe("s".repeat(64));
    const db = new Database(path.join(target, "shop.db"), { readonly: true });
    expect(db.prepare("select name, stock from products where id = ?").get(product.id)).toEqual({ name: "Backed-up Monstera", stock: 4 });
    db.close();
  });

  it("on PostgreSQL archives the pictures and the secret but no database", async () => {
    const dataDir = freshDir("data");
    mkdirSync(path.join(dataDir, "media"));
    writeFileSync(path.join(dataDir, "media", "abc-400.webp"), "picture");
    const { archive, manifest } = await createBackup({ dataDir, backupDir: freshDir("backups"), databaseUrl: "postgres://shop@db/shop" });
    expect(manifest.database).toBe("postgres");
    expect(await entriesOf(archive)).toEqual(["manifest.json", "media/abc-400.webp"]);
  });

  it("with the pictures in a bucket archives none, not even a leftover local media folder, and still restores the database", async () => {
    const { dataDir, database, product } = await shopDataDir();
    const { archive } = await createBackup({ dataDir, backupDir: freshDir("backups"), mediaInBucket: true });
    await database.destroy();
    expect(await entriesOf(archive)).toEqual(["auth-secret", "manifest.json", "shop.db"]);
    const target = path.join(freshDir("restore"), "data");
    await restoreBackup({ archive, dataDir: target });
    const restored = new Database(path.join(target, "shop.db"), { readonly: true });
    expect(restored.prepare("SELECT name FROM products WHERE id = ?").get(product.id)).toEqual({ name: "Backed-up Monstera" });
    restored.close();
  });
});

describe("restoreBackup", () => {
  async function oneBackup() {
    const { dataDir, database } = await shopDataDir();
    const result = await createBackup({ dataDir, backupDir: freshDir("backups") });
    await database.destroy();
    return result;
  }

  it("refuses a data folder that is not empty and leaves it as it was", async () => {
    const { archive } = await oneBackup();
    const target = freshDir("restore");
    writeFileSync(path.join(target, "notes.txt"), "mine");
    const error = await refusal(restoreBackup({ archive, dataDir: target }));
    expect(error).toBeInstanceOf(BackupError);
    expect((error as Error).message).toMatch(/is not empty \(it holds notes\.txt\)/);
    expect(readdirSync(target)).toEqual(["notes.txt"]);
  });

  it("refuses a data folder a running server holds", async () => {
    const { archive } = await oneBackup();
    const target = freshDir("restore");
    const release = lockDataDir(target);
    try {
      const before = readdirSync(target).sort();
      const error = await refusal(restoreBackup({ archive, dataDir: target }));
      expect((error as Error).message).toMatch(/is in use by a running Plant Shop server/);
      expect(readdirSync(target).sort()).toEqual(before);
    } finally {
      release();
    }
  });

  it("refuses an archive with one byte changed, before writing anything", async () => {
    const { archive } = await oneBackup();
    const bytes = readFileSync(archive);
    bytes[Math.floor(bytes.length / 2)]! ^= 0xff;
    writeFileSync(archive, bytes);
    const target = path.join(freshDir("restore"), "data");
    const error = await refusal(restoreBackup({ archive, dataDir: target }));
    expect((error as Error).message).toMatch(/is damaged: its sha256 is [0-9a-f]{64}, not [0-9a-f]{64}.*Nothing was restored/);
    expect(readdirSync(path.dirname(target))).toEqual([]);
  });

  it("refuses an archive without its checksum file", async () => {
    const { archive } = await oneBackup();
    rmSync(checksumFileOf(archive));
    const target = path.join(freshDir("restore"), "data");
    const error = await refusal(restoreBackup({ archive, dataDir: target }));
    expect((error as Error).message).toMatch(/checksum file .* is missing or unreadable/);
    expect(readdirSync(path.dirname(target))).toEqual([]);
  });
});

describe("retention", () => {
  it("keeps the newest BACKUP_KEEP archives and deletes the older ones with their checksum files", async () => {
    const { dataDir, database } = await shopDataDir();
    const backupDir = freshDir("backups");
    const days = ["2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27"];
    const deleted: string[][] = [];
    for (const day of days) deleted.push((await backupAndPrune({ dataDir, backupDir, keep: 2, now: new Date(`${day}T03:00:00.000Z`) })).deleted);
    await database.destroy();
    const names = days.map((day) => archiveName(new Date(`${day}T03:00:00.000Z`)));
    expect(deleted).toEqual([[], [], [path.join(backupDir, names[0]!)], [path.join(backupDir, names[1]!)]]);
    expect(readdirSync(backupDir).sort()).toEqual([names[2]!, `${names[2]!}.sha256`, names[3]!, `${names[3]!}.sha256`]);
  });

  it("sweeps the staging folder and partial files of a backup cut off more than a day ago, and keeps a running backup's", async () => {
    const { dataDir, database } = await shopDataDir();
    const backupDir = freshDir("backups");
    const cutOffName = archiveName(new Date("2026-11-20T03:00:00.000Z"));
    const cutOff = [".staging-AbC123", `.${cutOffName}.partial`, `${checksumFileOf(cutOffName)}.partial`];
    const running = [".staging-XyZ789", `.${archiveName(new Date("2026-11-28T03:00:00.000Z"))}.partial`];
    mkdirSync(path.join(backupDir, cutOff[0]!));
    writeFileSync(path.join(backupDir, cutOff[0]!, "shop.db"), "half a database");
    for (const name of cutOff.slice(1)) writeFileSync(path.join(backupDir, name), "half an archive");
    mkdirSync(path.join(backupDir, running[0]!));
    writeFileSync(path.join(backupDir, running[1]!), "an archive being written");
    const twoDaysAgo = new Date(Date.now() - 2 * LEFTOVER_AGE_MS);
    for (const name of cutOff) utimesSync(path.join(backupDir, name), twoDaysAgo, twoDaysAgo);
    const { archive } = await backupAndPrune({ dataDir, backupDir, keep: 2 });
    await database.destroy();
    expect(readdirSync(backupDir).sort()).toEqual([...running, path.basename(archive), `${path.basename(archive)}.sha256`].sort());
  });

  it("a failing backup deletes no older archive and leaves no partial file, and the schedule logs it at error level", async () => {
    const { dataDir, database } = await shopDataDir();
    const backupDir = freshDir("backups");
    await backupAndPrune({ dataDir, backupDir, keep: 1, now: new Date("2026-11-26T03:00:00.000Z") });
    await database.destroy();
    const before = readdirSync(backupDir).sort();
    // The database file is damaged for real: SQLite's backup of it fails.
    writeFileSync(path.join(dataDir, "shop.db"), "this is not a database".repeat(100));
    rmSync(path.join(dataDir, "shop.db-wal"), { force: true });
    rmSync(path.join(dataDir, "shop.db-shm"), { force: true });

    await expect(backupAndPrune({ dataDir, backupDir, keep: 1 })).rejects.toThrow(/not a database/);
    expect(readdirSync(backupDir).sort()).toEqual(before);

    const logs = captureLogs();
    const schedule = startBackupSchedule({ dataDir, backupDir, databaseUrl: undefined, everyMs: 3_600_000, keep: 1, logger: logs.logger });
    await schedule.runOnce();
    await schedule.stop();
    expect(logs.lines).toEqual([expect.objectContaining({ level: 50, msg: "BACKUP FAILED: no new backup was taken and no older one was deleted", backupDir })]);
    expect(readdirSync(backupDir).sort()).toEqual(before);
    expect(await listBackups(backupDir)).toEqual([path.join(backupDir, before[0]!)]);
  });

  it("a scheduled backup that succeeds logs its archive at info level and prunes to BACKUP_KEEP", async () => {
    const { dataDir, database } = await shopDataDir();
    const backupDir = freshDir("backups");
    await createBackup({ dataDir, backupDir, now: new Date("2020-01-01T03:00:00.000Z") });
    const logs = captureLogs();
    const schedule = startBackupSchedule({ dataDir, backupDir, databaseUrl: undefined, everyMs: 3_600_000, keep: 1, logger: logs.logger });
    await schedule.runOnce();
    await schedule.stop();
    await database.destroy();
    const [archive] = await listBackups(backupDir);
    expect(logs.lines).toEqual([expect.objectContaining({ level: 30, msg: "backup taken", archive, sha256: await sha256Of(archive!), deleted: [path.join(backupDir, archiveName(new Date("2020-01-01T03:00:00.000Z")))] })]);
    expect(readdirSync(backupDir).sort()).toEqual([path.basename(archive!), `${path.basename(archive!)}.sha256`]);
  });

  it("a failing backup into a folder that cannot be made deletes nothing either", async () => {
    const { dataDir, database } = await shopDataDir();
    await database.destroy();
    const parent = freshDir("backups");
    // A file where the backup folder's parent should be: the folder cannot be created, whoever runs the test.
    writeFileSync(path.join(parent, "not-a-folder"), "");
    await expect(createBackup({ dataDir, backupDir: path.join(parent, "not-a-folder", "backups") })).rejects.toThrow(/ENOTDIR/);
    expect(readdirSync(parent)).toEqual(["not-a-folder"]);
  });
});
