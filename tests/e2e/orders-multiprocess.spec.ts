import { randomBytes, randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { openDatabase, type Database } from "../../server/platform/db/client.ts";
import { createCategory, createProduct } from "../support/factories.ts";
import { extractLinks, startSmtpCapture, type SmtpCapture } from "../support/smtp-capture.ts";
import {
  cookieFrom,
  createPostgresDatabase,
  errorLogLines,
  insertShoppers,
  sessionCookie,
  startShopProcess,
  stopShopProcess,
  waitUntilHealthy,
  type ShopProcess,
} from "../support/shop-process.ts";

// Four production servers share one PostgreSQL database; a hundred shoppers, spread over them, try to buy the
// last five plants at the same moment. Exactly five may win. Runs only when TEST_DATABASE_URL is set
// (playwright.config.ts ignores this file otherwise); it needs no browser.

const PORTS = [4501, 4502, 4503, 4504];
const SHOPPERS = 100;
const STOCK = 5;
const SESSION_COOKIE = "plant-shop.session_token";
const PASSWORD = "monstera-deliciosa-77";
const shipping = { name: "Asha Kulkarni", phone: "+91 98765 43210", address: "12 Garden Road\nPune 411001", pin: "411001" };

type Shop = ShopProcess;

interface Shopper {
  userId: string;
  cookie: string;
  shop: Shop;
}

const state: { target?: { url: string; drop: () => Promise<void> }; database?: Database; shops: Shop[]; mail?: SmtpCapture } = { shops: [] };

function send(shop: Shop, method: string, pathname: string, body: unknown, cookie?: string) {
  return fetch(`${shop.url}${pathname}`, {
    method,
    headers: { "Content-Type": "application/json", Origin: shop.url, ...(cookie ? { Cookie: cookie } : {}) },
    body: JSON.stringify(body),
  });
}

async function me(shop: Shop, cookie: string) {
  const response = await fetch(`${shop.url}/api/me`, { headers: { Cookie: cookie } });
  return { status: response.status, body: (await response.json()) as { id?: string } };
}

test.describe("orders across several server processes", () => {
  test.describe.configure({ timeout: 180_000 });

  test.afterAll(async () => {
    await Promise.all(state.shops.map((shop) => stopShopProcess(shop)));
    await state.database?.destroy();
    await state.target?.drop();
    await state.mail?.close();
  });

  test("a hundred shoppers on four servers buy the last five plants: five orders, ninety-five refusals, no oversell", async () => {
    test.setTimeout(180_000);
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) throw new Error("this test needs TEST_DATABASE_URL (playwright.config.ts ignores it otherwise)");

    // A database of its own, which the four servers migrate together as they start.
    state.target = await createPostgresDatabase(adminUrl, "plant_shop_race");
    const databaseUrl = state.target.url;

    // Their mail goes to an SMTP server of the test's own, where the verification link is read as a person would.
    const mail = (state.mail = await startSmtpCapture());
    state.shops = PORTS.map((port) => startShopProcess({ port, databaseUrl, env: { SMTP_URL: mail.url } }));
    await Promise.all(state.shops.map((shop) => waitUntilHealthy(shop)));
    const shops = state.shops;
    const database = (state.database = openDatabase({ databaseUrl, poolSize: 4 }));
    const { db } = database;

    const category = await createCategory(db);
    const product = await createProduct(db, { category_id: category.id, stock: STOCK, name: `Race Monstera ${randomUUID().slice(0, 8)}` });

    // One shopper the ordinary way: signs up, follows the link of the mail one of the servers sent, signs in on
    // another server. Its cookie proves that the cookies made below for the others have the format Better Auth expects.
    const person = { name: "Asha Kulkarni", username: `race_${randomBytes(4).toString("hex")}`, email: `race-${randomUUID()}@example.com`, password: PASSWORD };
    const signedUp = await send(shops[0]!, "POST", "/api/auth/sign-up/email", person);
    expect(signedUp.status, await signedUp.text()).toBe(200);
    const verifyMail = await mail.waitFor((m) => m.to.includes(person.email) && extractLinks(m.text).some((link) => new URL(link).pathname === "/verify"), 30_000);
    const token = new URL(extractLinks(verifyMail.text).find((link) => new URL(link).pathname === "/verify")!).searchParams.get("token");
    const verified = await send(shops[3]!, "POST", "/api/verification", { token, password: PASSWORD });
    expect(verified.status, await verified.text()).toBe(200);
    const signedIn = await send(shops[1]!, "POST", "/api/auth/sign-in/email", { email: person.email, password: PASSWORD });
    expect(signedIn.status, await signedIn.text()).toBe(200);
    const realCookie = cookieFrom(signedIn);
    const realToken = decodeURIComponent(realCookie.slice(SESSION_COOKIE.length + 1)).split(".")[0]!;
    expect(sessionCookie(realToken)).toBe(realCookie);
    const first = await me(shops[2]!, realCookie);
    expect(first.status).toBe(200);
    const shoppers: Shopper[] = [{ userId: first.body.id!, cookie: realCookie, shop: shops[0]! }];

    // The other ninety-nine are written straight into the database, with a session each (the sign-up and
    // sign-in limits are per address, and every request here comes from 127.0.0.1).
    const made = await insertShoppers(db, SHOPPERS - 1, { password: PASSWORD, prefix: "race" });
    shoppers.push(...made.map((m, i) => ({ ...m, shop: shops[(i + 1) % shops.length]! })));
    for (const shop of shops) expect(await me(shop, shoppers[1]!.cookie)).toEqual({ status: 200, body: expect.objectContaining({ id: made[0]!.userId }) });

    // Everyone puts the plant in their cart (all can: nobody has bought it yet).
    const added = await Promise.all(shoppers.map((s) => send(s.shop, "POST", "/api/cart/items", { productId: product.id, quantity: 1 }, s.cookie)));
    expect(added.map((r) => r.status)).toEqual(shoppers.map(() => 201));
    await Promise.all(added.map((r) => r.body?.cancel()));

    // Then all hundred check out at once, round-robin over the servers.
    const answers = await Promise.all(
      shoppers.map((s, i) =>
        send(shops[i % shops.length]!, "POST", "/api/orders", { ...shipping, idempotencyKey: `race-${randomUUID()}` }, s.cookie).then(
          async (response) => ({ shopper: s, server: i % shops.length, status: response.status, body: (await response.json()) as Record<string, unknown> }),
        ),
      ),
    );

    const byStatus: Record<number, number> = {};
    for (const a of answers) byStatus[a.status] = (byStatus[a.status] ?? 0) + 1;
    const serverErrors = answers.filter((a) => a.status >= 500).map((a) => ({ server: PORTS[a.server], body: a.body }));
    expect(serverErrors, errorLogLines(shops)).toEqual([]);
    expect(byStatus).toEqual({ 201: STOCK, 409: SHOPPERS - STOCK });

    const placed = answers.filter((a) => a.status === 201);
    for (const a of placed) {
      expect(a.body).toMatchObject({ userId: a.shopper.userId, status: "pending", lines: [{ productId: product.id, name: product.name, quantity: 1 }] });
    }
    expect(new Set(placed.map((a) => a.body.id)).size).toBe(STOCK);
    for (const a of answers.filter((x) => x.status === 409)) {
      expect(a.body).toEqual(expect.objectContaining({ message: expect.stringContaining(product.name) }));
    }

    // The database agrees: nothing oversold, the winners' carts emptied, the others' carts untouched.
    const stock = await db.selectFrom("products").select("stock").where("id", "=", product.id).executeTakeFirstOrThrow();
    expect(stock.stock).toBe(0);
    const sold = await db
      .selectFrom("order_lines")
      .select((eb) => [eb.fn.sum<number>("quantity").as("units"), eb.fn.countAll<number>().as("lines")])
      .where("product_id", "=", product.id)
      .executeTakeFirstOrThrow();
    expect({ units: Number(sold.units), lines: Number(sold.lines) }).toEqual({ units: STOCK, lines: STOCK });
    const orders = await db.selectFrom("orders").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    expect(Number(orders.n)).toBe(STOCK);
    const carts = await db.selectFrom("cart_items").select("user_id").where("product_id", "=", product.id).execute();
    const winners = new Set(placed.map((a) => a.shopper.userId));
    expect(carts.length).toBe(SHOPPERS - STOCK);
    expect(carts.filter((c) => winners.has(c.user_id))).toEqual([]);

    // No server logged an error on the way (an order e-mail that could not be written, for one).
    expect(errorLogLines(shops)).toBe("no errors in the server logs");
    test.info().annotations.push({
      type: "orders",
      description: `201s by server: ${PORTS.map((p, i) => `${p}=${placed.filter((a) => a.server === i).length}`).join(", ")}`,
    });
  });
});
