import path from "node:path";
import { pino } from "pino";
import { composeShop } from "../server/compose.ts";
import { ConfigError, loadConfig } from "../server/config.ts";
import { openDatabase } from "../server/platform/db/client.ts";
import { migrateToLatest } from "../server/migrations.ts";

// npm run admin -- grant <email> | revoke <email>: the shop owner's command for admin rights
// (docs/product.md, Roles). Uses the same DATA_DIR / DATABASE_URL as the server; safe while it runs.
const USAGE = "Usage: npm run admin -- grant <email>\n       npm run admin -- revoke <email>";

async function main(): Promise<number> {
  const [command, email] = process.argv.slice(2);
  if ((command !== "grant" && command !== "revoke") || !email) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  const database = openDatabase({ databaseUrl: config.databaseUrl, sqliteFile: path.join(config.dataDir, "shop.db") });
  try {
    await migrateToLatest(database);
    // Events (the `admin.role-changed` grant) go to stderr as JSON lines, as the server's log would have them.
    const { services, mailer, closeChanges } = await composeShop({ ...config, admin: undefined }, database, pino({ level: "info" }, pino.destination(2)));
    await services.accounts.setAdmin(email, command === "grant");
    await mailer.close();
    await closeChanges();
    console.log(command === "grant" ? `${email} is now an admin.` : `${email} is no longer an admin.`);
    return 0;
  } finally {
    await database.destroy();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError || (error instanceof Error && "status" in error) ? error.message : error);
    process.exit(1);
  },
);
