import { randomInt, randomUUID } from "node:crypto";
import os from "node:os";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import { Pool } from "undici";
import { openDatabase, type Database } from "../server/platform/db/client.ts";
import { createProduct } from "../tests/support/factories.ts";
import { cpuMs, machineCpuMs, postgresCpuMs } from "./proc.ts";
import { percentile } from "./statistics.ts";
import { benchCheckoutBare } from "./checkout-bare.ts";
import { createPostgresDatabase, insertShoppers, startShopProcess, stopShopProcess, waitUntilHealthy, type ShopProcess } from "../tests/support/shop-process.ts";

// Checkout under load: one production server on a fresh PostgreSQL database and fifty signed-in shoppers, in
// six phases of BENCH_SECONDS each on the same server:
//   1. baseline: every shopper reads their cart (GET /api/cart), a cheap authenticated request;
//   2. plenty: every shopper puts 1–3 units of a well-stocked plant in the cart and orders, over and over;
//   3. scarce: the same with a plant whose stock is topped up at half the rate phase 2 sold, so that many
//      checkouts are refused for lack of stock (and the refused shopper empties the cart and tries again);
//   4. with a coupon: plenty's add and order with a 10 % code applied between them (three requests an order);
//   5. the same orders with the code put on each cart by the bench itself (no apply request): an order's own cost;
//   6. the apply alone: PUT /api/cart/coupon over and over on a cart holding a line, to tell phase 4's apart.
// Prints each phase's rate and latency, and the checkout phases' order requests per second as a ratio to the
// baseline's reads per second (a ratio against a baseline measured in the same run, so a slower or busier machine
// moves both alike). Then checks against the database, per plant, that no unit was lost or oversold:
// stock + units sold = initial stock + units restocked. Nothing here asserts a speed.
export const SHOPPERS = 50;
const PLENTY = 100_000;
const SCARCE_START = 20;
const RESTOCK_EVERY_MS = 50;
const CONFIRM_EVERY_MS = 50;
/**
 * Checkouts before the measured phases, not counted (BENCH_CHECKOUT_WARMUP_SECONDS): a server that has just started
 * has not compiled its checkout path yet, and a running shop has (checkout-ab.ts warms up the same way).
 */
const WARMUP_SECONDS = Number(process.env.BENCH_CHECKOUT_WARMUP_SECONDS ?? 3);
// Its own port, overridable so that parallel runs on one machine do not meet (BENCH_CHECKOUT_PORT); more server
// copies, on the ports after it, with BENCH_CHECKOUT_SERVERS (default 1): each shopper talks to one copy, and all
// copies share the one PostgreSQL database, as several containers would (more cores for the same database:
// docs/performance.md, "Checkout: round trips and CPU per order").
const PORT = Number(process.env.BENCH_CHECKOUT_PORT ?? 4611);
const SERVERS = Math.max(1, Number(process.env.BENCH_CHECKOUT_SERVERS ?? 1));
const shipping = { name: "Asha Kulkarni", phone: "+91 98765 43210", address: "12 Garden Road\nPune 411001" };

export interface Tally {
  /** Requests measured: cart reads in the baseline, order requests in the checkout phases. */
  requests: number;
  placed: number;
  /** Orders refused for lack of stock (409). */
  refused: number;
  /** Adds to the cart refused for lack of stock (409): the shopper tries again. */
  addsRefused: number;
  unitsSold: number;
  latencies: number[];
  /** Other answers and network errors, by request and status ("cart 409", "order error"…). */
  failures: Map<string, number>;
}

export interface Measured {
  tally: Tally;
  seconds: number;
  /** CPU time used in the phase (Linux /proc), ms; undefined where unknown. */
  cpu?: CpuUse | undefined;
}

/** CPU time (user + system, ms) of the programs that share the machine in a phase, and of the machine itself. */
interface CpuUse {
  server: number;
  /** Every `postgres` process: the backends serving the server's pool, and PostgreSQL's own writers. */
  postgres: number;
  /** This process: the fifty shoppers' HTTP clients. */
  loadGenerator: number;
  /** All cores together: time not idle, and all time. */
  machineBusy: number;
  machineTotal: number;
}

