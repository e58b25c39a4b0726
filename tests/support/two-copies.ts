import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { request } from "undici";

// Several server copies behind Debian's nginx, and a mixed shoppers' load through it: for the restart test
// (tests/e2e/two-copies-restart.spec.ts) and the CPU bench (bench/two-copies-cpu.ts). The nginx settings are the
// ones the README recommends for running several copies.

export const NGINX = "/usr/sbin/nginx";

export interface Nginx {
  url: string;
  child: ChildProcess;
  dir: string;
  output: () => string;
  exited: Promise<number | null>;
  /** Rewrites the upstream with the copies on `downPorts` marked down, reloads nginx and waits until it has. */
  route(downPorts: number[]): Promise<void>;
}

/**
 * The upstream part of the configuration, as the README shows it. Why each setting:
 * - No `keepalive`: nginx opens a connection per request (a loopback or LAN handshake, cheap next to a page).
 *   With kept connections, a copy that is stopping closes its idle ones, and a request nginx writes on one at
 *   that moment is reset; nginx may send a GET again but never a POST, so a shopper's order failed with a 502
 *   (tests/e2e/two-copies-restart.spec.ts saw it within a few runs). On a fresh connection instead, a stopped
 *   copy refuses the connect before any of the request is sent, and nginx passes it to the other copy.
 * - proxy_next_upstream error timeout http_502 http_503: a copy that refuses connections (stopped, restarting)
 *   or answers 503 (not ready) is skipped and the request goes to the other. Without "non_idempotent", nginx never
 *   sends a POST again once any of it reached a copy: a write is applied at most once.
 * - max_fails/fail_timeout: a copy that failed is left alone for a second before nginx tries it again.
 */
export function upstreamConfig(ports: number[]): string {
  return `upstream plant_shop {
    ${ports.map((port) => `server 127.0.0.1:${port} max_fails=1 fail_timeout=1s;`).join("\n    ")}
  }`;
}

export const LOCATION_CONFIG = `proxy_pass http://plant_shop;
      proxy_http_version 1.1;
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header X-Forwarded-Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_next_upstream error timeout http_502 http_503;
      proxy_next_upstream_tries 2;`;

/**
 * The upstream block with the copies on `downPorts` marked `down`: how a copy is taken out before it is stopped
 * (README, "Running several copies"). nginx reloads its workers on SIGHUP without dropping a request.
 */
function nginxConfig(dir: string, port: number, upstreamPorts: number[], downPorts: number[]): string {
  const upstream = upstreamConfig(upstreamPorts).replace(/server 127\.0\.0\.1:(\d+) ([^;]*);/g, (line, copyPort: string, rest: string) =>
    downPorts.includes(Number(copyPort)) ? `server 127.0.0.1:${copyPort} ${rest} down;` : line,
  );
  return `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log stderr warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/client-body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  ${upstream}
  server {
    listen 127.0.0.1:${port};
    location / {
      ${LOCATION_CONFIG}
    }
  }
}
`;
}

