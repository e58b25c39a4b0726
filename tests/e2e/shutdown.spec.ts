import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { expect, test } from "@playwright/test";
import { descendants, extraPort, isRunning, startShopProcess, stopShopProcess, tryConnect, waitUntilHealthy, type ShopProcess } from "../support/shop-process.ts";
import { serverEnvironment } from "../support/server-env.ts";

// Shutdown of the compiled server (docs/decisions/012): SIGTERM stops accepting, closes idle kept-alive
// connections at once, lets requests in flight finish within SHUTDOWN_TIMEOUT_SECONDS, then exits 0.
// These tests start their own servers on loopback and need no browser.

const LOAD_PORT = extraPort(3);
const DRAIN_PORT = extraPort(4);
// The load test has freed its port (it checks) before this one starts.
const NPM_PORT = extraPort(3);

let shop: ShopProcess | undefined;
test.afterEach(async () => {
  if (shop) await stopShopProcess(shop);
  shop = undefined;
});

interface Outcome {
  path: string;
  startedAt: number;
  status?: number;
  error?: string;
}

/** One GET on a kept-alive connection of `agent`; never throws, the outcome says what happened. */
function get(agent: http.Agent, url: string, pathname: string): Promise<Outcome> {
  const startedAt = performance.now();
  return new Promise((resolve) => {
    const request = http.get(`${url}${pathname}`, { agent }, (response) => {
      response.resume();
      response.once("end", () => resolve({ path: pathname, startedAt, status: response.statusCode }));
      response.once("error", (error) => resolve({ path: pathname, startedAt, error: error.message }));
    });
    request.once("error", (error: NodeJS.ErrnoException) => resolve({ path: pathname, startedAt, error: error.code ?? error.message }));
  });
}

/**
 * A POST to the contact API whose body is held back, so it is in flight for as long as the test wants.
 * `received` settles when the server has the request: it asks for the body with `100 Continue`.
 */
function slowContactMessage(url: string) {
  const body = JSON.stringify({ name: "Asha", email: "asha@example.com", subject: "Repotting", message: "When should I repot a monstera?" });
  const request = http.request(`${url}/api/contact`, {
    method: "POST",
    agent: new http.Agent({ keepAlive: true }),
    headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body), Origin: url, Expect: "100-continue" },
  });
  const received = once(request, "continue");
  const answered = new Promise<{ status?: number; connection?: string; error?: string }>((resolve) => {
    request.once("response", (response) => {
      response.resume();
      response.once("end", () => resolve({ status: response.statusCode, connection: response.headers.connection }));
    });
    request.once("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
  });
  request.flushHeaders();
  return {
    received,
    answered,
    finish: () => request.end(body),
  };
}

