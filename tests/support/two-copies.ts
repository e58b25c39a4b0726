import { randomUUID } from "node:crypto";
import { request } from "undici";
import { startNginx as startProxy, stopNginx, waitForNginx as waitForProxy, type Nginx } from "./nginx.ts";

// Several server copies behind Debian's nginx, and a mixed shoppers' load through it: for the restart test
// (tests/e2e/two-copies-restart.spec.ts) and the CPU bench (bench/two-copies-cpu.ts). The nginx settings are the
// ones the README recommends for running several copies.

export interface BalancingNginx extends Nginx {
  url: string;
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
 * The http block's body with the copies on `downPorts` marked `down`: how a copy is taken out before it is stopped
 * (README, "Running several copies"). nginx reloads its workers on SIGHUP without dropping a request.
 */
function balancingConfig(port: number, upstreamPorts: number[], downPorts: number[]): string {
  const upstream = upstreamConfig(upstreamPorts).replace(/server 127\.0\.0\.1:(\d+) ([^;]*);/g, (line, copyPort: string, rest: string) =>
    downPorts.includes(Number(copyPort)) ? `server 127.0.0.1:${copyPort} ${rest} down;` : line,
  );
  return `  ${upstream}
  server {
    listen 127.0.0.1:${port};
    location / {
      ${LOCATION_CONFIG}
    }
  }`;
}

/** nginx on loopback `port`, in a folder of its own, balancing over the copies on `upstreamPorts`. */
export function startNginx(port: number, upstreamPorts: number[]): BalancingNginx {
  const nginx = startProxy(() => balancingConfig(port, upstreamPorts, []));
  return { ...nginx, url: `http://127.0.0.1:${port}`, route: (downPorts) => nginx.reload(balancingConfig(port, upstreamPorts, downPorts)) };
}

/** Until nginx passes /healthz through (or exits, or 30 s pass). */
export function waitForNginx(nginx: BalancingNginx) {
  return waitForProxy(nginx, () => fetch(`${nginx.url}/healthz`).then((r) => r.status, () => undefined));
}

export { stopNginx };

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
