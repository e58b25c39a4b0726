// The production build: React Router's bundle of the pages (build/client, build/server/index.js), then the
// server process and the admin command compiled with esbuild (build/server/main.js, admin.js), so production
// runs plain JavaScript with `node` (docs/decisions/012). Plain JavaScript itself, so that `npm start` needs no
// TypeScript loader to decide whether to build.
//
//   node scripts/build.mjs             build
//   node scripts/build.mjs --if-stale  build only when build/ is missing or older than the sources
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const root = path.resolve(import.meta.dirname, "..");
const stampFile = path.join(root, "build", "source-hash");
/** Everything the build reads; tests are left out because no build includes them. */
const inputs = [
  "app",
  "server",
  "common",
  "public",
  "scripts/admin.ts",
  "scripts/backup.ts",
  "scripts/restore.ts",
  "scripts/move-media-to-s3.ts",
  "scripts/build.mjs",
  "package.json",
  "package-lock.json",
  "vite.config.ts",
  "react-router.config.ts",
  "tsconfig.json",
];
const outputs = ["build/client", "build/server/index.js", "build/server/main.js", "build/server/admin.js", "build/server/backup.js", "build/server/restore.js", "build/server/move-media-to-s3.js", "build/server/media-decoder.js"];

function* files(relative) {
  const full = path.join(root, relative);
  if (!existsSync(full)) return;
  if (!statSync(full).isDirectory()) {
    yield relative;
    return;
  }
  for (const entry of readdirSync(full, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const child = path.join(relative, entry.name);
    if (entry.isDirectory()) yield* files(child);
    else if (!/\.test\.tsx?$/.test(entry.name)) yield child;
  }
}

/** A hash of the sources' names and contents: unlike modification times it survives checkouts and copies. */
function sourceHash() {
  const hash = createHash("sha256");
  for (const input of inputs) {
    for (const file of files(input)) hash.update(`${file}\0`).update(readFileSync(path.join(root, file))).update("\0");
  }
  return hash.digest("hex");
}

/**
 * Writes a .br and a .gz beside every text file of the browser build, at the strongest settings, once: the server
 * sends them as they are to browsers that accept them (serveStatic's `precompressed`, docs/decisions/027).
 */
function precompress(dir) {
  const TEXT = /\.(js|mjs|css|html|svg|json|xml|txt|webmanifest|map)$/;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      precompress(file);
      continue;
    }
    if (!TEXT.test(entry.name)) continue;
    const body = readFileSync(file);
    // Below about 1 KB the encoded form saves less than it costs (the server's own threshold too).
    if (body.length < 1024) continue;
    const br = zlib.brotliCompressSync(body, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    });
    const gz = zlib.gzipSync(body, { level: 9 });
    if (br.length < body.length) writeFileSync(`${file}.br`, br);
    if (gz.length < body.length) writeFileSync(`${file}.gz`, gz);
  }
}

const hash = sourceHash();
if (process.argv.includes("--if-stale")) {
  const built = outputs.every((output) => existsSync(path.join(root, output)));
  const stamp = existsSync(stampFile) ? readFileSync(stampFile, "utf8").trim() : undefined;
  if (built && stamp === hash) process.exit(0);
  console.error(built ? "The sources changed since the last build: building." : "No build yet: building.");
}

const pages = spawnSync(path.join(root, "node_modules/.bin/react-router"), ["build"], { cwd: root, stdio: "inherit" });
if (pages.status !== 0) process.exit(pages.status ?? 1);

precompress(path.join(root, "build/client"));

// Loaded only now: deciding that nothing needs building stays quick.
const { build } = await import("esbuild");
await build({
  absWorkingDir: root,
  // The picture decoder runs in processes of its own, started by the server from this file beside main.js
  // (server/platform/media/decoder-pool.ts): a decode that runs too long is ended by killing its process.
  entryPoints: { main: "server/main.ts", admin: "scripts/admin.ts", backup: "scripts/backup.ts", restore: "scripts/restore.ts", "move-media-to-s3": "scripts/move-media-to-s3.ts", "media-decoder": "server/platform/media/decoder-process.ts" },
  outdir: "build/server",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  // node_modules stay where they are (native modules, sharp's binaries); only our own code is bundled.
  packages: "external",
  sourcemap: "linked",
  logLevel: "warning",
});
writeFileSync(stampFile, `${hash}\n`);
