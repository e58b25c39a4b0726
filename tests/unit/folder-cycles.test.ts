import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// No import cycles between folders (decision 018): with a cycle, neither folder can be understood or changed
// alone, which is what the layout is for. Type-only imports are left out: they vanish from the compiled code.
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

/** The project files a file imports as values (`import type` and `export type` left out). */
function valueImports(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  const targets: string[] = [];
  for (const match of text.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+"([^"]+)"/gms)) {
    const source = match[1]!;
    const alias = Object.keys(ALIASES).find((a) => source.startsWith(a));
    if (alias) targets.push(ALIASES[alias] + source.slice(alias.length));
    else if (source.startsWith(".")) targets.push(path.posix.normalize(path.posix.join(path.posix.dirname(file), source)));
  }
  return targets;
}

function folderGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const top of ["app", "server", "common"]) {
    for (const file of sourceFiles(top)) {
      const from = unitOf(file);
      for (const target of valueImports(file)) {
        const to = unitOf(target);
        if (to === from) continue;
        if (!graph.has(from)) graph.set(from, new Set());
        graph.get(from)!.add(to);
      }
    }
  }
  return graph;
}

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

describe("the folders of the layout", () => {
  it("import each other without cycles", () => {
    expect(cycles(folderGraph()).map((cycle) => cycle.join(" → "))).toEqual([]);
  });

  it("are seen by the cycle check (a platform ← module edge exists, so the scan reads the imports)", () => {
    expect(folderGraph().get("server/modules/orders")?.has("server/platform")).toBe(true);
  });

  it("would report a cycle", () => {
    const graph = new Map([
      ["server/modules/a", new Set(["server/modules/b"])],
      ["server/modules/b", new Set(["server/modules/a"])],
    ]);
    expect(cycles(graph)).toEqual([["server/modules/a", "server/modules/b", "server/modules/a"]]);
  });
});
