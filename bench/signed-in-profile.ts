import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import { performance } from "node:perf_hooks";
import path from "node:path";
import autocannon from "autocannon";
import { openDatabase } from "../server/platform/db/client.ts";
import { insertShoppers, startShopProcess, stopShopProcess, waitUntilHealthy } from "../tests/support/shop-process.ts";

// Where a signed-in page's time goes: the compiled shop on SQLite with the sample catalogue, run with --cpu-prof,
// loaded by one signed-in shopper's cookie on one path (argument, default /shop) for BENCH_SECONDS, then the profile
// summarised by self time per function and per package. `npx tsx bench/signed-in-profile.ts /product/{first}`;
// AS_VISITOR=1 without the cookie, AS_BROWSER=1 with a browser's Accept-Encoding.
const PORT = Number(process.env.BENCH_PORT ?? 4631);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

async function main() {
  const requested = process.argv[2] ?? "/shop";
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "plant-shop-profile-"));
  const profileDir = mkdtempSync(path.join(os.tmpdir(), "plant-shop-cpu-profile-"));
  const shop = startShopProcess({
    port: PORT,
    dataDir,
    env: { SEED_SAMPLE_DATA: "true", PAGE_CACHE_SECONDS: process.env.PAGE_CACHE_SECONDS ?? "300" },
    nodeFlags: ["--cpu-prof", `--cpu-prof-dir=${profileDir}`],
  });
  await waitUntilHealthy(shop);
  const database = openDatabase({ sqliteFile: path.join(dataDir, "shop.db") });
  const [shopper] = await insertShoppers(database.db, 1, { password: "profile-password-1", prefix: "profile", dialect: "sqlite" });
  await database.destroy();
  const first = ((await (await fetch(`${shop.url}/api/products?limit=1`)).json()) as { items: { id: string }[] }).items[0]!.id;
  const pathname = requested.replace("{first}", first);
  const headers: Record<string, string> = process.env.AS_VISITOR ? {} : { cookie: shopper!.cookie };
  // AS_BROWSER=1: with Chromium's Accept-Encoding, as every browser asks.
  if (process.env.AS_BROWSER) headers["accept-encoding"] = "gzip, deflate, br, zstd";
  const result = await autocannon({ url: shop.url + pathname, connections: CONNECTIONS, duration: SECONDS, headers });
  console.log(`${pathname} ${process.env.AS_VISITOR ? "as a visitor" : "signed in"}: ${(result.requests.total / result.duration).toFixed(0)} req/s, non-2xx ${result.non2xx}`);
  const stopping = performance.now();
  await stopShopProcess(shop);
  const stoppedInMs = performance.now() - stopping;
  const file = readdirSync(profileDir).find((name) => name.endsWith(".cpuprofile"));
  if (!file) throw new Error("no profile written");
  // Only the samples of the load itself: not the start-up, the seeding or the shutdown.
  const profile = JSON.parse(readFileSync(path.join(profileDir, file), "utf8")) as Profile;
  const loadEnd = profile.endTime - stoppedInMs * 1000;
  summarise(within(profile, loadEnd - result.duration * 1_000_000, loadEnd));
}

/** The profile with only the samples taken between two of its times (microseconds). */
function within(profile: Profile, from: number, to: number): Profile {
  const samples: number[] = [];
  const timeDeltas: number[] = [];
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at < from || at > to) return;
    samples.push(id);
    timeDeltas.push(profile.timeDeltas[i] ?? 0);
  });
  return { ...profile, samples, timeDeltas };
}

/** Self time per function and per package (node_modules/<name>, the shop's build, node itself), top 25 each. */
function summarise(profile: Profile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const perFunction = new Map<string, number>();
  const perPackage = new Map<string, number>();
  for (const [id, micros] of self) {
    const frame = byId.get(id)!.callFrame;
    const where = frame.url.replace(/^file:\/\//, "");
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(where)?.[1] ?? (where.includes("/build/server/") ? "shop (build/server)" : where ? (where.startsWith("node:") ? "node core" : where) : frame.functionName || "(native)");
    const name = `${frame.functionName || "(anonymous)"} ${path.basename(where)}:${frame.lineNumber + 1}`;
    perFunction.set(name, (perFunction.get(name) ?? 0) + micros);
    perPackage.set(pkg, (perPackage.get(pkg) ?? 0) + micros);
  }
  const show = (title: string, map: Map<string, number>) => {
    console.log(`\n${title}`);
    for (const [name, micros] of [...map].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.PROFILE_TOP ?? 25))) console.log(`${((100 * micros) / total).toFixed(1).padStart(6)} %  ${name}`);
  };
  show("self time per package", perPackage);
  show("self time per function", perFunction);
  show("time inside each function, callees included (once per sample)", inclusive(profile, byId));
}

/** For every sample, each distinct function on its stack counts the sample's time once. */
function inclusive(profile: Profile, byId: Map<number, ProfileNode>): Map<string, number> {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      if (!frame.url) continue;
      seen.add(`${frame.functionName || "(anonymous)"} ${path.basename(frame.url)}:${frame.lineNumber + 1}`);
    }
    for (const name of seen) totals.set(name, (totals.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  return totals;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