test.describe("shutting the server down", () => {
  test.describe.configure({ timeout: 90_000 });

  test("SIGTERM under load: every request sent before the signal is answered, the process exits 0 and the port is closed", async () => {
    shop = startShopProcess({ port: LOAD_PORT, env: { SEED_SAMPLE_DATA: "true", SHUTDOWN_TIMEOUT_SECONDS: "30" } });
    await waitUntilHealthy(shop);
    const server = shop;
    // Eight clients, each on one kept-alive connection, sending one request after another.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    const paths = ["/api/products?limit=12", "/shop", "/"];
    const outcomes: Outcome[] = [];
    const signal: { sentAt?: number } = {};
    const client = async (n: number) => {
      for (let i = 0; ; i++) {
        const outcome = await get(agent, server.url, paths[(n + i) % paths.length]!);
        outcomes.push(outcome);
        // After the signal each client goes on until the server stops answering (bounded by its exit).
        if (signal.sentAt !== undefined && outcome.error) return;
      }
    };
    const clients = Array.from({ length: 8 }, (_, n) => client(n));
    await expect.poll(() => outcomes.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(150);

    signal.sentAt = performance.now();
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    await Promise.all(clients);
    agent.destroy();

    const beforeSignal = outcomes.filter((o) => o.startedAt < signal.sentAt!);
    const afterSignal = outcomes.filter((o) => o.startedAt >= signal.sentAt!);
    test.info().annotations.push({
      type: "requests",
      description: `${beforeSignal.length} sent before the signal; after it ${afterSignal.filter((o) => o.status).length} answered, ${afterSignal.filter((o) => o.error).length} refused or cut`,
    });
    const failed = beforeSignal.filter((o) => o.error !== undefined || o.status !== 200);
    expect(beforeSignal.length).toBeGreaterThanOrEqual(150);
    expect(failed, `${failed.length} of ${beforeSignal.length} requests sent before the signal failed`).toEqual([]);
    expect(await tryConnect(LOAD_PORT)).toBe("ECONNREFUSED");
  });

  test("SIGTERM closes idle kept-alive connections at once, lets a request in flight finish with Connection: close, and refuses new connections", async () => {
    shop = startShopProcess({ port: DRAIN_PORT, env: { SHUTDOWN_TIMEOUT_SECONDS: "30", LOG_LEVEL: "info" } });
    await waitUntilHealthy(shop);
    const server = shop;

    const inFlight = slowContactMessage(server.url);
    await inFlight.received;

    // An idle kept-alive connection: one request answered, the socket left open (well inside the server's
    // five-second keep-alive timeout when the signal follows).
    const idle = net.connect(DRAIN_PORT, "127.0.0.1");
    let idleReply = "";
    const replied = new Promise<void>((resolve) =>
      idle.on("data", (chunk: Buffer) => {
        idleReply += chunk.toString();
        if (/\r\n\r\nok$/.test(idleReply)) resolve();
      }),
    );
    const signal = { sent: false, idleClosedAfterIt: false };
    const idleClosed = once(idle, "close").then(() => (signal.idleClosedAfterIt = signal.sent));
    idle.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    await replied;
    expect(idleReply).toMatch(/^HTTP\/1.1 200/);
    expect(idleReply.toLowerCase()).toContain("connection: keep-alive");

    signal.sent = true;
    server.child.kill("SIGTERM");
    await idleClosed;
    expect(signal.idleClosedAfterIt).toBe(true);
    // Still running, still holding the request in flight, but no longer accepting.
    expect(await tryConnect(DRAIN_PORT)).toBe("ECONNREFUSED");
    expect(isRunning(server.child.pid!)).toBe(true);

    inFlight.finish();
    expect(await inFlight.answered).toEqual({ status: 201, connection: "close" });
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain("Plant Shop stopped");
  });

  test("SHUTDOWN_TIMEOUT_SECONDS bounds the wait: a request that never completes is cut off and the process still exits 0", async () => {
    shop = startShopProcess({ port: DRAIN_PORT, env: { SHUTDOWN_TIMEOUT_SECONDS: "1", LOG_LEVEL: "info" } });
    await waitUntilHealthy(shop);
    const server = shop;
    const stuck = slowContactMessage(server.url);
    await stuck.received;

    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    expect(await stuck.answered).toEqual({ error: "ECONNRESET" });
    expect(server.output()).toContain("shutdown budget spent");
    expect(server.output()).toContain("Plant Shop stopped");
  });

  test("SIGTERM to `npm start` reaches the server: npm and the server exit and nothing is left listening", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "plant-shop-npm-start-"));
    const url = `http://127.0.0.1:${NPM_PORT}`;
    const npm = spawn("npm", ["start"], {
      env: serverEnvironment({ HOST: "127.0.0.1", PORT: String(NPM_PORT), PUBLIC_URL: url, DATA_DIR: dataDir, LOG_LEVEL: "info", SEED_SAMPLE_DATA: "false" }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    npm.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    npm.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => npm.on("exit", (code) => resolve(code)));
    try {
      // npm start builds first when the build is stale, which can take a while on a busy machine.
      await expect.poll(() => fetch(`${url}/healthz`).then((r) => r.status, () => undefined), { timeout: 80_000, message: output }).toBe(200);
      const below = descendants(npm.pid!);
      expect(below.length).toBeGreaterThan(0);

      npm.kill("SIGTERM");
      expect(await exited).toBe(0);
      expect(output).toContain("Plant Shop stopped");
      expect(below.filter(isRunning)).toEqual([]);
      expect(await tryConnect(NPM_PORT)).toBe("ECONNREFUSED");
    } finally {
      if (npm.exitCode === null) npm.kill("SIGKILL");
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
