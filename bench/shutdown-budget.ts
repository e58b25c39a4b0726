// How long the compiled server takes to exit after SIGTERM when a request in flight never completes, against
// its SHUTDOWN_TIMEOUT_SECONDS: the figure of docs/performance.md, "Shutdown within its budget".
//
//   npm run build && npx tsx bench/shutdown-budget.ts [port=5650] [runs=5] [budgetSeconds=1]
//
// Set DATABASE_URL to measure on PostgreSQL (a database of your own: the server migrates it).
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { PRODUCTION_NODE_FLAGS, serverEnvironment } from "../tests/support/server-env.ts";

const [port = 5650, runs = 5, budgetSeconds = 1] = process.argv.slice(2).map(Number);
const url = `http://127.0.0.1:${port}`;

async function healthy(deadline: number) {
  while (performance.now() < deadline) {
    const status = await fetch(`${url}/healthz`).then((r) => r.status, () => 0);
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the server did not start");
}

async function once_(): Promise<number> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "plant-shop-shutdown-bench-"));
  const child = spawn(process.execPath, [...PRODUCTION_NODE_FLAGS, "build/server/main.js"], {
    env: serverEnvironment({
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      SEED_SAMPLE_DATA: "false",
      LOG_LEVEL: "warn",
      SHUTDOWN_TIMEOUT_SECONDS: String(budgetSeconds),
      ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    }),
    stdio: ["ignore", "inherit", "inherit"],
  });
  const exited = once(child, "exit");
  try {
    await healthy(performance.now() + 30_000);
    // A contact message whose body never comes: in flight until shutdown cuts it off.
    const request = http.request(`${url}/api/contact`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Content-Length": 100, Origin: url, Expect: "100-continue" },
    });
    request.on("error", () => {});
    const received = once(request, "continue");
    request.flushHeaders();
    await received;
    const signalled = performance.now();
    child.kill("SIGTERM");
    const [code] = await exited;
    const seconds = (performance.now() - signalled) / 1000;
    if (code !== 0) throw new Error(`exited ${String(code)}`);
    return seconds;
  } finally {
    if (child.exitCode === null) child.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const figures: number[] = [];
for (let i = 0; i < runs; i++) figures.push(await once_());
const over = figures.map((s) => s - budgetSeconds);
console.log(
  `budget ${budgetSeconds} s, ${runs} runs: SIGTERM to exit ${figures.map((s) => s.toFixed(3)).join(", ")} s; ` +
    `past the budget by at most ${Math.max(...over).toFixed(3)} s (median ${over.sort((a, b) => a - b)[Math.floor(over.length / 2)]!.toFixed(3)} s)`,
);
