import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { freshPostgresDatabase } from "./tests/e2e/support/e2e-database.ts";
import { CHROMIUM_LAUNCH } from "./tests/e2e/support/chromium.ts";
import { E2E_RATE_LIMIT_SCALE } from "./tests/e2e/support/pages.ts";
import { PRODUCTION_NODE_FLAGS, serverEnvironment } from "./tests/support/server-env.ts";

// The production build, started with an empty data folder of its own (never the developer's database).
// Set once in the runner process; workers inherit these variables.
process.env.E2E_PORT ??= "4317";
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), "plant-shop-e2e-"));
process.env.E2E_SMTP_PORT ??= "4318";
process.env.E2E_MAIL_DIR ??= mkdtempSync(path.join(os.tmpdir(), "plant-shop-e2e-mail-"));
// With E2E_DATABASE_URL (a PostgreSQL server) the shop runs on a fresh database there instead of SQLite.
if (process.env.E2E_DATABASE_URL) process.env.E2E_SERVER_DATABASE_URL ??= freshPostgresDatabase(process.env.E2E_DATABASE_URL);
const onPostgres = Boolean(process.env.E2E_SERVER_DATABASE_URL);
const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`;

export default defineConfig({
  testDir: "tests/e2e",
  // Four servers on one PostgreSQL database racing for the last plants, and a server whose database drops and
  // refuses its connections: only when there is a PostgreSQL to use, once per run (the SQLite pass with
  // TEST_DATABASE_URL). The PostgreSQL pass leaves out what does not use the shop's database: those tests make
  // their own, and the server-process tests start servers on SQLite data folders of their own.
  testIgnore: onPostgres
    ? ["**/orders-multiprocess.spec.ts", "**/two-copies-restart.spec.ts", "**/unpaid-orders-multiprocess.spec.ts", "**/live-product-multiprocess.spec.ts", "**/cache-multiprocess.spec.ts", "**/catalog-import-two-copies.spec.ts", "**/server-process.spec.ts", "**/live-product-restart.spec.ts", "**/database-outage.spec.ts", "**/backup-restore.spec.ts"]
    : process.env.TEST_DATABASE_URL
      ? []
      : ["**/orders-multiprocess.spec.ts", "**/two-copies-restart.spec.ts", "**/unpaid-orders-multiprocess.spec.ts", "**/live-product-multiprocess.spec.ts", "**/cache-multiprocess.spec.ts", "**/catalog-import-two-copies.spec.ts", "**/database-outage.spec.ts"],
  globalSetup: "./tests/e2e/global-setup.ts",
  // One worker: the tests add products, and the home page shows the newest ones.
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  timeout: 30_000,
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: CHROMIUM_LAUNCH,
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: {
    // The compiled server, run by node as in production (npm run test:e2e builds it first).
    command: `node ${PRODUCTION_NODE_FLAGS.join(" ")} build/server/main.js`,
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "ignore",
    stderr: "pipe",
    // Only these settings and the machine's basics (PATH, HOME, …): nothing else of the caller's shell, such
    // as a DATABASE_URL or SHIPPING_FEE_PAISE, reaches the server (tests/support/server-env.ts). Its type says
    // strings only; the undefined values are how the rest of process.env is left out.
    env: serverEnvironment({
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: process.env.E2E_PORT,
      PUBLIC_URL: baseURL,
      DATA_DIR: process.env.E2E_DATA_DIR,
      LOG_LEVEL: "warn",
      // The tests change data under the server and expect to see it at once; the cache has its own test.
      PAGE_CACHE_SECONDS: "0",
      // Limits loose enough that none trips by accident in a long suite (see E2E_RATE_LIMIT_SCALE).
      RATE_LIMIT_SCALE: String(E2E_RATE_LIMIT_SCALE),
      // The suite's shoppers are reused across tests and pile up pending orders; the cap has its own API test.
      MAX_PENDING_ORDERS: "100",
      SMTP_URL: `smtp://127.0.0.1:${process.env.E2E_SMTP_PORT}`,
      ADMIN_EMAIL: "owner@plant-shop.test",
      ADMIN_PASSWORD: "e2e-admin-password-7",
      // UPI at checkout (tests/e2e/upi-payments.spec.ts); Cash on Delivery stays the method checked first.
      SHOP_UPI_ID: "greenleaf@okaxis",
      SHOP_UPI_NAME: "Green Leaf Nursery",
      // Test only: the shop's clock follows this file while it exists (tests/e2e/sale.spec.ts moves sale windows' ends).
      TEST_CLOCK_FILE: path.join(process.env.E2E_DATA_DIR, "test-clock"),
      ...(onPostgres ? { DATABASE_URL: process.env.E2E_SERVER_DATABASE_URL! } : {}),
    }) as Record<string, string>,
  },
});