/** nginx on loopback `port`, in a folder of its own, balancing over the copies on `upstreamPorts`. */
export function startNginx(port: number, upstreamPorts: number[]): Nginx {
  // A missing proxy is a broken test machine, not a reason to skip: .ci/run installs nginx-light.
  if (!existsSync(NGINX)) throw new Error(`${NGINX} is missing: install Debian's nginx-light (apt-get install nginx-light), as .ci/run does`);
  const dir = mkdtempSync(path.join(os.tmpdir(), "plant-shop-nginx-"));
  // nginx's workers drop root and must reach their temp folders.
  chmodSync(dir, 0o755);
  const conf = path.join(dir, "nginx.conf");
  writeFileSync(conf, nginxConfig(dir, port, upstreamPorts, []));
  const child = spawn(NGINX, ["-p", dir, "-e", "stderr", "-c", conf], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => {
    child.on("exit", (code) => resolve(code));
    child.on("error", (error) => {
      output += String(error);
      resolve(-1);
    });
  });
  /** nginx's worker processes now (the master's children). */
  const workers = () => {
    const pid = child.pid;
    if (!pid) return [];
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(/\s+/).filter(Boolean);
  };
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    dir,
    output: () => output,
    exited,
    async route(downPorts) {
      writeFileSync(conf, nginxConfig(dir, port, upstreamPorts, downPorts));
      const before = workers();
      if (child.pid) process.kill(child.pid, "SIGHUP");
      // Reloaded once new workers run and the old ones have finished their requests and exited: from then on no
      // request can reach a copy marked down. Polled against a deadline: the reload is nginx's, it says nothing.
      const deadline = Date.now() + 30_000;
      for (;;) {
        const now = workers();
        if (now.length > 0 && !now.some((pid) => before.includes(pid))) return;
        if (Date.now() > deadline) throw new Error(`nginx did not reload within 30 s:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

/** Until nginx passes /healthz through (or exits, or 30 s pass). */
export async function waitForNginx(nginx: Nginx) {
  let exitCode: number | null | undefined;
  void nginx.exited.then((code) => (exitCode = code));
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new Error(`nginx exited with ${exitCode}:\n${nginx.output()}`);
    if ((await fetch(`${nginx.url}/healthz`).then((r) => r.status, () => undefined)) === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nginx did not pass /healthz through within 30 s:\n${nginx.output()}`);
}

/** SIGQUIT (nginx's graceful stop), SIGKILL if it lingers; then its folder is removed. */
export async function stopNginx(nginx: Nginx) {
  if (nginx.child.exitCode === null && nginx.child.signalCode === null && nginx.child.pid) {
    process.kill(nginx.child.pid, "SIGQUIT");
    const killer = setTimeout(() => nginx.child.pid && process.kill(nginx.child.pid, "SIGKILL"), 10_000);
    await nginx.exited;
    clearTimeout(killer);
  }
  rmSync(nginx.dir, { recursive: true, force: true });
}

export interface LoadTally {
  /** Every request sent, by kind ("page", "json", "cart", "order"). */
  sent: Record<string, number>;
  /** Answers that were not the expected status, and network errors: "order 502", "page error: …". */
  failures: string[];
  /** Units put in carts (201s) and orders placed (201s). */
  added: number;
  placed: number;
}

const shipping = { name: "Asha Kulkarni", phone: "+91 98765 43210", address: "12 Garden Road\nPune 411001", pin: "411001" };

/**
 * Mixed load through `baseUrl` until `stop()`: per signed-in shopper, in turn, the home page, the catalogue's JSON,
 * one unit of `productId` into the cart and an order of it. Each request is counted; every answer but the expected
 * one is a failure. Answers the tally and a function that stops the clients and waits for their last requests.
 */
export function runMixedLoad(baseUrl: string, cookies: string[], productId: string): { tally: LoadTally; total: () => number; stop: () => Promise<LoadTally> } {
  const tally: LoadTally = { sent: { page: 0, json: 0, cart: 0, order: 0 }, failures: [], added: 0, placed: 0 };
  let running = true;
  const call = async (kind: string, expected: number, method: string, pathname: string, cookie: string, body?: unknown): Promise<boolean> => {
    tally.sent[kind]!++;
    try {
      // A connection per request (Connection: close): a reloading nginx closes its idle kept connections, and a
      // request a client writes on one at that instant is lost to the client; browsers send it again, undici does
      // not for a POST. What is counted is then the shop and its proxy, not that client-side race.
      const response = await request(`${baseUrl}${pathname}`, {
        method: method as "GET" | "POST",
        headers: { cookie, origin: baseUrl, connection: "close", ...(body ? { "content-type": "application/json" } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const text = await response.body.text();
      if (response.statusCode === expected) return true;
      tally.failures.push(`${kind} ${response.statusCode}: ${text.slice(0, 200)}`);
    } catch (error) {
      tally.failures.push(`${kind} error: ${String((error as Error).cause ?? error)}`);
    }
    return false;
  };
  const shopper = async (cookie: string) => {
    while (running) {
      await call("page", 200, "GET", "/", cookie);
      await call("json", 200, "GET", "/api/products", cookie);
      if (await call("cart", 201, "POST", "/api/cart/items", cookie, { productId, quantity: 1 })) tally.added++;
      if (await call("order", 201, "POST", "/api/orders", cookie, { ...shipping, idempotencyKey: `two-copies-${randomUUID()}` })) tally.placed++;
    }
  };
  const done = Promise.all(cookies.map((cookie) => shopper(cookie)));
  return {
    tally,
    total: () => Object.values(tally.sent).reduce((a, b) => a + b, 0),
    stop: async () => {
      running = false;
      await done;
      return tally;
    },
  };
}
