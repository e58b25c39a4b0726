import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PRODUCTION_NODE_FLAGS } from "../tests/support/server-env.ts";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { innermostPid, residentMb } from "./proc.ts";
import { median } from "./statistics.ts";

// Cold start (spawn until /healthz answers 200) and memory (resident set 2 s after that, no request served) of the
// compiled server that production runs, and of the same server run from its TypeScript sources by tsx, as
// `npm run dev`'s server and every release before decision 012 did; then the compiled server's idle resident set
// once settled: start-up's garbage fills the young generation, which V8 gives back within about a minute of idling
// (its memory reducer, docs/decisions/029), so a server at rest is measured after BENCH_SETTLE_SECONDS. Runs at the
// end of bench/run.ts, or alone after `npm run build`: `npx tsx bench/startup.ts`.
const PORT = Number(process.env.BENCH_STARTUP_PORT ?? 4603);
const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 5);
const IDLE_WAIT_MS = 2_000;
const SETTLE_SECONDS = Number(process.env.BENCH_SETTLE_SECONDS ?? 75);

const servers = [
  { label: "compiled: node build/server/main.js", command: process.execPath, args: [...PRODUCTION_NODE_FLAGS, path.resolve("build/server/main.js")] },
  { label: "from source: tsx server/main.ts", command: path.resolve("node_modules/.bin/tsx"), args: ["server/main.ts"] },
];

async function startOnce(server: (typeof servers)[number], dataDir: string, idleWaitMs = IDLE_WAIT_MS) {
  const url = `http://127.0.0.1:${PORT}`;
  const started = performance.now();
  const child = spawn(server.command, server.args, {
    env: { ...process.env, NODE_ENV: "production", HOST: "127.0.0.1", PORT: String(PORT), PUBLIC_URL: url, DATA_DIR: dataDir, LOG_LEVEL: "warn" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${server.label} exited with ${child.exitCode} while starting`);
    if ((await fetch(`${url}/healthz`).then((r) => r.status, () => 0)) === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const coldStartMs = performance.now() - started;
  await new Promise((resolve) => setTimeout(resolve, idleWaitMs));
  const idleRssMb = residentMb(innermostPid(child.pid!), "VmRSS");
  child.kill("SIGTERM");
  await exited;
  return { coldStartMs, idleRssMb };
}

export async function benchStartup() {
  console.log(`\nStart-up: ${RUNS} starts each on a data folder already migrated and seeded (the first start on an empty one shown apart), median`);
  console.log("server                                   first start ms   cold start ms   RSS MB 2 s after start");
  for (const server of servers) {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "plant-shop-bench-start-"));
    try {
      const first = await startOnce(server, dataDir);
      const runs = [];
      for (let i = 0; i < RUNS; i++) runs.push(await startOnce(server, dataDir));
      console.log(
        [
          server.label.padEnd(40),
          first.coldStartMs.toFixed(0).padStart(15),
          median(runs.map((r) => r.coldStartMs)).toFixed(0).padStart(15),
          median(runs.map((r) => r.idleRssMb)).toFixed(1).padStart(13),
        ].join(" "),
      );
      if (server === servers[0]) {
        const settled = await startOnce(server, dataDir, SETTLE_SECONDS * 1000);
        console.log(`${server.label}: idle RSS ${settled.idleRssMb.toFixed(1)} MB after ${SETTLE_SECONDS} s at rest (goal ≤ 120 MB)`);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  benchStartup().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
