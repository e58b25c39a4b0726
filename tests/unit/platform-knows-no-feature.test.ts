import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// The platform keeps mechanisms (the change feed, the caches, body limits) and the modules say what their features
// need of them (decision 018). A platform file that imports a feature, or names a feature's page or API route, has
// taken a feature's rule back into the platform: the feature can no longer be changed alone.
const ROOT = path.resolve(import.meta.dirname, "../..");
const PLATFORM = "server/platform";

/** The features' words, singular and plural, as they appear in the shop's routes. */
const FEATURE_WORDS = "products?|categor(?:y|ies)|profiles?|orders?|carts?|checkout|reviews?|contact|admin|account|wishlist";
/** A route of a feature: the word right after a slash, as a path segment (`/product/…`, `/api/products`, `/cart`). */
const FEATURE_ROUTE = new RegExp(`/(?:${FEATURE_WORDS})(?![a-z0-9_-])`, "i");
/** Where the features live: the server's modules and the browser's feature folders. */
const FEATURE_FOLDERS = /(?:^|\/)(?:server\/modules|app\/features)(?:\/|$)/;

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const child = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(child);
    else if (/\.tsx?$/.test(entry.name)) yield child;
  }
}

/** Where a file's imports point (static, type-only, re-exports and dynamic `import()`), resolved against the repository. */
function importTargets(file: string, source: ts.SourceFile): string[] {
  const specifiers: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
      specifiers.push(node.arguments[0].text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      specifiers.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers.map((specifier) => {
    if (specifier.startsWith("#server/")) return `server/${specifier.slice("#server/".length)}`;
    if (specifier.startsWith("#app/")) return `app/${specifier.slice("#app/".length)}`;
    if (specifier.startsWith(".")) return path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
    return specifier;
  });
}

/** The text of every string, template and regular-expression literal (a regex's `\/` read as `/`). */
function literals(source: ts.SourceFile): { text: string; line: number }[] {
  const found: { text: string; line: number }[] = [];
  const visit = (node: ts.Node) => {
    let text: string | undefined;
    if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) text = node.text;
    else if (ts.isRegularExpressionLiteral(node)) text = node.text.replace(/\\\//g, "/");
    if (text !== undefined) found.push({ text, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1 });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * What in `code` (as the file `file`) ties the platform to a feature: imports of a feature's folder, and, outside
 * tests (which may exercise a mechanism with realistic data), literals naming a feature's route.
 */
function featureMentions(file: string, code: string): string[] {
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found = importTargets(file, source)
    .filter((target) => FEATURE_FOLDERS.test(target))
    .map((target) => `${file} imports ${target}`);
  if (!/\.test\.tsx?$/.test(file)) {
    for (const { text, line } of literals(source)) {
      if (FEATURE_ROUTE.test(text)) found.push(`${file}:${line} names a feature's route: ${JSON.stringify(text)}`);
    }
  }
  return found;
}

describe("the platform names no feature", () => {
  it("finds no file under server/platform that imports a feature's folder or names a feature's route", () => {
    const found = [...sourceFiles(PLATFORM)].flatMap((file) => featureMentions(file, readFileSync(path.join(ROOT, file), "utf8")));
    expect(found).toEqual([]);
  });

  it("catches a planted page rule for a feature's route, as a regular expression or as a string", () => {
    const planted = 'const PRODUCT_PAGE = /^\\/product\\/([^/]+?)(?:\\.data)?$/;\nexport const api = "/api/products/";\nexport const home = `/profile/${"asha"}`;\n';
    expect(featureMentions("server/platform/http/planted.ts", planted)).toEqual([
      'server/platform/http/planted.ts:1 names a feature\'s route: "/^/product/([^/]+?)(?:\\\\.data)?$/"',
      'server/platform/http/planted.ts:2 names a feature\'s route: "/api/products/"',
      'server/platform/http/planted.ts:3 names a feature\'s route: "/profile/"',
    ]);
  });

  it("catches a planted import of a module, type-only, through the alias or dynamic", () => {
    const planted = [
      'import { seoFiles } from "../../modules/catalog/index.ts";',
      'import type { ProductAspect } from "#server/modules/catalog/index.ts";',
      'export const later = () => import("../../modules/accounts/index.ts");',
      "export { seoFiles };",
      "export type A = ProductAspect;",
    ].join("\n");
    expect(featureMentions("server/platform/http/planted.ts", planted)).toEqual([
      "server/platform/http/planted.ts imports server/modules/catalog/index.ts",
      "server/platform/http/planted.ts imports server/modules/catalog/index.ts",
      "server/platform/http/planted.ts imports server/modules/accounts/index.ts",
    ]);
  });

  it("leaves a platform mechanism that names no feature alone", () => {
    const clean = 'import { scopeKey } from "./cache-rules.ts";\nexport const key = scopeKey("thing", "1");\nexport const uploads = "/api/uploads/";\n';
    expect(featureMentions("server/platform/http/clean.ts", clean)).toEqual([]);
  });
});
