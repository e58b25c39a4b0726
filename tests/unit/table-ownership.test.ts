import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// One owner per table (docs/architecture.md, "Tables and their owners"): a table belongs to the module (or platform
// folder) whose migrations create it, and only that folder's code reads or writes it, through Kysely or in SQL.
// Others ask the owner's service. A table used from two folders ties them together below their interfaces: a
// change to its columns or its rules (stock never below zero, the review totals kept in step) must then be made,
// and found, in both.
const ROOT = path.resolve(import.meta.dirname, "../..");

/** Kysely's own bookkeeping, created by its migrator, which the platform's database folder runs. */
const KYSELY_TABLES = { kysely_migration: "server/platform/db", kysely_migration_lock: "server/platform/db" };

/** The folder that owns what a file holds: a module, a platform folder, or (for anything else) no owner at all. */
function folderOf(file: string): string {
  const parts = file.split("/");
  if (parts[0] === "server" && parts[1] === "modules" && parts.length > 3) return parts.slice(0, 3).join("/");
  if (parts[0] === "server" && parts[1] === "platform") return parts.length > 3 ? parts.slice(0, 3).join("/") : "server/platform";
  return parts.length > 1 ? parts.slice(0, -1).join("/") : ".";
}

const isMigration = (file: string) => /^server\/(modules|platform)\/[^/]+\/migrations\/[^/]+\.ts$/.test(file) && !file.endsWith(".test.ts");

