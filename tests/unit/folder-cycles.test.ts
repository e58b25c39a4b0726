import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// No import cycles between folders (decision 018): with a cycle, neither folder can be understood or changed
// alone, which is what the layout is for. Type-only imports count too: they vanish from the compiled code, but a
// reader still has to read both folders to understand either, and a type cycle is how a value cycle begins.
const ROOT = path.resolve(import.meta.dirname, "../..");

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const child = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(child);
    else if (/\.tsx?$/.test(entry.name)) yield child;
  }
}

/** The folder a file belongs to, as the layout counts them. */
function unitOf(file: string): string {
  const parts = file.split("/");
  if (parts[0] === "server" && (parts[1] === "modules" || parts[1] === "platform")) {
    return parts[1] === "modules" ? `server/modules/${parts[2]}` : "server/platform";
  }
  if (parts[0] === "app" && parts[1] === "features") return `app/features/${parts[2]}`;
  if (parts[0] === "app" && parts[1] === "shared") return "app/shared";
  if (parts[0] === "app" && parts[1] === "pages") return "app/pages";
  if (parts[0] === "common") return parts.length > 2 ? `common/${parts[1]}` : "common";
  return parts[0] ?? file;
}

const ALIASES: Record<string, string> = { "#app/": "app/", "#server/": "server/", "#common/": "common/" };

/**
 * The project files `code` (the text of `file`) imports: import and export declarations, type-only or not
 * (`import type`, `import { type X }`, `export type … from`), `import("…")` calls and `import("…")` types. Read by
 * TypeScript's own import scanner (the one its language service uses), which skips strings and comments.
 */
function importsOf(file: string, code: string): string[] {
  const { importedFiles } = ts.preProcessFile(code, true, true);
  const targets: string[] = [];
  for (const { fileName: specifier } of importedFiles) {
    const alias = Object.keys(ALIASES).find((a) => specifier.startsWith(a));
    if (alias) targets.push(ALIASES[alias] + specifier.slice(alias.length));
    else if (specifier.startsWith(".")) targets.push(path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)));
  }
  return targets;
}

/** Which folder imports which, from the given files' texts. */
function folderGraph(files: Iterable<{ file: string; code: string }>): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const { file, code } of files) {
    const from = unitOf(file);
    for (const target of importsOf(file, code)) {
      const to = unitOf(target);
      if (to === from) continue;
      if (!graph.has(from)) graph.set(from, new Set());
      graph.get(from)!.add(to);
    }
  }
  return graph;
}

function* repositoryFiles() {
  for (const top of ["app", "server", "common"]) {
    for (const file of sourceFiles(top)) yield { file, code: readFileSync(path.join(ROOT, file), "utf8") };
  }
}

let repository: Map<string, Set<string>> | undefined;
/** The repository's folder graph, read once for the tests that look at it. */
const repositoryGraph = () => (repository ??= folderGraph(repositoryFiles()));

/** Every cycle found by a depth-first walk, as the folders along it. */
function cycles(graph: Map<string, Set<string>>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, "open");
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === "open") found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return found;
}

const described = (graph: Map<string, Set<string>>) => cycles(graph).map((cycle) => cycle.join(" → "));

describe("the folders of the layout", () => {
  it("import each other without cycles, type-only imports included", () => {
    expect(described(repositoryGraph())).toEqual([]);
  });

  it("are seen by the cycle check (a platform ← module edge exists, so the scan reads the imports)", () => {
    expect(repositoryGraph().get("server/modules/orders")?.has("server/platform")).toBe(true);
  });

  it("would report a cycle of value imports", () => {
    const graph = folderGraph([
      { file: "server/modules/a/a.ts", code: 'import { b } from "../b/index.ts";' },
      { file: "server/modules/b/b.ts", code: 'export { a } from "#server/modules/a/index.ts";' },
    ]);
    expect(described(graph)).toEqual(["server/modules/a → server/modules/b → server/modules/a"]);
  });

  it.each([
    ["import type", 'import type { B } from "../b/index.ts";'],
    ["an inline type import", 'import { type B } from "../b/index.ts";'],
    ["export type … from", 'export type { B } from "../b/index.ts";'],
    ["an import() type", 'let b: import("../b/index.ts").B;'],
    ["a dynamic import()", 'const b = () => import("../b/index.ts");'],
  ])("would report a cycle closed by %s", (_kind, code) => {
    const graph = folderGraph([
      { file: "server/modules/a/a.ts", code },
      { file: "server/modules/b/b.tsx", code: 'import type { A } from "#server/modules/a/index.ts";' },
    ]);
    expect(described(graph)).toEqual(["server/modules/a → server/modules/b → server/modules/a"]);
  });
});
