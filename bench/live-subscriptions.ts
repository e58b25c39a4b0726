import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { openDatabase } from "../server/platform/db/client.ts";
import { createProduct } from "../tests/support/factories.ts";
import { COMPILED_SERVER, createPostgresDatabase, insertSessions, startShopProcess, stopShopProcess, waitUntilHealthy } from "../tests/support/shop-process.ts";
import { createShopper } from "../tests/support/shoppers.ts";
import { residentMb } from "./proc.ts";

// What idle live product pages cost, whether their memory comes back when they close, and that the caps on them
// hold. Starts the compiled server (`npm run build` first) on a fresh SQLite data folder, or on a fresh PostgreSQL
// database with BENCH_DATABASE_URL (an admin URL, e.g. postgres://postgres@127.0.0.1:5432/postgres), behind one
// trusted proxy so that the streams can come from many client addresses (X-Forwarded-For), opens
// LIVE_SUBSCRIPTIONS (1,000) event streams on one product, at most LIVE_PER_ADDRESS (16) from each address, and
// prints:
//   - the server's resident memory before, with the streams open, and per stream;
//   - one order's change reaching every stream;
//   - the caps: five streams more than the global cap (the server is started with LIVE_STREAMS_MAX =
//     LIVE_SUBSCRIPTIONS) and whether /healthz still answers meanwhile; then one more address asking at once for
//     more streams than its cap (LIVE_STREAMS_PER_CLIENT, 32): LIVE_GREEDY streams, 37 unless set;
//   - resident memory after every stream closed: once it stops moving, and again after LIVE_SETTLE_SECONDS (30)
//     idle. A production server cannot be told to collect garbage, so this is what an operator would see.
// BENCH_SERVER runs another compiled server (a copy of build/server/main.js from before a change) for a before /
// after; a server without the caps simply answers every stream (the refusal lines say so). BENCH_NODE_FLAGS are
// passed to the server's node (e.g. --trace-gc, to see the V8 heap beside the resident set; the last lines are
// printed). Nothing here asserts a number: it is printed, with the goal beside it.
//
//   npx tsx bench/live-subscriptions.ts
const SUBSCRIPTIONS = Number(process.env.LIVE_SUBSCRIPTIONS ?? 1000);
const PER_ADDRESS = Number(process.env.LIVE_PER_ADDRESS ?? 16);
const PER_CLIENT_CAP = 32;
/** How many streams the one greedy address asks for (the audit's flood asked for 20,000 from one address). */
const GREEDY = Number(process.env.LIVE_GREEDY ?? PER_CLIENT_CAP + 5);
const SETTLE_SECONDS = Number(process.env.LIVE_SETTLE_SECONDS ?? 30);
const PORT = Number(process.env.BENCH_PORT ?? 4424);
const GOAL_MB = 50;
const url = `http://127.0.0.1:${PORT}`;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** RSS once it stops moving (the server's collector and allocator settle after a burst). */
async function settledRssMb(pid: number): Promise<number> {
  let last = residentMb(pid, "VmRSS");
  for (let i = 0; i < 10; i++) {
    await pause(1000);
    const now = residentMb(pid, "VmRSS");
    if (Math.abs(now - last) < 0.5) return now;
    last = now;
  }
  return last;
}

/** The resident MB of the main malloc arena (`[heap]`) and of every other anonymous mapping (V8's heap, other arenas). */
function residentByKind(pid: number): { mallocMainArena: number; otherAnonymous: number } {
  let mallocMainArena = 0;
  let otherAnonymous = 0;
  let current: "heap" | "anon" | "file" = "file";
  for (const line of readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n")) {
    const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ (\d+)\s*(.*)$/.exec(line);
    if (header) {
      const [, inode, name] = header;
      current = name === "[heap]" ? "heap" : inode === "0" && (!name || name.startsWith("[anon")) ? "anon" : "file";
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (!rss) continue;
    if (current === "heap") mallocMainArena += Number(rss[1]) / 1024;
    else if (current === "anon") otherAnonymous += Number(rss[1]) / 1024;
  }
  return { mallocMainArena, otherAnonymous };
}

interface Stream {
  request: http.ClientRequest;
  /** Resolves with the answer's status: 200 once the first event came, the status of a refusal at once. */
  answered: Promise<{ status: number; retryAfter: string | undefined; body: string }>;
  changed: Promise<void>;
}

/** One event stream on its own connection, from `address` (the proxy's X-Forwarded-For). */
function openStream(productId: string, address: string): Stream {
  let onAnswer!: (answer: { status: number; retryAfter: string | undefined; body: string }) => void;
  let onChange!: () => void;
  let onError!: (error: Error) => void;
  const answered = new Promise<{ status: number; retryAfter: string | undefined; body: string }>((resolve, reject) => ((onAnswer = resolve), (onError = reject)));
  const changed = new Promise<void>((resolve) => (onChange = resolve));
  const request = http.get(`${url}/api/products/${productId}/events`, { agent: false, headers: { "X-Forwarded-For": address } }, (response) => {
    const status = response.statusCode ?? 0;
    const retryAfter = response.headers["retry-after"];
    let text = "";
    response.setEncoding("utf8");
    response.on("data", (chunk: string) => {
      text += chunk;
      if (status === 200 && text.includes("event: ready")) onAnswer({ status, retryAfter, body: "" });
      if (text.includes("event: change")) onChange();
      if (text.length > 4096) text = text.slice(-1024);
    });
    response.on("end", () => onAnswer({ status, retryAfter, body: text }));
  });
  request.on("error", (error) => onError(error));
  return { request, answered, changed };
}

/** The n-th client address of the bench (10.x.y.z, distinct for n below 2^24). */
const address = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

function describeRefusals(answers: { status: number; retryAfter: string | undefined; body: string }[]): string {
  const byStatus = new Map<number, number>();
  for (const answer of answers) byStatus.set(answer.status, (byStatus.get(answer.status) ?? 0) + 1);
  const refused = answers.find((answer) => answer.status !== 200);
  const counts = [...byStatus].map(([status, n]) => `${n} × ${status}`).join(", ");
  return refused ? `${counts} (Retry-After: ${refused.retryAfter ?? "none"}; ${refused.body.trim()})` : `${counts} (nothing refused)`;
}

async function main() {
  const adminUrl = process.env.BENCH_DATABASE_URL;
  const target = adminUrl ? await createPostgresDatabase(adminUrl, "plant_shop_live_bench") : undefined;
  const server = process.env.BENCH_SERVER ? path.resolve(process.env.BENCH_SERVER) : COMPILED_SERVER;
  const shop = startShopProcess({
    port: PORT,
    server,
    ...(target ? { databaseUrl: target.url } : {}),
    env: {
      TRUST_PROXY: "1",
      LIVE_STREAMS_MAX: String(SUBSCRIPTIONS),
    },
    nodeFlags: process.env.BENCH_NODE_FLAGS?.split(/\s+/).filter(Boolean) ?? [],
  });
  const database = target ? openDatabase({ databaseUrl: target.url, poolSize: 2 }) : undefined;
  try {
    await waitUntilHealthy(shop);
    const db = (database ?? openDatabase({ sqliteFile: path.join(shop.dataDir, "shop.db") })).db;
    const plant = await createProduct(db, { stock: 1_000 });
    const pid = shop.child.pid!;

    // Warm up the route (code compiled, pools made) so that "before" is a running server, not a cold one.
    const warm = Array.from({ length: 20 }, (_, i) => openStream(plant.id, address(1_000_000 + i)));
    await Promise.all(warm.map((s) => s.answered));
    for (const s of warm) s.request.destroy();
    const before = await settledRssMb(pid);
    const beforeKinds = residentByKind(pid);

    const started = performance.now();
    const streams: Stream[] = [];
    // In batches, as pages arrive: the listen backlog is not what is measured.
    for (let i = 0; i < SUBSCRIPTIONS; i += 100) {
      const batch = Array.from({ length: Math.min(100, SUBSCRIPTIONS - i) }, (_, j) => openStream(plant.id, address(Math.floor((i + j) / PER_ADDRESS))));
      streams.push(...batch);
      const answers = await Promise.all(batch.map((s) => s.answered));
      const refused = answers.filter((answer) => answer.status !== 200);
      if (refused.length) throw new Error(`${refused.length} streams refused below the caps: ${describeRefusals(refused)}`);
    }
    const openedMs = performance.now() - started;
    const after = await settledRssMb(pid);
    const afterKinds = residentByKind(pid);

    // One order through the API: its change must reach every open stream.
    const shopper = await createShopper(db, target ? "postgres" : "sqlite", { name: "Bench Shopper" });
    const [cookie] = await insertSessions(db, [shopper.id]);
    const headers = { Origin: url, Cookie: cookie!, "Content-Type": "application/json" };
    const added = await fetch(`${url}/api/cart/items`, { method: "POST", headers, body: JSON.stringify({ productId: plant.id }) });
    if (added.status !== 201) throw new Error(`adding to the cart answered ${added.status}: ${await added.text()}`);
    const orderedAt = performance.now();
    const order = await fetch(`${url}/api/orders`, {
      method: "POST",
      headers,
      body: JSON.stringify({ name: "Bench Shopper", phone: "+91 98765 43210", address: "12 Garden Road\nPune 411001", idempotencyKey: randomUUID() }),
    });
    if (order.status !== 201) throw new Error(`ordering answered ${order.status}: ${await order.text()}`);
    let reached = 0;
    const deadline = pause(30_000).then(() => "timeout" as const);
    const all = Promise.all(streams.map((s) => s.changed.then(() => reached++)));
    const outcome = await Promise.race([all.then(() => "all" as const), deadline]);
    const fanOutMs = performance.now() - orderedAt;

    // The global cap is full (the server's LIVE_STREAMS_MAX is the number open): a new address is refused.
    const overGlobal = Array.from({ length: 5 }, (_, i) => openStream(plant.id, address(2_000_000 + i)));
    const overGlobalAnswers = await Promise.all(overGlobal.map((s) => s.answered));
    const health = await fetch(`${url}/healthz`, { headers: { "X-Forwarded-For": address(3_000_000) } });
    const healthAtCap = `${health.status} ${(await health.text()).trim()}`;
    for (const s of overGlobal) s.request.destroy();

    // Room again (more closed than the next address asks for), then one address asks for more than its cap.
    for (const s of streams.splice(0, PER_CLIENT_CAP + 10)) s.request.destroy();
    await pause(500);
    const greedy = Array.from({ length: GREEDY }, () => openStream(plant.id, address(4_000_000)));
    const greedyAnswers = await Promise.all(greedy.map((s) => s.answered));
    for (const s of greedy) s.request.destroy();

    // Every stream closes: is the memory given back?
    const open = streams.length;
    for (const s of streams) s.request.destroy();
    const closedAt = performance.now();
    const afterClose = await settledRssMb(pid);
    const afterCloseKinds = residentByKind(pid);
    await pause(Math.max(0, SETTLE_SECONDS * 1000 - (performance.now() - closedAt)));
    const afterSettle = residentMb(pid, "VmRSS");
    const afterSettleKinds = residentByKind(pid);

    const extra = after - before;
    const kinds = (k: { mallocMainArena: number; otherAnonymous: number }) =>
      `malloc main arena ${k.mallocMainArena.toFixed(1)} MB, other anonymous (V8 heap, thread arenas) ${k.otherAnonymous.toFixed(1)} MB`;
    console.log(`server: ${path.relative(process.cwd(), server)}; database: ${target ? "PostgreSQL" : "SQLite"}`);
    console.log(`subscriptions open: ${SUBSCRIPTIONS} from ${Math.ceil(SUBSCRIPTIONS / PER_ADDRESS)} addresses (opened in ${(openedMs / 1000).toFixed(1)} s)`);
    console.log(`server RSS before: ${before.toFixed(1)} MB, with the streams open: ${after.toFixed(1)} MB, extra: ${extra.toFixed(1)} MB (${((extra * 1024) / SUBSCRIPTIONS).toFixed(1)} KB a stream; goal < ${GOAL_MB} MB for 1,000)`);
    console.log(`  before: ${kinds(beforeKinds)}`);
    console.log(`  open:   ${kinds(afterKinds)}`);
    console.log(`one order's change reached ${reached} of ${SUBSCRIPTIONS} streams${outcome === "all" ? "" : " (gave up after 30 s)"}, the last ${fanOutMs.toFixed(0)} ms after the order was sent`);
    console.log(`beyond the global cap (${SUBSCRIPTIONS} open), 5 more from a new address: ${describeRefusals(overGlobalAnswers)}`);
    console.log(`/healthz from another address meanwhile: ${healthAtCap}`);
    console.log(`one address asking for ${GREEDY} streams at once: ${describeRefusals(greedyAnswers)}`);
    console.log(
      `after closing all ${open}: RSS ${afterClose.toFixed(1)} MB once steady (${(afterClose - before).toFixed(1)} MB above before), ` +
        `${afterSettle.toFixed(1)} MB after ${SETTLE_SECONDS} s idle (${(afterSettle - before).toFixed(1)} MB above before, ` +
        `${extra > 0 ? (((after - afterSettle) / extra) * 100).toFixed(0) : "-"} % of the streams' memory given back)`,
    );
    console.log(`  closed: ${kinds(afterCloseKinds)}`);
    console.log(`  idle:   ${kinds(afterSettleKinds)}`);
    if (process.env.BENCH_NODE_FLAGS) {
      const gcLines = shop.output().split("\n").filter((line) => /Mark-Compact|Scavenge|Mark-sweep|Memory reducer/.test(line));
      console.log(`the server's last collections:\n${gcLines.slice(-6).join("\n")}`);
    }
    if (outcome !== "all") process.exitCode = 1;
  } finally {
    await stopShopProcess(shop);
    await database?.destroy();
    await target?.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