/** Kysely calls whose first argument (a string, or an array of them) names a table, perhaps `as` an alias. */
const TABLE_METHODS = new Set([
  "selectFrom", "insertInto", "replaceInto", "updateTable", "deleteFrom", "mergeInto", "using",
  "innerJoin", "leftJoin", "rightJoin", "fullJoin", "crossJoin", "innerJoinLateral", "leftJoinLateral", "crossJoinLateral",
  "selectAll", "createTable", "alterTable", "dropTable", "on", "table", "ref", "id",
]);
/** Kysely calls whose first argument names a common table expression: a name of the query's, never a table. */
const CTE_METHODS = new Set(["with", "withRecursive", "withMaterialized", "withNotMaterialized"]);
/** Calls that hand their argument to the database as SQL. */
const RAW_SQL_CALLS = new Set(["raw", "query", "exec", "prepare"]);
/** Written SQL (lower case, as this code writes it), not an English sentence that starts with 'Update'. */
const LOOKS_LIKE_SQL = /^\s*\(?\s*(select|insert|update|delete|create|drop|alter|with|replace|pragma)\s/;
/** Where written SQL names a table: after these words, `from a, b` lists included. */
const SQL_TABLE = /\b(from|join|into|update|table|exists|using|on)\s+((?:only\s+)?"?[a-z_][a-z0-9_]*"?(?:\s+(?:as\s+)?(?!where|on|join|set|group|order|limit|inner|left|cross|using|values|select|begin|for)[a-z_][a-z0-9_]*)?(?:\s*,\s*"?[a-z_][a-z0-9_]*"?(?:\s+(?:as\s+)?(?!where|on|join|set|group|order|limit|inner|left|cross|using|values|select)[a-z_][a-z0-9_]*)?)*)/gi;
const SQL_CTE = /(?:\bwith(?:\s+recursive)?|,)\s+"?([a-z_][a-z0-9_]*)"?\s+as\s+(?:not\s+)?(?:materialized\s+)?\(/gi;

interface Mention {
  table: string;
  line: number;
  /** Where in the file: a name given to a common table expression counts only inside its own statement. */
  at: number;
}

interface Scope {
  name: string;
  start: number;
  end: number;
}

interface Parsed {
  /** Tables this file creates (createTable, `create table`, `create virtual table`). */
  created: Mention[];
  /** Every table-like name this file reads, writes, joins, alters or indexes. */
  used: Mention[];
  /** Names this file gives common table expressions, each with the statement it holds for. */
  ctes: Scope[];
}

function lineOf(source: ts.SourceFile, position: number) {
  return source.getLineAndCharacterOfPosition(position).line + 1;
}

/** `products as p` → products; `p.name` → p. */
function tableOfReference(text: string): string {
  return text.trim().split(/\s+as\s+/i)[0]!.split(".")[0]!.replace(/"/g, "");
}

/** The tables a piece of SQL names, with their lines; the code is the text of one string or template literal. */
function scanSql(text: string, startLine: number, statement: { start: number; end: number }, into: Parsed) {
  const code = text.replace(/--[^\n]*/g, "").replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, " "));
  const lineAt = (index: number) => startLine + (code.slice(0, index).match(/\n/g)?.length ?? 0);
  for (const match of code.matchAll(SQL_CTE)) into.ctes.push({ name: match[1]!.toLowerCase(), ...statement });
  for (const match of code.matchAll(/\bcreate\s+(?:virtual\s+)?table\s+(?:if\s+not\s+exists\s+)?"?([a-z_][a-z0-9_]*)/gi)) {
    into.created.push({ table: match[1]!.toLowerCase(), line: lineAt(match.index), at: statement.start });
  }
  for (const match of code.matchAll(SQL_TABLE)) {
    for (const item of match[2]!.split(",")) {
      const table = item.trim().replace(/^only\s+/i, "").split(/\s+/)[0]!.replace(/"/g, "").toLowerCase();
      into.used.push({ table, line: lineAt(match.index), at: statement.start });
    }
  }
}

/** A string literal's value, or a same-file `const NAME = "…"`'s, for an argument written either way. */
function stringsOf(node: ts.Expression | undefined, constants: Map<string, string>): string[] {
  if (!node) return [];
  if (ts.isStringLiteralLike(node)) return [node.text];
  if (ts.isIdentifier(node) && constants.has(node.text)) return [constants.get(node.text)!];
  if (ts.isArrayLiteralExpression(node)) return node.elements.flatMap((e) => stringsOf(e as ts.Expression, constants));
  if (ts.isAsExpression(node) || ts.isParenthesizedExpression(node)) return stringsOf(node.expression, constants);
  return [];
}

/** What one source file creates and uses, read from its syntax tree (comments are not part of it). */
function parseFile(file: string, code: string): Parsed {
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const parsed: Parsed = { created: [], used: [], ctes: [] };
  /** The statement a node stands in (the outermost expression of a block), as a range of the file. */
  const statementOf = (node: ts.Node) => {
    let at = node;
    while (at.parent && !ts.isBlock(at.parent) && !ts.isSourceFile(at.parent) && !ts.isCaseClause(at.parent)) at = at.parent;
    return { start: at.getStart(source), end: at.getEnd() };
  };
  const constants = new Map<string, string>();
  const collectConstants = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      const init = ts.isAsExpression(node.initializer) ? node.initializer.expression : node.initializer;
      if (ts.isStringLiteralLike(init)) constants.set(node.name.text, init.text);
    }
    ts.forEachChild(node, collectConstants);
  };
  collectConstants(source);

  const isSqlTag = (node: ts.Node): boolean =>
    ts.isTaggedTemplateExpression(node) && ts.isIdentifier(node.tag) && node.tag.text === "sql";
  const calleeName = (call: ts.CallExpression) =>
    ts.isPropertyAccessExpression(call.expression) ? call.expression.name.text : ts.isIdentifier(call.expression) ? call.expression.text : undefined;
  /** Whether a literal is SQL by where it stands: in a sql`…` template, or handed to sql.raw(), query(), exec(), prepare(). */
  const inSqlPlace = (node: ts.Node): boolean => {
    for (let at: ts.Node | undefined = node.parent; at; at = at.parent) {
      if (isSqlTag(at)) return true;
      if (ts.isCallExpression(at)) return RAW_SQL_CALLS.has(calleeName(at) ?? "");
      if (ts.isBlock(at) || ts.isSourceFile(at)) return false;
    }
    return false;
  };

  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const name = calleeName(node);
      if (name && TABLE_METHODS.has(name)) {
        for (const text of stringsOf(node.arguments[0], constants)) {
          const table = tableOfReference(text);
          const at = node.arguments[0]!.getStart(source);
          parsed.used.push({ table, line: lineOf(source, at), at });
          if (name === "createTable") parsed.created.push({ table, line: lineOf(source, at), at });
        }
      }
      if (name && CTE_METHODS.has(name)) {
        for (const text of stringsOf(node.arguments[0], constants)) parsed.ctes.push({ name: text, ...statementOf(node) });
      }
    }
    if (ts.isIndexedAccessTypeNode(node) && ts.isTypeReferenceNode(node.objectType) && node.objectType.typeName.getText(source) === "DB") {
      if (ts.isLiteralTypeNode(node.indexType) && ts.isStringLiteral(node.indexType.literal)) {
        parsed.used.push({ table: node.indexType.literal.text, line: lineOf(source, node.getStart(source)), at: node.getStart(source) });
      }
    }
    const literal =
      ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node) ? node : undefined;
    if (literal) {
      // An untagged template is SQL when its first part reads like SQL; each part is scanned on its own lines.
      const template = ts.isTemplateHead(literal) ? literal.parent : ts.isTemplateMiddle(literal) || ts.isTemplateTail(literal) ? literal.parent.parent : undefined;
      const first = template && ts.isTemplateExpression(template) ? template.head.text : literal.text;
      if (inSqlPlace(literal) || LOOKS_LIKE_SQL.test(first)) {
        // A literal's text starts after its opening quote or backtick (or `}`), on the line where that stands.
        scanSql(literal.text, lineOf(source, literal.getStart(source)), statementOf(literal), parsed);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return parsed;
}

/** Each table's owner, from the migrations that create it; a table two folders create is reported. */
function ownersOf(migrations: { file: string; code: string }[]): { owners: Map<string, string>; conflicts: string[] } {
  const owners = new Map<string, string>(Object.entries(KYSELY_TABLES));
  const conflicts: string[] = [];
  for (const { file, code } of migrations) {
    for (const { table, line } of parseFile(file, code).created) {
      const owner = folderOf(file);
      const earlier = owners.get(table);
      if (earlier && earlier !== owner) conflicts.push(`${file}:${line} creates ${table}, already created by ${earlier}`);
      else owners.set(table, owner);
    }
  }
  return { owners, conflicts };
}

/** Every use of a table outside its owner's folder, as `file:line: <folder> uses <table>, owned by <owner>`. */
function violationsIn(file: string, code: string, owners: Map<string, string>): string[] {
  const { used, ctes } = parseFile(file, code);
  const folder = folderOf(file);
  const seen = new Set<string>();
  const found: string[] = [];
  for (const { table, line, at } of used) {
    const owner = owners.get(table);
    if (!owner || owner === folder || ctes.some((cte) => cte.name === table && cte.start <= at && at < cte.end)) continue;
    const report = `${file}:${line}: ${folder} uses ${table}, owned by ${owner}`;
    if (!seen.has(report)) found.push(report);
    seen.add(report);
  }
  return found;
}

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const child = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(child);
    else if (/\.(ts|mts|js|mjs)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) yield child;
  }
}

