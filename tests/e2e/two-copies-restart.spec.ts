import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { sql } from "kysely";
import { openDatabase, type Database } from "../../server/platform/db/client.ts";
import { createCategory, createProduct } from "../support/factories.ts";
import {
  createPostgresDatabase,
  errorLogLines,
  extraPort,
  insertShoppers,
  startShopProcess,
  stopShopProcess,
  waitUntilHealthy,
  type ShopProcess,
} from "../support/shop-process.ts";
import { runMixedLoad, startNginx, stopNginx, waitForNginx, type BalancingNginx } from "../support/two-copies.ts";

// Two production copies on one PostgreSQL database behind nginx (the README's upstream settings). While signed-in
// shoppers load the shop through nginx, copy A is taken out of nginx, stopped (SIGTERM), started and put back,
// then copy B is taken out and stopped:
// every request answers as it should, and every write is applied exactly once. Runs only when TEST_DATABASE_URL
// is set (playwright.config.ts ignores this file otherwise); it needs no browser.

/** nginx's log, less the expected lines: connections refused by a stopped copy, which nginx passes over. */
function nginxProblems(nginx: BalancingNginx): string {
  return nginx
    .output()
    .split("\n")
    .filter((line) => line && !/Connection refused\) while connecting|temporarily disabled while connecting/.test(line))
    .slice(0, 10)
    .join("\n");
}

const NGINX_PORT = extraPort(2);
const PORTS = [extraPort(3), extraPort(4)] as const;
const SHOPPERS = 8;
const STOCK = 100_000;

const state: { nginx?: BalancingNginx; shops: ShopProcess[]; database?: Database; target?: { drop: () => Promise<void> } } = { shops: [] };

test.describe("two copies behind nginx", () => {
  test.afterAll(async () => {
    await Promise.all(state.shops.map((shop) => stopShopProcess(shop)));
    if (state.nginx) await stopNginx(state.nginx);
    await state.database?.destroy();
    await state.target?.drop();
  });

  test("restarting one copy at a time under load through nginx fails no request and applies every write once", async () => {
    test.setTimeout(180_000);
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) throw new Error("this test needs TEST_DATABASE_URL (playwright.config.ts ignores it otherwise)");
    const target = (state.target = await createPostgresDatabase(adminUrl, "plant_shop_two_copies"));
    const databaseUrl = target.url;
    const publicUrl = `http://127.0.0.1:${NGINX_PORT}`;
    // The shoppers all come from 127.0.0.1 and pile up unpaid orders: limits loose enough for the load.
    const start = (port: number) => {
      const shop = startShopProcess({ port, databaseUrl, publicUrl, env: { RATE_LIMIT_SCALE: "10000", MAX_PENDING_ORDERS: "1000" } });
      state.shops.push(shop);
      return shop;
    };
    let a = start(PORTS[0]);
    const b = start(PORTS[1]);
    await Promise.all([waitUntilHealthy(a), waitUntilHealthy(b)]);
    const nginx = (state.nginx = startNginx(NGINX_PORT, [...PORTS]));
    await waitForNginx(nginx);

    const database = (state.database = openDatabase({ databaseUrl, poolSize: 2 }));
    const { db } = database;
    const category = await createCategory(db);
    const product = await createProduct(db, { category_id: category.id, stock: STOCK, name: `Two Copies Fern ${randomUUID().slice(0, 8)}` });
    const shoppers = await insertShoppers(db, SHOPPERS, { password: "two-copies-password-31", prefix: "twocopies" });

    const load = runMixedLoad(nginx.url, shoppers.map((s) => s.cookie), product.id);
    /** Until the load has sent `more` requests after now: progress, not a length of time. */
    const progress = async (more: number) => {
      const target = load.total() + more;
      await expect.poll(() => load.total(), { timeout: 60_000 }).toBeGreaterThanOrEqual(target);
    };

    // The README's rolling restart: take a copy out of nginx, stop it, start it again, put it back.
    await progress(100);
    await nginx.route([PORTS[0]]);
    a.child.kill("SIGTERM");
    expect(await a.exited).toBe(0);
    await progress(100);
    a = start(PORTS[0]);
    await waitUntilHealthy(a);
    await nginx.route([]);
    await progress(200);
    await nginx.route([PORTS[1]]);
    b.child.kill("SIGTERM");
    expect(await b.exited).toBe(0);
    await progress(100);
    const tally = await load.stop();

    const total = Object.values(tally.sent).reduce((x, y) => x + y, 0);
    test.info().annotations.push({ type: "requests", description: `${total} requests (${JSON.stringify(tally.sent)}), ${tally.failures.length} failed` });
    expect(tally.failures.length, `${tally.failures.slice(0, 5).join("\n")}\n${errorLogLines(state.shops)}\nnginx:\n${nginxProblems(nginx)}`).toBe(0);
    expect(tally.placed).toBe(tally.sent.order);

    // Every write exactly once: as many orders as 201s, as many units ordered as units added, stock down by as many.
    const userIds = shoppers.map((s) => s.userId);
    const orders = await db.selectFrom("orders").where("user_id", "in", userIds).select(sql<string>`count(*)`.as("n")).executeTakeFirstOrThrow();
    const units = await db.selectFrom("order_lines").where("product_id", "=", product.id).select(sql<string>`coalesce(sum(quantity), 0)`.as("n")).executeTakeFirstOrThrow();
    const { stock } = await db.selectFrom("products").where("id", "=", product.id).select("stock").executeTakeFirstOrThrow();
    expect(Number(orders.n)).toBe(tally.placed);
    expect(Number(units.n)).toBe(tally.added);
    expect(stock).toBe(STOCK - tally.added);
  });
});
