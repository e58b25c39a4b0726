import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { openDatabase } from "../server/platform/db/client.ts";
import { createPostgresDatabase, insertShoppers, startShopProcess, stopShopProcess, waitUntilHealthy} from "../tests/support/shop-process.ts";
import { BLUR_TEXT_SVG, LONG_LINES_SVG, MORPHOLOGY_SVG, NESTED_USE_SVG } from "../tests/support/costly-drawings.ts";
import { innermostPid, residentMb, treeCpuMs } from "./proc.ts";

// Abusive requests against a production server (docs/decisions/013), each case on a fresh server so that its peak memory
// is its own. For each case it prints how long the abusive requests took, the CPU the server and its picture
// decoder processes spent meanwhile (from /proc), the worst latency of a probe that asks for a static file every
// 20 ms meanwhile (the event loop and libuv's thread pool both delay it), and the
// server's resident memory before the case and at its peak (the kernel's VmHWM). Nothing here asserts a speed.
//   npx tsx bench/abuse.ts            (needs PostgreSQL on 127.0.0.1:5432; builds the pages when missing)
//   BENCH_ONLY=SVG npx tsx bench/abuse.ts   only the cases whose name holds the text
//   BENCH_CAP_SECONDS=60 (default)         how long an upload may wait for its answer (0 when it did not come)
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const PORT = Number(process.env.BENCH_PORT ?? 4440);
const FORM_BYTES = 10_900_000;
const PROBE_EVERY_MS = 20;
const UPLOAD_CAP_MS = Number(process.env.BENCH_CAP_SECONDS ?? 60) * 1000;


interface Case {
  name: string;
  /** Sends the abusive requests; answers their statuses. */
  run(url: string, cookie: string, userId: string): Promise<number[]>;
}

const loginForm = (url: string) =>
  fetch(`${url}/login`, {
    method: "POST",
    headers: { Origin: url, "Content-Type": "application/x-www-form-urlencoded" },
    body: `email=${"a".repeat(FORM_BYTES)}&password=x`,
  }).then(async (r) => (await r.arrayBuffer(), r.status), () => 0);

const svgUpload = (url: string, cookie: string, userId: string, drawing = NESTED_USE_SVG) => {
  const form = new FormData();
  form.set("image", new File([drawing], "drawing.svg", { type: "image/svg+xml" }));
  // Bounded: a server that cannot stop a decode (before decision 034) may take minutes; 0 is "no answer in time".
  const signal = AbortSignal.timeout(UPLOAD_CAP_MS);
  return fetch(`${url}/api/profiles/${userId}/picture`, { method: "POST", headers: { Origin: url, Cookie: cookie }, body: form, signal }).then(
    async (r) => (await r.arrayBuffer(), r.status),
    () => 0,
  );
};

const CASES: Case[] = [
  { name: "one 10.9 MB urlencoded POST /login", run: async (url) => [await loginForm(url)] },
  { name: "four 10.9 MB urlencoded POST /login at once", run: (url) => Promise.all([1, 2, 3, 4].map(() => loginForm(url))) },
  { name: `one ${NESTED_USE_SVG.length} B nested-<use> SVG upload`, run: async (url, cookie, userId) => [await svgUpload(url, cookie, userId)] },
  { name: "eight nested-<use> SVG uploads at once", run: (url, cookie, userId) => Promise.all(Array.from({ length: 8 }, () => svgUpload(url, cookie, userId))) },
  { name: `one ${MORPHOLOGY_SVG.length} B feMorphology SVG upload`, run: async (url, cookie, userId) => [await svgUpload(url, cookie, userId, MORPHOLOGY_SVG)] },
  { name: `one ${BLUR_TEXT_SVG.length} B blur-text SVG upload`, run: async (url, cookie, userId) => [await svgUpload(url, cookie, userId, BLUR_TEXT_SVG)] },
  { name: `one ${Math.round(LONG_LINES_SVG.length / 1000)} KB 30,000-line path SVG upload`, run: async (url, cookie, userId) => [await svgUpload(url, cookie, userId, LONG_LINES_SVG)] },
  { name: "four 30,000-line path SVG uploads at once", run: (url, cookie, userId) => Promise.all(Array.from({ length: 4 }, () => svgUpload(url, cookie, userId, LONG_LINES_SVG))) },
];

async function measure(abuse: Case) {
  const database = await createPostgresDatabase(ADMIN_URL, "plant_shop_abuse");
  const shop = startShopProcess({ port: PORT, databaseUrl: database.url });
  try {
    await waitUntilHealthy(shop);
    const db = openDatabase({ databaseUrl: database.url });
    const [shopper] = await insertShoppers(db.db, 1, { password: "monstera-deliciosa-77", prefix: "abuse" });
    await db.destroy();
    // The node process serving (tsx would run the server in a child of its own).
    const pid = innermostPid(shop.child.pid!);
    // Warm up: the pages and the static files once, so that first-use costs are not counted.
    for (const p of ["/login", "/illustrations/favicon.svg", "/"]) await (await fetch(`${shop.url}${p}`)).arrayBuffer();
    const rssBeforeMb = residentMb(pid, "VmRSS");
    const cpuBefore = treeCpuMs(pid);

    let running = true;
    let worstProbeMs = 0;
    const probe = (async () => {
      while (running) {
        const started = performance.now();
        await fetch(`${shop.url}/illustrations/favicon.svg`).then((r) => r.arrayBuffer(), () => undefined);
        worstProbeMs = Math.max(worstProbeMs, performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
      }
    })();
    const started = performance.now();
    const statuses = await abuse.run(shop.url, shopper!.cookie, shopper!.userId);
    const tookMs = performance.now() - started;
    running = false;
    await probe;
    return { statuses, tookMs, worstProbeMs, rssBeforeMb, peakRssMb: residentMb(pid, "VmHWM"), cpuMs: treeCpuMs(pid) - cpuBefore };
  } finally {
    await stopShopProcess(shop);
    await database.drop();
  }
}

if (!existsSync(path.resolve("build/server/index.js"))) {
  console.log("building the pages (npx react-router build)…");
  execFileSync("npx", ["react-router", "build"], { stdio: "inherit" });
}
console.log(`commit ${execFileSync("git", ["rev-parse", "--short", "HEAD"]).toString().trim()}; probe: GET a static file every ${PROBE_EVERY_MS} ms`);
for (const abuse of CASES.filter((each) => each.name.includes(process.env.BENCH_ONLY ?? ""))) {
  const r = await measure(abuse);
  console.log(
    `${abuse.name.padEnd(48)} answered ${r.statuses.join(",")} in ${Math.round(r.tookMs)} ms; server CPU ${Math.round(r.cpuMs)} ms; worst probe ${Math.round(r.worstProbeMs)} ms; ` +
      `RSS ${Math.round(r.rssBeforeMb)} MB before, peak ${Math.round(r.peakRssMb)} MB (+${Math.round(r.peakRssMb - r.rssBeforeMb)} MB)`,
  );
}
