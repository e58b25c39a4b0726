import { mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DataDirInUseError, lockDataDir } from "./data-dir-lock.ts";

// Across processes (a frozen holder, a killed one, the admin command) in tests/e2e/data-folder-lock.spec.ts.
const dirs: string[] = [];
function freshDir() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "plant-shop-lock-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  vi.useRealTimers();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("lockDataDir", () => {
  it("refuses a second holder with a message that says what to do, and frees the folder on release", () => {
    const dir = freshDir();
    const release = lockDataDir(dir);
    const refusal = (() => {
      try {
        lockDataDir(dir);
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(DataDirInUseError);
    expect((refusal as Error).message).toContain(dir);
    expect((refusal as Error).message).toContain("DATA_DIR");
    release();
    const again = lockDataDir(dir);
    again();
  });

  it("never goes stale: a day later by the clock and the timers, the holder still has it", () => {
    vi.useFakeTimers();
    const dir = freshDir();
    const release = lockDataDir(dir);
    vi.setSystemTime(Date.now() + 24 * 60 * 60 * 1000);
    vi.advanceTimersByTime(24 * 60 * 60 * 1000);
    expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);
    release();
  });

  it("is a file only its owner can read, and replaces the empty lock folder that earlier versions left after a crash", () => {
    const dir = freshDir();
    mkdirSync(path.join(dir, "server.lock"));
    const release = lockDataDir(dir);
    const lock = statSync(path.join(dir, "server.lock"));
    expect(lock.isFile()).toBe(true);
    expect(lock.mode & 0o777).toBe(0o600);
    release();
  });
});
