import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

// The production build, started with an empty data folder of its own (never the developer's database).
// Set once in the runner process; workers inherit these variables.
process.env.E2E_PORT ??= "4317";
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), "plant-shop-e2e-"));
process.env.E2E_SMTP_PORT ??= "4318";
process.env.E2E_MAIL_DIR ??= mkdtempSync(path.join(os.tmpdir(), "plant-shop-e2e-mail-"));
const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`;

export default defineConfig({
  testDir: "tests/e2e",
  // Four servers on one PostgreSQL database racing for the last plants: only when there is a PostgreSQL to use.
  testIgnore: process.env.TEST_DATABASE_URL ? [] : ["**/orders-multiprocess.spec.ts"],
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
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: {
    command: "tsx server/main.ts",
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: process.env.E2E_PORT,
      PUBLIC_URL: baseURL,
      DATA_DIR: process.env.E2E_DATA_DIR,
      LOG_LEVEL: "warn",
      // The tests change data under the server and expect to see it at once; the cache has its own test.
      PAGE_CACHE_SECONDS: "0",
      // A long suite signs in, searches and orders far more often than a person: limits a hundred times looser,
      // so none trips by accident. Each limit is tested at the shop's own values by its API test.
      RATE_LIMIT_SCALE: "100",
      // The suite's shoppers are reused across tests and pile up pending orders; the cap has its own API test.
      MAX_PENDING_ORDERS: "100",
      SMTP_URL: `smtp://127.0.0.1:${process.env.E2E_SMTP_PORT}`,
      ADMIN_EMAIL: "owner@plant-shop.test",
      ADMIN_PASSWORD: "e2e-admin-password-7",
    },
  },
});
