import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pino } from "pino";
import { composeShop } from "../../server/compose.ts";
import { loadConfig } from "../../server/config.ts";
import type { Services } from "../../server/create-services.ts";
import { openDatabase, type Database } from "../../server/platform/db/client.ts";
import type { SessionUser } from "../../server/platform/session-user.ts";
import { SHOP_AUTH_SECRET } from "./shop-process.ts";

/**
 * The shop's owner as the services see an admin: for a change made through them while no server runs, where
 * there is no session to act in. The services check the role, not the row.
 */
export const OWNER: SessionUser = {
  id: "owner",
  name: "Shop Owner",
  email: "owner@plant-shop.test",
  username: "owner",
  image: null,
  emailVerified: true,
  isAdmin: true,
};

/**
 * Runs `act` with the shop's services on a data folder (SQLite there, or `databaseUrl`), composed as the owner's
 * command composes them (scripts/admin.ts): the modules' own rules and writes, for a change made while the
 * server that owns the folder is stopped.
 */
export async function withShopServices<T>({ dataDir, databaseUrl }: { dataDir: string; databaseUrl?: string }, act: (services: Services) => Promise<T>): Promise<T> {
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    PUBLIC_URL: "http://127.0.0.1",
    AUTH_SECRET: SHOP_AUTH_SECRET,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const database = openDatabase({ databaseUrl: config.databaseUrl, sqliteFile: path.join(config.dataDir, "shop.db") });
  try {
    const { services, mailer, closeChanges } = await composeShop(config, database, pino({ level: "silent" }));
    try {
      return await act(services);
    } finally {
      await mailer.close();
      await closeChanges();
    }
  } finally {
    await database.destroy();
  }
}

/**
 * Another copy of the shop's services on `database` (its own connections, for PostgreSQL: as another server process
 * would have), composed as the server composes them: for tests of what two copies do at once. Close it when done.
 */
export async function composeAnotherCopy(database: Pick<Database, "db" | "dialect">, publicUrl: string): Promise<{ services: Services; close(): Promise<void> }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "plant-shop-copy-"));
  const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, PUBLIC_URL: publicUrl });
  const shop = await composeShop(config, database, pino({ level: "silent" }));
  return {
    services: shop.services,
    async close() {
      await shop.closeChanges();
      await shop.mailer.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
