import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import js from "@eslint/js";
import tseslint from "typescript-eslint";

// The import rules of the layout (docs/architecture.md, decision 018). ESLint's own no-restricted-imports matches
// the import as written, so each rule lists the spellings that reach a folder: relative and `#…` aliases. A `group`
// is gitignore syntax, where a leading # starts a comment: the aliases are matched with `regex`.

// Routes and API handlers call services, never the database, so every rule lives in a service (docs/architecture.md).
const databaseImports = [
  {
    group: ["**/db/*", "**/db", "kysely", "better-sqlite3", "pg"],
    message: "Screens and API handlers go through a module's service, never to the database directly.",
  },
];

// A module is reached only through its index.ts. The names come from the folder, so a new module is covered.
const moduleNames = readdirSync(new URL("./server/modules", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const notThroughIndex = "/(?!index\\.ts$)";
const otherModuleInternals = [
  {
    // `../cart/cart.ts` from a module's root, `../../cart/cart.ts` from a folder inside it, `…/modules/cart/…`.
    regex: `^(\\.\\./)+(${moduleNames.join("|")})${notThroughIndex}|(^|/)modules/[^/]+${notThroughIndex}`,
    message: "Another module is reached only through its index.ts.",
  },
];
const moduleInternalsFromOutside = [
  { regex: `(^|/)modules/[^/]+${notThroughIndex}`, message: "A module is reached only through its index.ts." },
];

// The platform is what modules stand on; it knows none of them, nor the application composed of them (its
// services, config, composition root): it imports the platform, common/shared and packages, nothing else. Which
// folder a relative import reaches depends on the importing file's depth, which no-restricted-imports cannot see, so
// this rule resolves each import against the file. A platform test may also use the tests' own helpers.
const projectRoot = path.dirname(fileURLToPath(import.meta.url));
const ALIASES = { "#app/": "app/", "#server/": "server/", "#common/": "common/" };

/**
 * The project folder an import of `file` reaches (aliases and relative paths resolved against the importing file,
 * with forward slashes), or undefined for a package (or node:…). no-restricted-imports cannot tell which folder
 * `../../x` reaches from a given depth; the boundary rules below need exactly that.
 */
function importTarget(file, spec) {
  const alias = Object.keys(ALIASES).find((prefix) => spec.startsWith(prefix));
  let target;
  if (alias) target = ALIASES[alias] + spec.slice(alias.length);
  else if (spec.startsWith(".")) target = path.relative(projectRoot, path.resolve(projectRoot, path.dirname(file), spec));
  else if (spec.startsWith("/")) target = path.relative(projectRoot, spec);
  else return undefined;
  return target.split(path.sep).join("/");
}

/** The visitors that hand `check` every import of a file: static, re-exported and dynamic. */
function everyImport(check) {
  const visit = (node) => {
    if (node.source && typeof node.source.value === "string") check(node.source);
  };
  return { ImportDeclaration: visit, ExportNamedDeclaration: visit, ExportAllDeclaration: visit, ImportExpression: visit };
}

const platformReach = {
  meta: { type: "problem", schema: [], messages: { outside: "server/platform imports only server/platform, common/shared and packages, not {{target}}." } },
  create(context) {
    const file = path.relative(projectRoot, context.filename).split(path.sep).join("/");
    const allowed = ["server/platform/", "common/shared/", ...(/\.test\.ts$/.test(file) ? ["tests/support/"] : [])];
    return everyImport((source) => {
      const target = importTarget(file, source.value);
      if (target !== undefined && !allowed.some((folder) => target.startsWith(folder))) context.report({ node: source, messageId: "outside", data: { target } });
    });
  },
};

// A feature's screens and components stand alone: one feature never imports another, nor the pages composed of
// them. A page that shows several features (the home page, the product page with its reviews, the admin shell)
// lives in app/pages and takes each feature's components from there; what several features draw with lives in
// app/shared. Without this, a feature that adds to another's page (a heart on a product card) makes a folder cycle.
const featureReach = {
  meta: { type: "problem", schema: [], messages: { outside: "app/features/{{feature}} imports neither another feature nor app/pages ({{target}}): compose them in app/pages." } },
  create(context) {
    const file = path.relative(projectRoot, context.filename).split(path.sep).join("/");
    const feature = /^app\/features\/([^/]+)\//.exec(file)?.[1];
    if (!feature) return {};
    return everyImport((source) => {
      const target = importTarget(file, source.value);
      if (target === undefined) return;
      const other = /^app\/features\/([^/]+)/.exec(target)?.[1];
      if ((other !== undefined && other !== feature) || target === "app/pages" || target.startsWith("app/pages/")) {
        context.report({ node: source, messageId: "outside", data: { feature, target } });
      }
    });
  },
};

// Schemas, types and messages shared by the browser and the server depend on neither.
const commonImports = [
  {
    regex: "(^|/)(app|server)/|^#(app|server)/",
    message: "common/ imports nothing from app/ or server/.",
  },
];

// Pages reach server code only for its types: a value import would pull server code into the browser bundle.
const serverValueImports = [
  {
    regex: "(^|/)server/|^#server/",
    allowTypeImports: true,
    message: "app/ imports server code only as types (import type …).",
  },
];

const restrict = (...groups) => ["error", { patterns: groups.flat() }];

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
      // Hono's c.var is a getter that copies every variable of the request into a new object on each read.
      "no-restricted-syntax": ["error", { selector: "MemberExpression[property.name='var'][object.type='Identifier']", message: "Read a Hono variable with c.get(name): c.var copies them all into a new object on every read." }],
    },
  },
  // Each block below sets no-restricted-imports for its files in full (a later block replaces an earlier one).
  {
    files: ["app/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": restrict(databaseImports),
      "@typescript-eslint/no-restricted-imports": restrict(serverValueImports),
    },
  },
  {
    files: ["app/features/**/*.{ts,tsx}"],
    plugins: { "plant-shop-app": { rules: { "feature-reach": featureReach } } },
    rules: { "plant-shop-app/feature-reach": "error" },
  },
  { files: ["common/**/*.ts"], rules: { "no-restricted-imports": restrict(commonImports) } },
  {
    files: ["server/platform/**/*.ts"],
    plugins: { "plant-shop": { rules: { "platform-reach": platformReach } } },
    rules: { "plant-shop/platform-reach": "error" },
  },
  { files: ["server/platform/http/**/*.ts"], rules: { "no-restricted-imports": restrict(databaseImports) } },
  { files: ["server/modules/**/*.ts"], rules: { "no-restricted-imports": restrict(otherModuleInternals) } },
  // JSON API handlers are named *-api.ts (and auth-handler.ts, which hands /api/auth to Better Auth).
  {
    files: ["server/modules/**/*-api.ts", "server/modules/**/auth-handler.ts"],
    rules: { "no-restricted-imports": restrict(otherModuleInternals, databaseImports) },
  },
  {
    files: ["server/*.ts", "scripts/**", "bench/**", "tests/**"],
    rules: { "no-restricted-imports": restrict(moduleInternalsFromOutside) },
  },
  {
    files: ["bench/**", "scripts/**", "tests/**"],
    rules: { "no-console": "off" },
  },
  // Playwright reads a fixture's dependencies from its first parameter, which must be a destructuring pattern.
  { files: ["tests/e2e/**"], rules: { "no-empty-pattern": "off" } },
);