/** Starts counting; the function it answers gives the CPU used since. Undefined where /proc is missing. */
function startCpuClock(serverPids: (number | undefined)[]): () => CpuUse | undefined {
  /** All the server copies' CPU time so far; undefined when any cannot be read. */
  const serversCpuMs = () => {
    let sum = 0;
    for (const pid of serverPids) {
      const ms = cpuMs(pid);
      if (ms === undefined) return undefined;
      sum += ms;
    }
    return sum;
  };
  try {
    const server = serversCpuMs();
    const postgres = postgresCpuMs();
    const self = process.cpuUsage();
    const machine = machineCpuMs();
    if (server === undefined) return () => undefined;
    return () => {
      const serverNow = serversCpuMs();
      if (serverNow === undefined) return undefined;
      let postgresUsed = 0;
      for (const [pid, ms] of postgresCpuMs()) postgresUsed += ms - (postgres.get(pid) ?? 0);
      const selfUsed = process.cpuUsage(self);
      const machineNow = machineCpuMs();
      return {
        server: serverNow - server,
        postgres: postgresUsed,
        loadGenerator: (selfUsed.user + selfUsed.system) / 1000,
        machineBusy: machineNow.busy - machine.busy,
        machineTotal: machineNow.total - machine.total,
      };
    };
  } catch {
    return () => undefined;
  }
}

/** A signed-in shopper and the server copy they use. */
export interface Shopper {
  url: string;
  cookie: string;
  /** The account's id, where the bench writes for the shopper (a code put on the cart: buy's `placeCode`). */
  userId?: string;
}

export type Step = (shopper: Shopper, tally: Tally) => Promise<void>;

const fail = (tally: Tally, what: string) => tally.failures.set(what, (tally.failures.get(what) ?? 0) + 1);

/** An answer's status and its body, read (or thrown away) by the caller. */
interface Answer {
  status: number;
  ok: boolean;
  json: () => Promise<unknown>;
  discard: () => Promise<void>;
}

/**
 * The shoppers' HTTP client: undici's Pool, one kept-alive connection per shopper. Not fetch: on a two-core machine
 * the load generator shares the cores with the server and PostgreSQL, and fetch's web streams and Request objects
 * cost it about twice the CPU per request that the pool's own request does (docs/performance.md, "Checkout: round
 * trips and CPU per order").
 */
const pools = new Map<string, Pool>();

/** Closes the shoppers' connections (at the end of a bench). */
export async function closeClients(): Promise<void> {
  for (const pool of pools.values()) await pool.close();
  pools.clear();
}

