import { defineConfig } from "vitest/config";

// Unit tests run once; tests that need a database (*.db.test.ts) run on SQLite and, when
// TEST_DATABASE_URL is set, again on PostgreSQL (engineering guide, "Tests").
const databaseTests = ["server/**/*.db.test.ts", "tests/api/**/*.test.ts"];
const shared = { setupFiles: ["tests/support/fail-on-console-error.ts"], environment: "node" as const };

export default defineConfig({
  test: {
    projects: [
      { test: { ...shared, name: "unit", include: ["**/*.test.ts"], exclude: ["**/node_modules/**", "tests/e2e/**", ...databaseTests] } },
      { test: { ...shared, name: "sqlite", include: databaseTests, env: { TEST_DB: "sqlite" } } },
      ...(process.env.TEST_DATABASE_URL
        ? [{ test: { ...shared, name: "postgres", include: databaseTests, env: { TEST_DB: "postgres" } } }]
        : []),
    ],
  },
});