const read = (file: string) => ({ file, code: readFileSync(path.join(ROOT, file), "utf8") });
const production = [...sourceFiles("server"), ...sourceFiles("scripts")].map(read);
const { owners, conflicts } = ownersOf(production.filter(({ file }) => isMigration(file)));

describe("one owner per table", () => {
  it("finds each table's one owner in the migrations that create it", () => {
    expect(conflicts).toEqual([]);
    expect(Object.fromEntries(owners)).toMatchObject({
      categories: "server/modules/catalog",
      products: "server/modules/catalog",
      product_images: "server/modules/catalog",
      seed_runs: "server/modules/catalog",
      search_terms: "server/modules/catalog",
      product_cell_counts: "server/modules/catalog",
      product_price_band_counts: "server/modules/catalog",
      product_cell_count_changes: "server/modules/catalog",
      product_search: "server/modules/catalog",
      users: "server/modules/accounts",
      verifications: "server/modules/accounts",
      cart_items: "server/modules/cart",
      orders: "server/modules/orders",
      order_daily_totals: "server/modules/orders",
      reviews: "server/modules/reviews",
      contact_messages: "server/modules/contact",
      rate_limits: "server/platform/rate-limit",
      mail_outbox: "server/platform/mail",
    });
  });

  it("has no production file under server/ or scripts/ touch a table its folder does not own", () => {
    const lineOrder = (report: string) => report.replace(/:(\d+):/, (_, line: string) => `:${line.padStart(6, "0")}:`);
    const violations = production.flatMap(({ file, code }) => violationsIn(file, code, owners));
    expect(violations.sort((a, b) => lineOrder(a).localeCompare(lineOrder(b)))).toEqual([]);
    // Every production file parsed: a few seconds alone, more beside the other test files on two cores.
  }, 30_000);
});