async function call({ url, cookie }: Shopper, method: "GET" | "POST" | "PUT" | "DELETE", pathname: string, body?: unknown): Promise<Answer> {
  let pool = pools.get(url);
  if (!pool) pools.set(url, (pool = new Pool(url, { connections: Math.ceil(SHOPPERS / SERVERS), pipelining: 1 })));
  const headers: Record<string, string> = { origin: url, cookie };
  if (body !== undefined) headers["content-type"] = "application/json";
  const answer = await pool.request({ method, path: pathname, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return {
    status: answer.statusCode,
    ok: answer.statusCode >= 200 && answer.statusCode < 300,
    json: () => answer.body.json(),
    discard: () => answer.body.dump(),
  };
}

/** Times one request into the tally; network errors are counted as failures of `what`. */
async function timed(tally: Tally, what: string, request: () => Promise<Answer>): Promise<Answer | undefined> {
  const started = performance.now();
  try {
    const response = await request();
    tally.latencies.push(performance.now() - started);
    tally.requests++;
    return response;
  } catch {
    fail(tally, `${what} error`);
    return undefined;
  }
}

/** The baseline: one cart read. */
export const readCart: Step = async (shopper, tally) => {
  const response = await timed(tally, "read", () => call(shopper, "GET", "/api/cart"));
  await response?.discard();
  if (response && !response.ok) fail(tally, `read ${response.status}`);
};

/**
 * Puts 1–3 units of the plant in the cart and orders; after a refusal for lack of stock, removes the line. With a
 * `coupon`, applies it to the cart between the two (each order takes the code off the cart), so an order costs
 * three requests, all counted in the CPU per order.
 */
export function buy(productId: string, coupon?: string, placeCode?: (shopper: Shopper) => Promise<void>): Step {
  return async (shopper, tally) => {
    let cart: { lines: { id: string; productId: string }[] };
    try {
      const added = await call(shopper, "POST", "/api/cart/items", { productId, quantity: randomInt(1, 4) });
      if (!added.ok) {
        await added.discard();
        if (added.status === 409) tally.addsRefused++;
        else fail(tally, `cart ${added.status}`);
        return;
      }
      cart = (await added.json()) as typeof cart;
      if (placeCode) await placeCode(shopper);
      else if (coupon) {
        const applied = await call(shopper, "PUT", "/api/cart/coupon", { code: coupon });
        await applied.discard();
        if (!applied.ok) return void fail(tally, `coupon ${applied.status}`);
      }
    } catch {
      return void fail(tally, "cart error");
    }
    const response = await timed(tally, "order", () => call(shopper, "POST", "/api/orders", { ...shipping, idempotencyKey: `bench-${randomUUID()}` }));
    if (!response) return;
    const body = (await response.json()) as { lines?: { productId: string; quantity: number }[] };
    if (response.status === 201) {
      tally.placed++;
      tally.unitsSold += (body.lines ?? []).filter((l) => l.productId === productId).reduce((n, l) => n + l.quantity, 0);
    } else if (response.status === 409) {
      tally.refused++;
      const line = cart.lines.find((l) => l.productId === productId);
      if (line) await call(shopper, "DELETE", `/api/cart/items/${line.id}`).then((r) => r.discard(), () => fail(tally, "remove error"));
    } else {
      fail(tally, `order ${response.status}`);
    }
  };
}

/**
 * Applies the code to the shopper's cart, which holds a line (the phase puts one there first), over and over: what
 * one apply costs alone, so that the coupon phase's three requests per order can be told apart (an order with a
 * code: add and order, the coupon phase's cost less an apply's).
 */
export function applyCode(code: string): Step {
  return async (shopper, tally) => {
    const response = await timed(tally, "coupon", () => call(shopper, "PUT", "/api/cart/coupon", { code }));
    await response?.discard();
    if (response && !response.ok) fail(tally, `coupon ${response.status}`);
  };
}

/** Puts one unit of the plant in each shopper's cart (before a phase of applies), uncounted. */
async function fillCarts(shoppers: Shopper[], productId: string) {
  await Promise.all(shoppers.map((shopper) => call(shopper, "POST", "/api/cart/items", { productId, quantity: 1 }).then((r) => r.discard())));
}

/** Every shopper repeats `step` until the phase's time is up. */
export async function runPhase<S = Shopper>(shoppers: S[], seconds: number, step: (shopper: S, tally: Tally) => Promise<void>, serverPids: (number | undefined)[]): Promise<Measured> {
  const cpuSince = startCpuClock(serverPids);
  const tally: Tally = { requests: 0, placed: 0, refused: 0, addsRefused: 0, unitsSold: 0, latencies: [], failures: new Map() };
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    shoppers.map(async (shopper) => {
      while (performance.now() < deadline) await step(shopper, tally);
    }),
  );
  const cpu = cpuSince();
  return { tally, seconds: (performance.now() - started) / 1000, cpu };
}

/**
 * The shop's order desk while `run` lasts: every CONFIRM_EVERY_MS it moves the pending orders on to processing, as an
 * owner confirming them would. The shoppers keep the default cap on pending orders (MAX_PENDING_ORDERS, 5), as real
 * ones do; without the desk each would stop at the cap within a second. (Raising the cap to 1,000 instead would
 * make every checkout count a pending history that grows through the run: its PostgreSQL CPU per order doubled
 * between the first and the second half of a minute's load when the bench did so.)
 */
export function withOrderDesk<T>({ db }: Pick<Database, "db">, run: () => Promise<T>): Promise<T> {
  return whileRunning(
    CONFIRM_EVERY_MS,
    async () => {
      await db.updateTable("orders").set({ status: "processing", updated_at: new Date().toISOString() }).where("status", "=", "pending").execute();
    },
    run,
  );
}

/** Runs `tick` every `everyMs` while `run` lasts, one tick at a time; waits for the last tick before answering. */
async function whileRunning<T>(everyMs: number, tick: () => Promise<void>, run: () => Promise<T>): Promise<T> {
  let pending = Promise.resolve();
  const timer = setInterval(() => (pending = pending.then(tick)), everyMs);
  try {
    return await run();
  } finally {
    clearInterval(timer);
    await pending;
  }
}

/**
 * Tops the plant's stock up every RESTOCK_EVERY_MS while `run` lasts; answers how many units it added. The plant has
 * one size (createProduct's, under the product's id): its stock is what the shop sells from and the product's is their
 * total, so both rows are topped up, in one transaction, the product's row first as the checkout locks them
 * (withStockTaken), so that the two never wait for each other in turn.
 */
async function restocking<T>({ db }: Database, productId: string, unitsPerTick: number, run: () => Promise<T>): Promise<{ result: T; restocked: number }> {
  let restocked = 0;
  const result = await whileRunning(
    RESTOCK_EVERY_MS,
    async () => {
      await db.transaction().execute(async (trx) => {
        await trx.updateTable("products").set({ stock: sql`stock + ${unitsPerTick}` }).where("id", "=", productId).execute();
        await trx.updateTable("product_variants").set({ stock: sql`stock + ${unitsPerTick}` }).where("id", "=", productId).execute();
      });
      restocked += unitsPerTick;
    },
    run,
  );
  // Counted only now: a top-up still running when the phase ended has been made and must be counted.
  return { result, restocked };
}

function row(label: string, { tally, seconds, cpu }: Measured, baselinePerSecond: number) {
  const perRequest = (ms: number | undefined) => (ms === undefined || !tally.requests ? "?" : (ms / tally.requests).toFixed(2));
  const perSecond = tally.requests / seconds;
  const latencies = [...tally.latencies].sort((a, b) => a - b);
  const ms = [50, 95, 99].map((p) => percentile(latencies, p).toFixed(1)).join("/");
  const failures = [...tally.failures.values()].reduce((n, v) => n + v, 0);
  const detail = tally.failures.size ? `  (${[...tally.failures].map(([what, n]) => `${what}: ${n}`).join(", ")})` : "";
  return (
    [
      label.padEnd(30),
      perSecond.toFixed(1).padStart(11),
      (perSecond / baselinePerSecond).toFixed(3).padStart(11),
      ms.padStart(18),
      String(tally.placed).padStart(8),
      String(tally.refused).padStart(8),
      String(tally.addsRefused).padStart(13),
      String(failures).padStart(9),
      perRequest(cpu?.server).padStart(7),
      perRequest(cpu?.postgres).padStart(11),
      perRequest(cpu?.loadGenerator).padStart(11),
      (cpu ? `${((100 * cpu.machineBusy) / cpu.machineTotal).toFixed(0)}%` : "?").padStart(13),
    ].join(" ") + detail
  );
}

/**
 * What the machine can give checkout at most: the CPU one order costs all three programs together, against the
 * cores there are. The rate cannot pass cores × 1000 / that cost, whatever the waits (docs/performance.md,
 * "Checkout: round trips and CPU per order").
 */
function printCpuBudget({ tally, cpu }: Measured, phase = "plenty phase") {
  if (!cpu || !tally.requests) return;
  const [server, postgres, loadGenerator] = [cpu.server, cpu.postgres, cpu.loadGenerator].map((ms) => ms / tally.requests) as [number, number, number];
  const perOrder = server + postgres + loadGenerator;
  const cores = os.cpus().length;
  console.log(
    `CPU per order, ${phase}: ${server.toFixed(2)} server + ${postgres.toFixed(2)} PostgreSQL + ${loadGenerator.toFixed(2)} load generator = ${perOrder.toFixed(2)} ms; ` +
      `${cores} cores fully used give at most ${((cores * 1000) / perOrder).toFixed(0)} orders/s at that cost; the ${SERVERS === 1 ? "server's one JavaScript thread" : `${SERVERS} servers' JavaScript threads`}, ${((SERVERS * 1000) / server).toFixed(0)}`,
  );
}

/**
 * The coupon phase's server CPU per order told apart: an apply's (measured alone) and the rest, the add and the order
 * with the code, set beside the plenty phase's add and order. Arithmetic on two phases of the same run, said so.
 */
function printCouponShare(plenty: Measured, withCoupon: Measured, applying: Measured) {
  const perRequest = (m: Measured) => (m.cpu && m.tally.requests ? m.cpu.server / m.tally.requests : undefined);
  const [without, all, apply] = [perRequest(plenty), perRequest(withCoupon), perRequest(applying)];
  if (without === undefined || all === undefined || apply === undefined) return;
  const own = all - apply;
  console.log(
    `Server CPU per order with a code: ${all.toFixed(2)} ms for add, apply and order; an apply alone ${apply.toFixed(2)} ms; so add and order ` +
      `${own.toFixed(2)} ms against ${without.toFixed(2)} ms without a code (${(((own - without) / without) * 100).toFixed(0)} %; the difference of two phases, not measured alone)`,
  );
}

/**
 * stock + units sold = initial + restocked, with the units sold counted by the answers and by the database; the stock
 * of the plant's only size, which must equal the product's total.
 */
async function checkInvariant({ db }: Database, label: string, productId: string, initial: number, restocked: number, unitsAnswered: number): Promise<boolean> {
  const { stock } = await db.selectFrom("product_variants").select("stock").where("id", "=", productId).executeTakeFirstOrThrow();
  const { stock: total } = await db.selectFrom("products").select("stock").where("id", "=", productId).executeTakeFirstOrThrow();
  const stored = await db.selectFrom("order_lines").select((eb) => eb.fn.sum<number>("quantity").as("units")).where("product_id", "=", productId).executeTakeFirstOrThrow();
  const unitsStored = Number(stored.units ?? 0);
  const ok = stock + unitsAnswered === initial + restocked && unitsStored === unitsAnswered && total === stock;
  console.log(
    `${label}: stock + sold = initial + restocked: ${ok ? "OK" : "FAILED"} (${stock} + ${unitsAnswered} = ${stock + unitsAnswered}; ${initial} + ${restocked} = ${initial + restocked}; units on order lines in the database: ${unitsStored}; the product's total ${total})`,
  );
  return ok;
}

/**
 * The checkout bench (run at the end of bench/run.ts, or alone: `tsx bench/checkout.ts`). Needs PostgreSQL:
 * BENCH_DATABASE_URL or TEST_DATABASE_URL names a server on which it creates, and afterwards drops, a database
 * of its own.
 */
export async function benchCheckout(): Promise<void> {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    console.log("\nCheckout bench skipped: it needs PostgreSQL (set BENCH_DATABASE_URL or TEST_DATABASE_URL to postgres://…).");
    return;
  }
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  // The bench orders over and over with few shoppers to measure throughput, not abuse: the server it starts gets
  // rate limits that never refuse it (docs/decisions/014), passed explicitly, as a test server inherits nothing of
  // this process's environment (tests/support/shop-process.ts). The cap on pending orders stays; the order desk
  // (withOrderDesk) confirms them.
  const generousLimits = { RATE_LIMIT_SCALE: "10000" };
  // BENCH_SERVER_NODE_OPTIONS reaches the server's node as NODE_OPTIONS. Node refuses --cpu-prof there: for a
  // profile, --require a file that starts node:inspector's Profiler and writes it out on SIGTERM.
  const nodeOptions = process.env.BENCH_SERVER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS } : {};
  // The plain script's first half, before the shop's server starts (printBareRatio).
  const bareBefore = await benchCheckoutBare(adminUrl, seconds / 2, WARMUP_SECONDS);
  const target = await createPostgresDatabase(adminUrl, "plant_shop_bench");
  const servers: ShopProcess[] = [];
  let database: Database | undefined;
  let plentiful: Measured;
  try {
    for (let copy = 0; copy < SERVERS; copy++) servers.push(startShopProcess({ port: PORT + copy, databaseUrl: target.url, env: { ...generousLimits, ...nodeOptions } }));
    for (const server of servers) await waitUntilHealthy(server);
    database = openDatabase({ databaseUrl: target.url, poolSize: 2 });
    const { db } = database;
    const plenty = await createProduct(db, { name: "Bench Monstera", price_paise: 49_900, stock: PLENTY });
    const scarce = await createProduct(db, { name: "Bench Bonsai", price_paise: 249_900, stock: SCARCE_START });
    const shoppers = (await insertShoppers(db, SHOPPERS, { password: "monstera-deliciosa-77", prefix: "bench" })).map(({ cookie, userId }, i) => ({ url: servers[i % SERVERS]!.url, cookie, userId }));
    const pids = servers.map((server) => server.child.pid);

    if (WARMUP_SECONDS > 0) {
      const warmUp = await createProduct(db, { name: "Bench Warm-up Fern", price_paise: 19_900, stock: PLENTY });
      await withOrderDesk({ db }, () => runPhase(shoppers, WARMUP_SECONDS, buy(warmUp.id), pids));
    }
    const baseline = await runPhase(shoppers, seconds, readCart, pids);
    plentiful = await withOrderDesk({ db }, () => runPhase(shoppers, seconds, buy(plenty.id), pids));
    // Supply at half the rate the plentiful phase sold, so that about every other checkout finds too little.
    const unitsPerTick = Math.max(1, Math.round((plentiful.tally.unitsSold / plentiful.seconds / 2) * (RESTOCK_EVERY_MS / 1000)));
    const { result: scarcity, restocked } = await restocking(database, scarce.id, unitsPerTick, () => withOrderDesk({ db }, () => runPhase(shoppers, seconds, buy(scarce.id), pids)));
    // The same as "plenty", every order with a 10 % code without a use limit (docs/decisions/046): its CPU per order
    // beside plenty's is what a code costs (the apply request, the judgement on the cart and in the order, the count).
    const couponed = await createProduct(db, { name: "Bench Coupon Monstera", price_paise: 49_900, stock: PLENTY });
    const couponId = randomUUID();
    await db
      .insertInto("coupons")
      .values({ id: couponId, code: "BENCH10", kind: "percent", amount: 10, min_subtotal_paise: null, starts_at: null, ends_at: null, max_uses: null, once_per_customer: false, paused: false, created_at: new Date().toISOString() })
      .execute();
    const withCoupon = await withOrderDesk({ db }, () => runPhase(shoppers, seconds, buy(couponed.id, "BENCH10"), pids));
    // The order's own cost with a code: the bench puts the code on each cart itself (one row, as the apply stores it,
    // from this process, like the order desk's updates), so the server answers an add and an order, as in plenty.
    const placeCode = async ({ userId }: Shopper) => {
      await db.insertInto("cart_coupons").values({ user_id: userId!, coupon_id: couponId }).onConflict((oc) => oc.column("user_id").doUpdateSet({ coupon_id: couponId })).execute();
    };
    const codePlaced = await withOrderDesk({ db }, () => runPhase(shoppers, seconds, buy(couponed.id, "BENCH10", placeCode), pids));
    // The apply alone: each cart holds a line of the coupon's plant, and the shoppers apply the code over and over.
    await fillCarts(shoppers, couponed.id);
    const applying = await runPhase(shoppers, seconds, applyCode("BENCH10"), pids);

    const baselinePerSecond = baseline.tally.requests / baseline.seconds;
    const serving = SERVERS === 1 ? "one server" : `${SERVERS} server copies (each shopper on one)`;
    console.log(`\nCheckout bench: ${SHOPPERS} shoppers, ${seconds}s a phase after ${WARMUP_SECONDS}s of uncounted checkouts, ${serving} on PostgreSQL, loopback, ${os.cpus().length} cores, Node ${process.version}`);
    console.log("(an order costs two requests: add to cart, then the order; the rates count the order requests)");
    console.log("(CPU ms per request counted, add to cart included in checkouts: the server processes, every PostgreSQL process, and");
    console.log(" this bench's own HTTP clients; machine busy: all cores, in the phase)");
    console.log("phase                           requests/s  ÷ baseline    p50/p95/p99 ms   placed  refused  adds refused  failures  server  PostgreSQL  load gen.  machine busy");
    console.log(row("baseline: GET /api/cart", baseline, baselinePerSecond));
    console.log(row("checkout, plenty of stock", plentiful, baselinePerSecond));
    console.log(row(`checkout, scarce (+${unitsPerTick}/${RESTOCK_EVERY_MS}ms)`, scarcity, baselinePerSecond));
    console.log(row("checkout with a coupon", withCoupon, baselinePerSecond));
    console.log(row("code on the cart, no apply", codePlaced, baselinePerSecond));
    console.log(row("apply a code (PUT, alone)", applying, baselinePerSecond));
    printCpuBudget(plentiful);
    printCpuBudget(withCoupon, "checkout with a coupon");
    printCouponShare(plentiful, withCoupon, applying);
    const own = (m: Measured) => (m.cpu && m.tally.requests ? m.cpu.server / m.tally.requests : Number.NaN);
    console.log(
      `Server CPU per order, add and order, the code put on the cart by the bench: ${own(codePlaced).toFixed(2)} ms against ${own(plentiful).toFixed(2)} ms without a code ` +
        `(${(((own(codePlaced) - own(plentiful)) / own(plentiful)) * 100).toFixed(0)} %, measured)`,
    );

    const ok = [
      await checkInvariant(database, "plenty", plenty.id, PLENTY, 0, plentiful.tally.unitsSold),
      await checkInvariant(database, "scarce", scarce.id, SCARCE_START, restocked, scarcity.tally.unitsSold),
      await checkInvariant(database, "coupon", couponed.id, PLENTY, 0, withCoupon.tally.unitsSold + codePlaced.tally.unitsSold),
    ].every(Boolean);
    if (!ok) process.exitCode = 1;
  } finally {
    await closeClients();
    await database?.destroy();
    for (const server of servers) await stopShopProcess(server);
    await target.drop();
  }
  const bareAfter = await benchCheckoutBare(adminUrl, seconds / 2, WARMUP_SECONDS);
  await printBareRatio(plentiful, [bareBefore, bareAfter]);
}

