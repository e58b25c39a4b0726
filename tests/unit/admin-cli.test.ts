import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../server/platform/db/client.ts";
import { migrateToLatest } from "../../server/migrations.ts";
import { serverEnvironment } from "../support/server-env.ts";

const run = promisify(execFile);
let dataDir: string;
let database: Database;

beforeEach(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "plant-shop-cli-"));
  database = openDatabase({ sqliteFile: path.join(dataDir, "shop.db") });
  await migrateToLatest(database);
});
afterEach(async () => {
  await database.destroy();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("npm run admin", () => {
  it("grants (marking the e-mail verified, logging the event) and revokes admin rights of an existing account, and says when there is none", async () => {
    const at = "2026-01-01T00:00:00.000Z";
    await database.db
      .insertInto("users")
      .values({ id: "u1", name: "Owner", email: "Owner@Nursery.example", emailVerified: 0, createdAt: at, updatedAt: at })
      .execute();
    // Not the shell's DATABASE_URL: the command must work on this test's SQLite file.
    const env = serverEnvironment({ DATA_DIR: dataDir, LOG_LEVEL: "silent", SEED_SAMPLE_DATA: "false" });
    const cli = (...args: string[]) => run(path.resolve("node_modules/.bin/tsx"), ["scripts/admin.ts", ...args], { env });
    const user = () => database.db.selectFrom("users").select(["role", "emailVerified"]).where("id", "=", "u1").executeTakeFirstOrThrow();

    const granted = await cli("grant", "owner@nursery.example");
    expect(granted.stdout).toContain("is now an admin");
    // The grant is logged as an operator event (stderr, a JSON line).
    expect(JSON.parse(granted.stderr.trim().split("\n").find((line) => line.includes("admin.role-changed"))!)).toMatchObject({ event: "admin.role-changed", accountId: "u1", role: "admin" });
    expect(await user()).toEqual({ role: "admin", emailVerified: 1 });
    expect((await cli("revoke", "owner@nursery.example")).stdout).toContain("no longer an admin");
    expect(await user()).toEqual({ role: "user", emailVerified: 1 });
    await expect(cli("grant", "nobody@nursery.example")).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining("no account") });
  }, 60_000);
});