describe("the ownership scanner, on planted sources", () => {
  const planted = (file: string, code: string) => violationsIn(file, code, owners);

  it("reports a Kysely read, an aliased join, a column reference and a table's type used outside the owner", () => {
    const code = [
      'import type { DB } from "../../platform/db/schema.ts";',
      "export async function prices(db: Kysely<DB>, ids: string[]) {",
      '  await db.selectFrom("products").select("id").execute();',
      '  await db.selectFrom("cart_items as c")',
      '    .innerJoin("product_images as i", "i.product_id", "c.product_id")',
      '    .select(sql.ref("categories.name").as("n"))',
      "    .execute();",
      "}",
      'type Row = Selectable<DB["users"]>;',
    ].join("\n");
    expect(planted("server/modules/cart/planted.ts", code)).toEqual([
      "server/modules/cart/planted.ts:3: server/modules/cart uses products, owned by server/modules/catalog",
      "server/modules/cart/planted.ts:5: server/modules/cart uses product_images, owned by server/modules/catalog",
      "server/modules/cart/planted.ts:6: server/modules/cart uses categories, owned by server/modules/catalog",
      "server/modules/cart/planted.ts:9: server/modules/cart uses users, owned by server/modules/accounts",
    ]);
  });

  it("reports tables named in written SQL, across the lines of a template, in a fragment and in a comma-separated from", () => {
    const code = [
      "export async function take(db: Kysely<DB>, id: string) {",
      "  await sql`update products set stock = stock - 1 where id = ${id}`.execute(db);",
      "  await sql`",
      "    select c.id",
      "    from cart_items c",
      "      join",
      "        product_images i on i.product_id = c.product_id",
      "    where c.user_id = ${id}`.execute(db);",
      '  await sql.raw("delete from reviews where user_id is null").execute(db);',
      "  await sql`select 1 from cart_items c, orders o where o.user_id = c.user_id`.execute(db);",
      '  await db.selectFrom("cart_items").where(sql<boolean>`quantity > (select count(*) from order_lines l)`).execute();',
      "}",
    ].join("\n");
    expect(planted("server/modules/cart/planted.ts", code)).toEqual([
      "server/modules/cart/planted.ts:2: server/modules/cart uses products, owned by server/modules/catalog",
      "server/modules/cart/planted.ts:6: server/modules/cart uses product_images, owned by server/modules/catalog",
      "server/modules/cart/planted.ts:9: server/modules/cart uses reviews, owned by server/modules/reviews",
      "server/modules/cart/planted.ts:10: server/modules/cart uses orders, owned by server/modules/orders",
      "server/modules/cart/planted.ts:11: server/modules/cart uses order_lines, owned by server/modules/orders",
    ]);
  });

  it("reports a migration that alters or indexes another owner's table, and a composition file or script that uses one", () => {
    const migration = [
      "export function plantedMigration() {",
      "  return {",
      "    async up(db: Kysely<unknown>) {",
      '      await db.schema.alterTable("products").addColumn("in_carts", "integer").execute();',
      "      await sql`create index products_in_carts on products (in_carts)`.execute(db);",
      "    },",
      "  };",
      "}",
    ].join("\n");
    expect(planted("server/modules/cart/migrations/0099-planted.ts", migration)).toEqual([
      "server/modules/cart/migrations/0099-planted.ts:4: server/modules/cart uses products, owned by server/modules/catalog",
      "server/modules/cart/migrations/0099-planted.ts:5: server/modules/cart uses products, owned by server/modules/catalog",
    ]);
    expect(planted("server/planted.ts", 'await db.deleteFrom("sessions").execute();')).toEqual([
      "server/planted.ts:1: server uses sessions, owned by server/modules/accounts",
    ]);
    expect(planted("scripts/planted.ts", 'await db.insertInto("rate_limits").values(row).execute();')).toEqual([
      "scripts/planted.ts:1: scripts uses rate_limits, owned by server/platform/rate-limit",
    ]);
  });

  it("reports nothing for an owner using its own tables, nor for comments and English text", () => {
    const code = [
      "// Reads from products? No: select from cart_items only, and update orders never.",
      "/* delete from reviews */",
      'const REMOVED = "Removed from orders and products you saved.";',
      'const HINT = "Update products in the admin pages; select a category first.";',
      "export async function lines(db: Kysely<DB>, userId: string) {",
      '  await db.selectFrom("cart_items as c").select(sql.ref("c.quantity").as("q")).where("c.user_id", "=", userId).execute();',
      "  return [REMOVED, HINT];",
      "}",
    ].join("\n");
    expect(planted("server/modules/cart/planted.ts", code)).toEqual([]);
  });

  it("takes the name of a common table expression for that query's own, and only in its own statement", () => {
    const code = [
      "export async function lines(db: Kysely<DB>, userId: string) {",
      '  await db.with("products", (q) => q.selectFrom("cart_items").select("product_id")).selectFrom("products").selectAll().execute();',
      "  await sql`with orders as (select * from cart_items) select * from orders where user_id = ${userId}`.execute(db);",
      '  await db.selectFrom("products").selectAll().execute();',
      "}",
    ].join("\n");
    expect(planted("server/modules/cart/planted.ts", code)).toEqual([
      "server/modules/cart/planted.ts:4: server/modules/cart uses products, owned by server/modules/catalog",
    ]);
  });
});
