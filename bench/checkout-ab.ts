import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { openDatabase, type Database } from "../server/platform/db/client.ts";
import { createProduct } from "../tests/support/factories.ts";
import { createPostgresDatabase, insertShoppers, startShopProcess, stopShopProcess, waitUntilHealthy, type ShopProcess } from "../tests/support/shop-process.ts";
import { inTurn } from "./in-turn.ts";
import { median } from "./statistics.ts";
import { buy, closeClients, readCart, runPhase, SHOPPERS, withOrderDesk, type Measured, type Step } from "./checkout.ts";

// Two builds of the server, compared on the checkout bench's own phases, in turn (bench/in-turn.ts): A, B, B, A…
// for AB_ROUNDS rounds of AB_SECONDS each. This machine's speed drifts by ±30 % within minutes (other programs, the
// host), which swamps a difference of 10 % between two runs made one after the other; interleaved short rounds see
// the same drift, so the per-round ratio B/A and its median mean something where two whole bench runs did not.
// What is compared is the server's CPU time per request (from /proc), the steadier figure; the rates are printed
// beside it.
//
//   npx tsx bench/checkout-ab.ts <build A's main.js> <build B's main.js>
//
// Each build is copied beside this project's node_modules (its packages resolve from there), so build A can be
// a copy of build/server/main.js made before a change; the pages both render are this project's build (only the
// API is compared). Needs PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL).
const ROUNDS = Number(process.env.AB_ROUNDS ?? 6);
const SECONDS = Number(process.env.AB_SECONDS ?? 3);
const PORT = Number(process.env.BENCH_CHECKOUT_PORT ?? 4631);
// Fewer shoppers than the checkout bench's fifty leave the cores partly idle, and the CPU per request steadier.
const SHOPPER_COUNT = Number(process.env.AB_SHOPPERS ?? SHOPPERS);

interface Side {
  label: "A" | "B";
  server: ShopProcess;
  reads: Measured[];
  orders: Measured[];
}

/** One round of one side: its cart reads, then its orders. */
interface Round {
  reads: Measured;
  orders: Measured;
}

const cpuPerRequest = ({ cpu, tally }: Measured) => (cpu && tally.requests ? cpu.server / tally.requests : Number.NaN);
const perSecond = ({ tally, seconds }: Measured) => tally.requests / seconds;

async function main() {
  const [buildA, buildB] = process.argv.slice(2);
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!buildA || !buildB || !adminUrl) {
    console.error("usage: TEST_DATABASE_URL=postgres://… npx tsx bench/checkout-ab.ts <A main.js> <B main.js>");
    process.exit(2);
  }
  // Inside this project, so that each copy finds node_modules as build/server/main.js does.
  const copies = path.resolve("build/ab");
  mkdirSync(copies, { recursive: true });
  const target = await createPostgresDatabase(adminUrl, "plant_shop_ab");
  const sides: Side[] = [];
  let database: Database | undefined;
  try {
    for (const [i, build] of [buildA, buildB].entries()) {
      const copy = path.join(copies, `${i ? "B" : "A"}-main.js`);
      copyFileSync(build, copy);
      const server = startShopProcess({ port: PORT + i, databaseUrl: target.url, server: copy, env: { RATE_LIMIT_SCALE: "10000" } });
      sides.push({ label: i ? "B" : "A", server, reads: [], orders: [] });
    }
    for (const side of sides) await waitUntilHealthy(side.server);
    database = openDatabase({ databaseUrl: target.url, poolSize: 2 });
    const plant = await createProduct(database.db, { name: "Bench Monstera", price_paise: 49_900, stock: 10_000_000 });
    const shoppers = await insertShoppers(database.db, SHOPPER_COUNT, { password: "monstera-deliciosa-77", prefix: "ab" });
    const { db } = database;
    const pids = sides.map((side) => side.server.child.pid);
    // Both servers' CPU is counted whichever is loaded: the idle one sends a share of the confirmations the orders
    // queued (every server's mail worker claims from the one outbox) and hears the change feed. And each phase
    // starts with the outbox empty, so that no phase pays for mail the one before it queued.
    const run = async (side: Side, step: Step) => {
      for (;;) {
        const { waiting } = await db.selectFrom("mail_outbox").select((eb) => eb.fn.countAll<string>().as("waiting")).where("status", "=", "pending").executeTakeFirstOrThrow();
        if (Number(waiting) === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return withOrderDesk({ db }, () => runPhase(shoppers.map(({ cookie }) => ({ url: side.server.url, cookie })), SECONDS, step, pids));
    };
    // A first warm-up round each (JIT, connection pools), not counted.
    for (const side of sides) await run(side, buy(plant.id));
    const round = async (side: Side): Promise<Round> => ({ reads: await run(side, readCart), orders: await run(side, buy(plant.id)) });
    const rounds = await inTurn(ROUNDS, () => round(sides[0]!), () => round(sides[1]!));
    for (const [side, measured] of [[sides[0]!, rounds.a], [sides[1]!, rounds.b]] as const) {
      side.reads = measured.map((m) => m.reads);
      side.orders = measured.map((m) => m.orders);
    }
    console.log(`\nCheckout A/B: ${ROUNDS} rounds of ${SECONDS}s per phase, interleaved, ${SHOPPER_COUNT} shoppers, one server each on PostgreSQL`);
    console.log("A:", buildA, "\nB:", buildB);
    const [a, b] = sides as [Side, Side];
    for (const [phase, pick] of [["GET /api/cart", (s: Side) => s.reads], ["add to cart + order", (s: Side) => s.orders]] as const) {
      const ratios = pick(a).map((m, i) => cpuPerRequest(pick(b)[i]!) / cpuPerRequest(m));
      console.log(`\n${phase}: server CPU ms per request, A | B | B/A per round; requests/s A | B`);
      pick(a).forEach((m, i) => {
        const n = pick(b)[i]!;
        console.log(`  round ${i + 1}: ${cpuPerRequest(m).toFixed(2)} | ${cpuPerRequest(n).toFixed(2)} | ${ratios[i]!.toFixed(3)};  ${perSecond(m).toFixed(1)} | ${perSecond(n).toFixed(1)}`);
      });
      console.log(
        `  median: ${median(pick(a).map(cpuPerRequest)).toFixed(2)} | ${median(pick(b).map(cpuPerRequest)).toFixed(2)} | ${median(ratios).toFixed(3)};  ${median(pick(a).map(perSecond)).toFixed(1)} | ${median(pick(b).map(perSecond)).toFixed(1)}`,
      );
    }
  } finally {
    await closeClients();
    await database?.destroy();
    for (const side of sides) await stopShopProcess(side.server);
    await target.drop();
    rmSync(copies, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
