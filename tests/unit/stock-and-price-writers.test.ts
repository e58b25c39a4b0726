import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// A product's stock and price change in one file, the catalog's inventory.ts (docs/architecture.md, "One owner per
// table"): the checkout's guarded take, a cancellation's put-back, the owner's edits and the seed all go through it,
// so a rule about stock (never below zero, never above what an order took back) has one place to live. The table
// ownership test keeps other modules off the products table; this one keeps the rest of the catalog off these two
// columns.
const ROOT = path.resolve(import.meta.dirname, "../..");
const THE_ONE_PLACE = "server/modules/catalog/inventory.ts";
const COLUMNS = /\b(stock|price_paise)\b/;

function* productionFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const child = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "migrations") yield* productionFiles(child);
    } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) yield child;
  }
}

/** The whole method chain a call sits in: `db.updateTable("products").set(…).where(…)` from its `updateTable(…)`. */
function wholeChain(node: ts.Node): ts.Node {
  let top = node;
  while (ts.isPropertyAccessExpression(top.parent) || (ts.isCallExpression(top.parent) && top.parent.expression === top)) top = top.parent;
  return top;
}

/** The arguments of every `.set(…)` and `.values(…)` in a chain. */
function writtenValues(chain: ts.Node): ts.Expression[] {
  const found: ts.Expression[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && ["set", "values"].includes(node.expression.name.text)) {
      found.push(...node.arguments);
    }
    ts.forEachChild(node, visit);
  };
  visit(chain);
  return found;
}

/** Writes of products' stock or price in `code`, or writes of products whose values this cannot read, as `file:line why`. */
export function stockOrPriceWrites(file: string, code: string): string[] {
  if (file === THE_ONE_PLACE) return [];
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const report = (node: ts.Node, why: string) => found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${why}`);
  const visit = (node: ts.Node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      ["updateTable", "insertInto", "mergeInto"].includes(node.expression.name.text) &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0]) &&
      /^products(\s+as\s+\w+)?$/.test(node.arguments[0].text)
    ) {
      const chain = wholeChain(node);
      const values = writtenValues(chain);
      if (values.some((value) => COLUMNS.test(value.getText(source)))) report(node, "writes stock or price_paise");
      else if (values.some((value) => ts.isIdentifier(value) || ts.isCallExpression(value) || ts.isPropertyAccessExpression(value))) {
        report(node, "writes products with values read elsewhere, which may hold stock or price_paise");
      }
    }
    if ((ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node) || ts.isStringLiteral(node)) && /\b(update|insert\s+into)\s+"?products"?\b/i.test(node.getText(source))) {
      if (COLUMNS.test(node.getText(source))) report(node, "writes stock or price_paise in SQL");
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("a product's stock and price", () => {
  it(`are written by no production file under server/ or scripts/ but ${THE_ONE_PLACE}`, () => {
    const writes = [...productionFiles("server"), ...productionFiles("scripts")].flatMap((file) =>
      stockOrPriceWrites(file, readFileSync(path.join(ROOT, file), "utf8")),
    );
    expect(writes).toEqual([]);
  });
});

describe("the stock and price scan, on planted sources", () => {
  const planted = "server/modules/catalog/planted.ts";

  it("reports a Kysely update of stock, an insert with a price and an update whose values it cannot read", () => {
    const code = [
      'await trx.updateTable("products").set({ stock: sql`stock - ${n}` }).where("id", "=", id).execute();',
      'await trx.insertInto("products").values({ id, name, price_paise: 100 }).execute();',
      'await trx.updateTable("products as p").set(fields).where("p.id", "=", id).execute();',
    ].join("\n");
    expect(stockOrPriceWrites(planted, code)).toEqual([
      `${planted}:1 writes stock or price_paise`,
      `${planted}:2 writes stock or price_paise`,
      `${planted}:3 writes products with values read elsewhere, which may hold stock or price_paise`,
    ]);
  });

  it("reports written SQL that sets the stock or the price, over several lines", () => {
    const code = "await sql`\n  update products\n  set price_paise = ${price}\n  where id = ${id}`.execute(db);";
    expect(stockOrPriceWrites(planted, code)).toEqual([`${planted}:1 writes stock or price_paise in SQL`]);
  });

  it("leaves alone other columns of products, reads of the stock, and the one place itself", () => {
    const otherColumns = [
      'await trx.updateTable("products").set((eb) => ({ rating_total: eb("rating_total", "+", 1) })).where("id", "=", id).execute();',
      'await db.selectFrom("products").select(["stock", "price_paise"]).execute();',
      'await trx.updateTable("categories").set({ name }).execute();',
    ].join("\n");
    expect(stockOrPriceWrites(planted, otherColumns)).toEqual([]);
    expect(stockOrPriceWrites(THE_ONE_PLACE, 'await trx.updateTable("products").set({ stock: 1 }).execute();')).toEqual([]);
  });
});