/**
 * The plain script that runs the checkout's own statements (bench/checkout-bare.ts), each time on a fresh database of
 * its own: half of the phase's seconds before the shop's server starts and half after it stopped, so that a machine
 * whose speed drifts through the bench moves the script's rate as it moved the shop's in between. Then the shop's
 * orders per second with plenty of stock as a ratio of the script's (the goal: at least 0.5).
 */
async function printBareRatio(shop: Measured, bare: Measured[]) {
  const together: Measured = {
    tally: {
      requests: sum(bare, (m) => m.tally.requests),
      placed: sum(bare, (m) => m.tally.placed),
      refused: sum(bare, (m) => m.tally.refused),
      addsRefused: sum(bare, (m) => m.tally.addsRefused),
      unitsSold: sum(bare, (m) => m.tally.unitsSold),
      latencies: bare.flatMap((m) => m.tally.latencies),
      failures: new Map(bare.flatMap((m) => [...m.tally.failures])),
    },
    seconds: sum(bare, (m) => m.seconds),
    cpu: bare.every((m) => m.cpu)
      ? {
          server: sum(bare, (m) => m.cpu!.server),
          postgres: sum(bare, (m) => m.cpu!.postgres),
          loadGenerator: sum(bare, (m) => m.cpu!.loadGenerator),
          machineBusy: sum(bare, (m) => m.cpu!.machineBusy),
          machineTotal: sum(bare, (m) => m.cpu!.machineTotal),
        }
      : undefined,
  };
  const rates = bare.map((m) => (m.tally.requests / m.seconds).toFixed(1)).join(" before, ");
  const ratio = shop.tally.requests / shop.seconds / (together.tally.requests / together.seconds);
  console.log(row("bare SQL script, plenty", together, Number.NaN).replace(/ +NaN/, "          –"));
  console.log(`(${rates} after the shop's phases; its server and load gen. columns are both the script's own process, which also runs the order desk)`);
  console.log(
    `checkout, plenty of stock: the shop's orders/s ÷ the bare SQL script's (the same statements, no HTTP or framework): ${ratio.toFixed(3)} ` +
      `(${(shop.tally.requests / shop.seconds).toFixed(1)} ÷ ${(together.tally.requests / together.seconds).toFixed(1)}; goal ≥ 0.5)`,
  );
}

const sum = <T>(list: T[], of: (item: T) => number) => list.reduce((n, item) => n + of(item), 0);

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  benchCheckout().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
