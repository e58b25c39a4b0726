import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { PRODUCTION_NODE_FLAGS } from "../tests/support/server-env.ts";
import { cpuMs, residentMb } from "./proc.ts";

// The A/B behind docs/decisions/029: the compiled shop rendering every page (the page cache off) for 50
// connections, once per set of node flags, in alternating rounds on one data folder, beside a bare node:http
// server sending the same bytes. Prints per page the requests/s, the ratio to the bare server, the server's CPU
// time per request (steadier than requests/s on a shared machine), and the process's peak resident set (VmHWM).
// After `npm run build`: `npx tsx bench/memory.ts` (BENCH_SECONDS, BENCH_ROUNDS, BENCH_MEMORY_PORT to change;
// BENCH_BEFORE_SERVER=path/to/old/build/server/main.js runs the "before" flags on an older build, for a before/after).
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONNECTIONS = 50;
const PORT = Number(process.env.BENCH_MEMORY_PORT ?? 4604);
const BARE_PORT = PORT + 1;
const url = `http://127.0.0.1:${PORT}`;
const variants = [
  { label: "semi-space 2 only (before)", flags: ["--max-semi-space-size=2"], server: process.env.BENCH_BEFORE_SERVER ?? "build/server/main.js" },
  { label: "production flags", flags: PRODUCTION_NODE_FLAGS, server: "build/server/main.js" },
];

async function untilHealthy(child: ChildProcess) {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the shop exited with ${child.exitCode}`);
    if ((await fetch(`${url}/healthz`).then((r) => r.status, () => 0)) === 200) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function stop(child: ChildProcess) {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

async function load(target: string, pid?: number) {
  await autocannon({ url: target, connections: CONNECTIONS, duration: 1 });
  const before = cpuMs(pid) ?? Number.NaN;
  const result = await autocannon({ url: target, connections: CONNECTIONS, duration: SECONDS });
  return { rps: result.requests.average, cpuPerRequest: ((cpuMs(pid) ?? Number.NaN) - before) / result.requests.total, failures: result.non2xx + result.errors + result.timeouts };
}

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "plant-shop-bench-memory-"));
  const env = { ...process.env, NODE_ENV: "production", HOST: "127.0.0.1", PORT: String(PORT), PUBLIC_URL: url, DATA_DIR: dataDir, LOG_LEVEL: "warn", PAGE_CACHE_SECONDS: "0" };
  const rows: string[] = [];
  let paths: string[] = [];
  let id = "";
  for (let round = 0; round < ROUNDS; round++) {
    for (const variant of variants) {
      const shop = spawn(process.execPath, [...variant.flags, variant.server], { env, stdio: ["ignore", "inherit", "inherit"] });
      await untilHealthy(shop);
      await new Promise((r) => setTimeout(r, 2_000));
      const idle = residentMb(shop.pid!, "VmRSS");
      if (!paths.length) {
        id = ((await (await fetch(`${url}/api/products?limit=1`)).json()) as { items: { id: string }[] }).items[0]!.id;
        paths = ["/", "/shop", `/product/${id}`];
        const recorded: Record<string, { status: number; contentType: string; body: string }> = {};
        for (const p of paths) {
          const response = await fetch(url + p);
          recorded[p] = { status: response.status, contentType: response.headers.get("content-type") ?? "", body: Buffer.from(await response.arrayBuffer()).toString("base64") };
        }
        writeFileSync(path.join(dataDir, "recorded.json"), JSON.stringify(recorded));
      }
      const measured = [];
      for (const p of paths) measured.push({ p, ...(await load(url + p, shop.pid)) });
      const peak = residentMb(shop.pid!, "VmHWM");
      await stop(shop);
      const bare = spawn(path.resolve("node_modules/.bin/tsx"), ["bench/bare-server.ts", path.join(dataDir, "recorded.json"), String(BARE_PORT)], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
      await new Promise((resolve) => bare.once("message", resolve));
      for (const m of measured) {
        const b = await load(`http://127.0.0.1:${BARE_PORT}${m.p}`);
        rows.push(
          [`${round + 1}`, variant.label.padEnd(27), m.p.replace(id, "{id}").padEnd(14), m.rps.toFixed(0).padStart(6), b.rps.toFixed(0).padStart(7), (m.rps / b.rps).toFixed(4).padStart(8), m.cpuPerRequest.toFixed(2).padStart(7), String(m.failures).padStart(5), idle.toFixed(1).padStart(7), peak.toFixed(1).padStart(7)].join(" "),
        );
        console.log(rows.at(-1));
      }
      await stop(bare);
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
  console.log(`\nrendered pages, ${CONNECTIONS} connections, ${SECONDS}s each, ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  console.log("round flags                       path             req/s  bare/s  shop/bare  cpu ms/req  fail  idle MB  peak MB");
  for (const row of rows) console.log(row);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
