import js from "@eslint/js";
import tseslint from "typescript-eslint";

// Routes and API handlers call services, never the database (engineering guide, "Routes never touch the database").
const databaseImports = {
  patterns: [
    {
      group: ["**/db/*", "**/db", "#server/db/*", "kysely", "better-sqlite3", "pg"],
      message: "Screens and API handlers go through a service in server/services, never to the database directly.",
    },
  ],
};

export default tseslint.config(
  { ignores: ["build/", "node_modules/", ".react-router/", "test-results/", "playwright-report/", "data/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly" } },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-console": ["error", { allow: ["error", "warn"] }],
    },
  },
  {
    files: ["app/**/*.{ts,tsx}", "server/api/**/*.ts", "server/http/**/*.ts"],
    rules: { "no-restricted-imports": ["error", databaseImports] },
  },
  {
    files: ["bench/**", "scripts/**", "tests/**"],
    rules: { "no-console": "off" },
  },
  // Playwright reads a fixture's dependencies from its first parameter, which must be a destructuring pattern.
  { files: ["tests/e2e/**"], rules: { "no-empty-pattern": "off" } },
);
