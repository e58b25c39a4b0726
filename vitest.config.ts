import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// Unit tests run once; tests that need a database (*.db.test.ts) run on SQLite and, when
// TEST_DATABASE_URL is set, again on PostgreSQL, since the shop runs on both (docs/decisions/002).
const databaseTests = ["server/**/*.db.test.ts", "tests/api/**/*.test.ts"];
// A test's time limit is there to end a test that hangs, not to time it (speed is measured in bench/): with two files
// at a time on two cores, a database test that starts an app, writes pictures and waits on PostgreSQL can pass 5 s.
// Migrates once per database project; each test's fresh database is a copy of that one.
const migratedTemplate = "tests/support/migrated-template.ts";
const shared = { setupFiles: ["tests/support/fail-on-console-error.ts"], environment: "node" as const, testTimeout: 30_000, hookTimeout: 30_000 };

export default defineConfig({
  test: {
    // Two files at a time at least: the database tests spend much of their time waiting on PostgreSQL, on sockets and
    // on the processes they start, and Vitest's default on a two-core machine is one (cores − 1). Every file has its
    // own database (a SQLite file or a PostgreSQL schema) and listens on ports the system picks, so files never meet.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // .ci/run names a file for per-project counts, to fail when the PostgreSQL project did not run.
    reporters: process.env.VITEST_PROJECT_COUNTS ? ["default", "./tests/support/project-counts-reporter.ts"] : ["default"],
    projects: [
      { test: { ...shared, name: "unit", include: ["**/*.test.ts"], exclude: ["**/node_modules/**", "tests/e2e/**", ...databaseTests] } },
      { test: { ...shared, name: "sqlite", include: databaseTests, globalSetup: [migratedTemplate], env: { TEST_DB: "sqlite" } } },
      ...(process.env.TEST_DATABASE_URL
        ? [{ test: { ...shared, name: "postgres", include: databaseTests, globalSetup: [migratedTemplate], env: { TEST_DB: "postgres" } } }]
        : []),
    ],
  },
});
