import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { openDatabase } from "../../server/platform/db/client.ts";
import { extraPort, insertShoppers, startShopProcess, waitUntilHealthy, type ShopProcess } from "../support/shop-process.ts";

// One server process per SQLite data folder (docs/decisions/012), with real processes: the lock survives a
// frozen holder, dies with a killed one, and does not stand in the admin command's way.

const FIRST_PORT = extraPort(5);
const SECOND_PORT = extraPort(6);
const REFUSAL = "Another Plant Shop server is already using the data folder";

let dataDir: string;
const shops: ShopProcess[] = [];
test.beforeEach(() => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "plant-shop-lock-"));
});
test.afterEach(async () => {
  // Every server stopped (a frozen one resumed first) before the folder they share is removed.
  await Promise.all(
    shops.splice(0).map(async (shop) => {
      if (shop.child.exitCode === null && shop.child.signalCode === null) {
        shop.child.kill("SIGCONT");
        shop.child.kill("SIGTERM");
      }
      await shop.exited;
    }),
  );
  rmSync(dataDir, { recursive: true, force: true });
});

/** A server on the test's data folder. */
function start(port: number) {
  const shop = startShopProcess({ port, dataDir, env: { LOG_LEVEL: "info" } });
  shops.push(shop);
  return shop;
}

test.describe("the SQLite data folder lock", () => {
  test.describe.configure({ timeout: 90_000 });

  test("a frozen server keeps its data folder: a second server is refused, and the first serves again when resumed", async () => {
    const first = start(FIRST_PORT);
    await waitUntilHealthy(first);
    first.child.kill("SIGSTOP");
    try {
      const second = start(SECOND_PORT);
      expect(await second.exited).toBe(1);
      expect(second.output()).toContain(REFUSAL);
    } finally {
      first.child.kill("SIGCONT");
    }
    expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
  });

  test("a server killed with SIGKILL leaves the folder free: a new server starts on it straight away", async () => {
    const first = start(FIRST_PORT);
    await waitUntilHealthy(first);
    first.child.kill("SIGKILL");
    await first.exited;

    const restarted = start(SECOND_PORT);
    await waitUntilHealthy(restarted);
    expect(restarted.output()).not.toContain(REFUSAL);
  });

  test("`npm run admin -- grant` and `revoke` work beside a running server on the same folder", async () => {
    const shop = start(FIRST_PORT);
    await waitUntilHealthy(shop);
    const database = openDatabase({ sqliteFile: path.join(dataDir, "shop.db") });
    try {
      const [shopper] = await insertShoppers(database.db, 1, { password: "monstera-deliciosa-77", prefix: "lock", dialect: "sqlite" });
      const { email } = await database.db.selectFrom("users").select("email").where("id", "=", shopper!.userId).executeTakeFirstOrThrow();
      const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
      delete env.DATABASE_URL;
      const admin = (command: string) => promisify(execFile)("npm", ["run", "--silent", "admin", "--", command, email], { env });

      expect((await admin("grant")).stdout).toContain(`${email} is now an admin.`);
      const role = () => database.db.selectFrom("users").select("role").where("id", "=", shopper!.userId).executeTakeFirstOrThrow();
      expect(await role()).toEqual({ role: "admin" });
      expect((await admin("revoke")).stdout).toContain(`${email} is no longer an admin.`);
      expect(await role()).toEqual({ role: "user" });
    } finally {
      await database.destroy();
    }
    expect((await fetch(`${shop.url}/healthz`)).status).toBe(200);
  });
});
