import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { PRODUCTION_NODE_FLAGS } from "../tests/support/server-env.ts";
import { inTurn } from "./in-turn.ts";
import { median } from "./statistics.ts";

// A product page during a sale: its throughput while the owner edits its stock 20 times a second (through the
// owner's real API, on a connection of its own, from a process of its own so that it never waits behind the load
// generator's event loop nor slows it), against the same page quiet, measured in turn in one run
// (docs/decisions/044). Each stock edit keeps the plant in stock, as most sales do. Asserts nothing.
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Math.max(1, Number(process.env.BENCH_THROUGHPUT_ROUNDS ?? 4));
const CONNECTIONS = 50;
/** BENCH_SALE_PORT: the shop's port for this part; by default the one after the bare server's (BENCH_PORT + 2), else 4613. */
const PORT = Number(process.env.BENCH_SALE_PORT ?? (process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) + 2 : 4613));
/** Stock edits per second during the sale. */
const EDITS_PER_SECOND = Number(process.env.BENCH_SALE_EDITS_PER_SECOND ?? 20);
const OWNER = { email: "owner@bench.example", password: "green-thumb-2026" };

export interface SaleResult {
  quiet: number[];
  sale: number[];
  ratios: number[];
  /** Stock edits the owner's loop made per second, per sale round. */
  editRates: number[];
  /** After the last edit of the run: ms until an anonymous visitor without JavaScript saw the last stock. */
  settledMs: number;
}

