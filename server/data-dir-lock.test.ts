import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DataDirInUseError, lockDataDir } from "./data-dir-lock.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("lockDataDir", () => {
  it("refuses a second holder with a message that says what to do, and frees the folder on release", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "plant-shop-lock-"));
    dirs.push(dir);
    const release = await lockDataDir(dir);
    const refusal = await lockDataDir(dir).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(DataDirInUseError);
    expect((refusal as Error).message).toContain(dir);
    expect((refusal as Error).message).toContain("DATA_DIR");
    await release();
    const again = await lockDataDir(dir);
    await again();
  });
});
