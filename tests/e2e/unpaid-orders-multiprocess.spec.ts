import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { openDatabase, type Database } from "../../server/platform/db/client.ts";
import { createProduct } from "../support/factories.ts";
import { startSmtpCapture, type SmtpCapture } from "../support/smtp-capture.ts";
import { createPostgresDatabase, errorLogLines, insertShoppers, startShopProcess, stopShopProcess, waitUntilHealthy, type ShopProcess } from "../support/shop-process.ts";

// Two production servers share one PostgreSQL database and one test clock; six shoppers place UPI orders and never
// pay. When the clock passes their time, both servers look for unpaid orders at the same moment: each order must be
// cancelled exactly once — its stock back once, one mail, one cancellation counted (docs/decisions/054). Runs only
// when TEST_DATABASE_URL is set (playwright.config.ts ignores this file otherwise); it needs no browser.

const PORTS = [4511, 4512];
const ORDERS = 6;
const STOCK = 10;
const shipping = { name: "Asha Kulkarni", phone: "+91 98765 43210", address: "12 Garden Road\nPune 411001", pin: "411001" };

const state: { target?: { url: string; drop: () => Promise<void> }; database?: Database; shops: ShopProcess[]; mail?: SmtpCapture; clockDir?: string } = { shops: [] };

function send(shop: ShopProcess, method: string, pathname: string, body: unknown, cookie: string) {
  return fetch(`${shop.url}${pathname}`, { method, headers: { "Content-Type": "application/json", Origin: shop.url, Cookie: cookie }, body: JSON.stringify(body) });
}

test.describe("unpaid UPI orders across two server processes", () => {
  test.describe.configure({ timeout: 180_000 });

  test.afterAll(async () => {
    await Promise.all(state.shops.map((shop) => stopShopProcess(shop)));
    await state.database?.destroy();
    await state.target?.drop();
    await state.mail?.close();
    if (state.clockDir) rmSync(state.clockDir, { recursive: true, force: true });
  });

  test("when the clock passes their time, both servers look at once and each unpaid order is cancelled exactly once: stock back once, one mail each, six cancellations counted", async () => {
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) throw new Error("this test needs TEST_DATABASE_URL (playwright.config.ts ignores it otherwise)");
    state.target = await createPostgresDatabase(adminUrl, "plant_shop_unpaid");
    const mail = (state.mail = await startSmtpCapture());
    state.clockDir = mkdtempSync(path.join(os.tmpdir(), "plant-shop-clock-"));
    const clockFile = path.join(state.clockDir, "test-clock");
    const env = { SMTP_URL: mail.url, SHOP_UPI_ID: "greenleaf@okaxis", UPI_PAYMENT_MINUTES: "30", TEST_CLOCK_FILE: clockFile, LOG_LEVEL: "info" };
    state.shops = PORTS.map((port) => startShopProcess({ port, databaseUrl: state.target!.url, env }));
    await Promise.all(state.shops.map((shop) => waitUntilHealthy(shop)));
    const shops = state.shops;
    const { db } = (state.database = openDatabase({ databaseUrl: state.target.url, poolSize: 2 }));

    const product = await createProduct(db, { stock: STOCK, name: "Unpaid Monstera" });
    const shoppers = await insertShoppers(db, ORDERS, { password: "monstera-deliciosa-77", prefix: "unpaid" });
    const orderIds: string[] = [];
    for (const [i, shopper] of shoppers.entries()) {
      const shop = shops[i % shops.length]!;
      expect((await send(shop, "POST", "/api/cart/items", { productId: product.id, quantity: 1 }, shopper.cookie)).status).toBe(201);
      const placed = await send(shop, "POST", "/api/orders", { ...shipping, payment: "upi", idempotencyKey: `unpaid-${i}-${shopper.userId}` }, shopper.cookie);
      const body = (await placed.json()) as { id: string; status: string };
      expect([placed.status, body.status]).toEqual([201, "awaiting_payment"]);
      orderIds.push(body.id);
    }
    const stock = async () => (await db.selectFrom("products").select("stock").where("id", "=", product.id).executeTakeFirstOrThrow()).stock;
    expect(await stock()).toBe(STOCK - ORDERS);

    // Thirty-one minutes on, for both servers at once (each follows the file).
    writeFileSync(clockFile, new Date(Date.now() + 31 * 60_000).toISOString());
    const statuses = () => db.selectFrom("orders").select("status").where("id", "in", orderIds).execute().then((rows) => rows.map((row) => row.status));
    await expect.poll(statuses, { timeout: 30_000, message: "every unpaid order is cancelled" }).toEqual(orderIds.map(() => "cancelled"));

    expect(await stock()).toBe(STOCK);
    const unpaidMails = await db.selectFrom("mail_outbox").select("reference").where("kind", "=", "order-unpaid").execute();
    expect(unpaidMails.map((row) => row.reference).sort()).toEqual([...orderIds].sort());
    const payments = await db.selectFrom("order_payments").select("state").where("order_id", "in", orderIds).execute();
    expect(payments.map((row) => row.state)).toEqual(orderIds.map(() => "failed"));
    const totals = await db.selectFrom("order_daily_totals").select((eb) => [eb.fn.sum<number>("orders_placed").as("placed"), eb.fn.sum<number>("orders_cancelled").as("cancelled")]).executeTakeFirstOrThrow();
    expect([Number(totals.placed), Number(totals.cancelled)]).toEqual([ORDERS, ORDERS]);
    // Each cancellation was made, and logged, by one server only: six between the two.
    const logged = shops.reduce((sum, shop) => sum + (shop.output().match(/"event":"order\.unpaid-cancelled"/g)?.length ?? 0), 0);
    expect(logged).toBe(ORDERS);
    // And each shopper got the mail, over SMTP.
    for (const shopper of shoppers) await mail.waitFor((m) => m.to.includes(`unpaid-${shopper.userId}@example.com`) && /is cancelled: payment not received$/.test(m.subject), 30_000);
    expect(errorLogLines(shops)).toBe("no errors in the server logs");
  });
});