async function untilHealthy(url: string) {
  for (let i = 0; i < 300; i++) {
    if (await fetch(url).then((r) => r.ok, () => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not become healthy`);
}

/** The owner's session: signed in through the shop's own API, as the admin screens do. */
async function signIn(shopUrl: string): Promise<string> {
  const response = await fetch(`${shopUrl}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: shopUrl },
    body: JSON.stringify(OWNER),
  });
  if (!response.ok) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

/**
 * Edits the stock at `perSecond`, one edit at a time (the next waits for the answer), each with the stock it
 * replaces, between 43 and 59: never out of stock. Returns a stop function answering how many edits were made.
 */
function editLoop(shopUrl: string, cookie: string, productId: string, state: { stock: number }, perSecond: number) {
  let running = true;
  let edits = 0;
  const done = (async () => {
    const started = performance.now();
    while (running) {
      const stock = 50 + ((state.stock - 49) % 10);
      const response = await fetch(`${shopUrl}/api/admin/products/${productId}/stock`, {
        method: "PATCH",
        headers: { "Content-Type": "application/json", Origin: shopUrl, Cookie: cookie },
        body: JSON.stringify({ stock, stockBefore: state.stock }),
      });
      if (!response.ok) throw new Error(`stock edit failed: ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
      state.stock = stock;
      edits++;
      // Paced to the rate: the edit after n edits is due at started + n / perSecond.
      const due = started + (edits * 1000) / perSecond;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
  })();
  return async () => {
    running = false;
    await done;
    return edits;
  };
}

/**
 * The edit loop in a child process (this file with `--edit-loop`), started once: `start()` begins a sale, whose
 * stop function answers the edits made; `close()` ends the process.
 */
async function editsElsewhere(shopUrl: string, cookie: string, productId: string, state: { stock: number }) {
  const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), "--edit-loop"], {
    env: { ...process.env, SALE_SHOP: shopUrl, SALE_COOKIE: cookie, SALE_PRODUCT: productId, SALE_STOCK: String(state.stock) },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const next = () =>
    new Promise<{ edits: number; stock: number }>((resolve, reject) => {
      const exited = (code: number | null) => reject(new Error(`the edit loop exited (${code})`));
      child.once("exit", exited);
      child.once("message", (message) => {
        child.off("exit", exited);
        resolve(message as { edits: number; stock: number });
      });
    });
  await next(); // ready
  return {
    start() {
      child.send("start");
      return async () => {
        const answer = next();
        child.send("stop");
        const { edits, stock } = await answer;
        state.stock = stock;
        return edits;
      };
    },
    async close() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.send("exit");
      await exited;
    },
  };
}

/** The child's side: a sale on each "start" until "stop" (answering the edits made and the stock left), until "exit". */
function runEditLoop() {
  const state = { stock: Number(process.env.SALE_STOCK) };
  let stop: (() => Promise<number>) | undefined;
  process.on("message", async (message) => {
    if (message === "start") stop = editLoop(process.env.SALE_SHOP!, process.env.SALE_COOKIE!, process.env.SALE_PRODUCT!, state, EDITS_PER_SECOND);
    else if (message === "stop" && stop) process.send!({ edits: await stop(), stock: state.stock });
    else if (message === "exit") process.disconnect();
  });
  process.send!({ edits: 0, stock: state.stock });
}

async function load(url: string, seconds: number) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds });
  return { rate: result.requests.total / result.duration, failures: result.non2xx + result.errors + result.timeouts };
}

/** Starts a production shop with an owner account on a fresh data folder, measures, prints and stops it. */
export async function benchSale(): Promise<SaleResult> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "plant-shop-sale-"));
  const shopUrl = `http://127.0.0.1:${PORT}`;
  const child: ChildProcess = spawn(process.execPath, [...PRODUCTION_NODE_FLAGS, "build/server/main.js"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(PORT),
      PUBLIC_URL: shopUrl,
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      ADMIN_EMAIL: OWNER.email,
      ADMIN_PASSWORD: OWNER.password,
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  try {
    await untilHealthy(`${shopUrl}/healthz`);
    const product = ((await (await fetch(`${shopUrl}/api/products?limit=1`)).json()) as { items: { id: string; stock: number }[] }).items[0]!;
    const cookie = await signIn(shopUrl);
    const state = { stock: product.stock };
    const owner = await editsElsewhere(shopUrl, cookie, product.id, state);
    const page = `${shopUrl}/product/${product.id}`;
    await autocannon({ url: page, connections: CONNECTIONS, duration: 1 });
    const seconds = SECONDS / ROUNDS;
    const editRates: number[] = [];
    let failures = 0;
    const rounds = await inTurn(
      ROUNDS,
      async () => {
        const quiet = await load(page, seconds);
        failures += quiet.failures;
        return quiet.rate;
      },
      async () => {
        const stop = owner.start();
        const started = performance.now();
        const sale = await load(page, seconds);
        const edits = await stop();
        editRates.push(edits / ((performance.now() - started) / 1000));
        failures += sale.failures;
        return sale.rate;
      },
    );
    await owner.close();
    // A visitor without JavaScript: how long after the last edit the page they are sent shows its stock.
    const lastEdit = performance.now();
    const shows = `Available Stock: ${state.stock}<`;
    let settledMs = Number.NaN;
    for (let i = 0; i < 200; i++) {
      if ((await (await fetch(page)).text()).includes(shows)) {
        settledMs = performance.now() - lastEdit;
        break;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    const result: SaleResult = {
      quiet: rounds.a,
      sale: rounds.b,
      ratios: rounds.a.map((quiet, round) => rounds.b[round]! / quiet),
      editRates,
      settledMs,
    };
    printSale(result, failures);
    return result;
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function printSale(result: SaleResult, failures: number) {
  const range = (values: number[]) => `${median(values).toFixed(3)} (${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)})`;
  console.log(
    `\nA product page during a sale: ${CONNECTIONS} connections, ${ROUNDS} rounds of ${(SECONDS / ROUNDS).toFixed(1)}s each, quiet and under the owner's stock edits in turn`,
  );
  console.log("path              quiet req/s   sale req/s   edits/s   sale/quiet (range)   last stock shown after   failures");
  console.log(
    [
      "/product/{id}".padEnd(16),
      median(result.quiet).toFixed(0).padStart(12),
      median(result.sale).toFixed(0).padStart(12),
      median(result.editRates).toFixed(1).padStart(9),
      range(result.ratios).padStart(20),
      `${result.settledMs.toFixed(0)} ms`.padStart(24),
      String(failures).padStart(10),
    ].join(" "),
  );
}

if (process.argv.includes("--edit-loop")) runEditLoop();
else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  benchSale().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
