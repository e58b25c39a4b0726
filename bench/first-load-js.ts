import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

// What a first visit to each page downloads before it can run: the JavaScript React Router's <Scripts/>
// preloads (the client entry and, for the root and the page's route, the route module and every module it
// imports statically; the route manifest file too unless route discovery is lazy, React Router's default,
// which inlines the page's part of the manifest in the HTML instead) and the root's stylesheet. Read from the production
// build, so it needs `npm run build` first: `npx tsx bench/first-load-js.ts`. Modules a page imports with
// `import()` (the carousel engine, the toast library, zod) are not counted: they load after the first paint.
// Sizes are gzip at zlib's default level, what a server compressing on the fly would send.

const CLIENT = path.resolve("build/client");
const SERVER_BUILD = path.resolve("build/server/index.js");

/** The pages with a budget (≤ 125 kB gzip of JavaScript each, docs/decisions/028), by React Router route id. */
export const BUDGETED_PAGES = [
  { page: "home", route: "pages/home" },
  { page: "shop", route: "pages/shop" },
  { page: "product", route: "pages/product" },
  { page: "category", route: "pages/category" },
  { page: "cart", route: "pages/cart" },
] as const;

interface RouteEntry {
  module: string;
  imports?: string[];
  css?: string[];
}
interface RouteManifest {
  url?: string;
  entry: RouteEntry;
  routes: Record<string, RouteEntry & { parentId?: string }>;
}

export interface PageLoad {
  page: string;
  files: { url: string; kind: "js" | "css"; bytes: number; gzip: number }[];
  jsGzip: number;
  cssGzip: number;
}

function readManifest(): { manifest: RouteManifest; url: string } {
  const assets = path.join(CLIENT, "assets");
  const file = readdirSync(assets).find((name) => /^manifest-[\w-]+\.js$/.test(name));
  if (!file) throw new Error("No React Router manifest in build/client/assets: run `npm run build` first.");
  const source = readFileSync(path.join(assets, file), "utf8");
  const json = source.slice(source.indexOf("=") + 1).replace(/;\s*$/, "");
  return { manifest: JSON.parse(json) as RouteManifest, url: `/assets/${file}` };
}

/** Static imports of a built module (`import{a}from"./x.js"`, `import"./x.js"`), as /assets/ URLs; not `import()`. */
function staticImports(url: string): string[] {
  const source = readFileSync(path.join(CLIENT, url), "utf8");
  const found: string[] = [];
  for (const match of source.matchAll(/(?:\bfrom\s*|\bimport\s*)["'](\.{1,2}\/[^"']+)["']/g)) {
    found.push(path.posix.join(path.posix.dirname(url), match[1]!));
  }
  return found;
}

/** Stylesheets the root links (imported with `?url`, so not in the route manifest), and whether discovery is lazy. */
function serverBuildFacts(): { stylesheets: string[]; lazyDiscovery: boolean } {
  const server = readFileSync(SERVER_BUILD, "utf8");
  return {
    stylesheets: [...new Set(server.match(/"\/assets\/[^"]+\.css"/g) ?? [])].map((quoted) => quoted.slice(1, -1)),
    lazyDiscovery: /var routeDiscovery = \{\s*"mode": "lazy"/.test(server),
  };
}

function measure(url: string) {
  const bytes = readFileSync(path.join(CLIENT, url));
  return { bytes: bytes.length, gzip: gzipSync(bytes).length };
}

export function firstLoads(): PageLoad[] {
  const { manifest, url: manifestUrl } = readManifest();
  const { stylesheets, lazyDiscovery } = serverBuildFacts();
  return BUDGETED_PAGES.map(({ page, route }) => {
    const chain: RouteEntry[] = [];
    for (let id: string | undefined = route; id; id = manifest.routes[id]?.parentId) {
      const entry = manifest.routes[id];
      if (!entry) throw new Error(`Route ${id} is not in the build's manifest.`);
      chain.unshift(entry);
    }
    const js = new Set<string>(lazyDiscovery ? [] : [manifestUrl]);
    const queue = [manifest.entry, ...chain].flatMap((entry) => [entry.module, ...(entry.imports ?? [])]);
    // The manifest lists each route's imports already; following them again catches any it left out.
    while (queue.length) {
      const next = queue.shift()!;
      if (js.has(next)) continue;
      js.add(next);
      queue.push(...staticImports(next));
    }
    const css = new Set<string>([...stylesheets, ...chain.flatMap((entry) => entry.css ?? [])]);
    const files = [
      ...[...css].map((url) => ({ url, kind: "css" as const, ...measure(url) })),
      ...[...js].map((url) => ({ url, kind: "js" as const, ...measure(url) })),
    ];
    const sum = (kind: "js" | "css") => files.filter((f) => f.kind === kind).reduce((total, f) => total + f.gzip, 0);
    return { page, files, jsGzip: sum("js"), cssGzip: sum("css") };
  });
}

const kB = (bytes: number) => (bytes / 1000).toFixed(1);

export function printFirstLoads(loads = firstLoads(), { verbose = false } = {}) {
  console.log("\nFirst-load JavaScript and CSS per page (gzip, from build/client; goal ≤ 125 kB JS gzip)");
  console.log("page          js files   js gzip kB   css gzip kB");
  for (const load of loads) {
    const jsFiles = load.files.filter((f) => f.kind === "js").length;
    console.log(
      [load.page.padEnd(12), String(jsFiles).padStart(9), kB(load.jsGzip).padStart(12), kB(load.cssGzip).padStart(13)].join(" "),
    );
    if (verbose) {
      for (const file of [...load.files].sort((a, b) => b.gzip - a.gzip)) {
        console.log(`    ${file.url.padEnd(48)} ${kB(file.bytes).padStart(7)} kB raw ${kB(file.gzip).padStart(6)} kB gzip`);
      }
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  printFirstLoads(firstLoads(), { verbose: !process.argv.includes("--quiet") });
}
