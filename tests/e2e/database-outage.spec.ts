import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { sql } from "kysely";
import { openDatabase, type Database } from "../../server/platform/db/client.ts";
import { createCategory, createProduct } from "../support/factories.ts";
import {
  createPostgresDatabase,
  extraPort,
  insertShoppers,
  isRunning,
  startShopProcess,
  stopShopProcess,
  waitUntilHealthy,
  type ShopProcess,
} from "../support/shop-process.ts";

// A production server on a PostgreSQL database of this file's own, whose connections the test ends
// (pg_terminate_backend for every connection to that database) or refuses (ALLOW_CONNECTIONS false) while the
// shop serves and takes orders. It must stay up, answer every request with success or a 503 that says the shop
// is briefly unavailable (never a 500), write every order whole or not at all, and carry on by itself once the
// database is back. Runs only when TEST_DATABASE_URL is set (playwright.config.ts ignores this file
// otherwise); it needs no browser. Never touches a connection to any other database.

const SHOPPERS = 4;
const STOCK = 100_000;
const OUTAGE_MESSAGE = "The shop is briefly unavailable. Please try again in a moment.";
const shipping = { name: "Asha Kulkarni", phone: "+91 98765 43210", address: "12 Garden Road\nPune 411001", pin: "411001" };

interface Answer {
  what: string;
  status: number;
  body: string;
  retryAfter: string | null;
}

const state: { target?: { url: string; drop: () => Promise<void> }; name?: string; admin?: pg.Client; database?: Database; shop?: ShopProcess } = {};

async function request(what: string, path: string, init: { method?: string; cookie?: string; body?: unknown; accept?: string } = {}): Promise<Answer> {
  const shop = state.shop!;
  const response = await fetch(`${shop.url}${path}`, {
    method: init.method ?? "GET",
    headers: {
      ...(init.body !== undefined ? { "Content-Type": "application/json", Origin: shop.url } : {}),
      ...(init.cookie ? { Cookie: init.cookie } : {}),
      ...(init.accept ? { Accept: init.accept } : {}),
    },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  return { what, status: response.status, body: await response.text(), retryAfter: response.headers.get("Retry-After") };
}

/** Ends every connection to the shop's database (the test's own admin connection is to another database). */
async function dropEveryConnection(): Promise<number> {
  const result = await state.admin!.query("select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()", [state.name]);
  return result.rowCount ?? 0;
}

/** Polls `condition` until it holds, for at most `timeoutMs`. */
async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${state.shop?.output().slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** No answer is a server error other than the outage's 503 with its message and Retry-After. */
function expectCleanAnswers(answers: Answer[]) {
  const unclean = answers.filter((a) => a.status >= 500 && !(a.status === 503 && a.retryAfter && a.body.includes(OUTAGE_MESSAGE)));
  expect(unclean.map((a) => `${a.what} ${a.status} ${a.body.slice(0, 200)}`)).toEqual([]);
}

/** The database agrees with itself: stock sold equals what the orders hold, and each order has its lines and its e-mail. */
async function expectNothingHalfWritten(productId: string) {
  const { db } = state.database!;
  const orders = await db
    .selectFrom("orders")
    .leftJoin("order_lines", "order_lines.order_id", "orders.id")
    .select((eb) => ["orders.id", "orders.subtotal_paise", eb.fn.count<number>("order_lines.id").as("lines"), eb.fn.sum<number>("order_lines.quantity").as("units"), eb.fn.sum<number>(sql`order_lines.quantity * order_lines.unit_price_paise`).as("linesTotal")])
    .groupBy(["orders.id", "orders.subtotal_paise"])
    .execute();
  expect(orders.filter((o) => Number(o.lines) === 0 || Number(o.linesTotal) !== o.subtotal_paise)).toEqual([]);
  const sold = orders.reduce((sum, o) => sum + Number(o.units), 0);
  const { stock } = await db.selectFrom("products").select("stock").where("id", "=", productId).executeTakeFirstOrThrow();
  expect(stock + sold).toBe(STOCK);
  const mails = await db.selectFrom("mail_outbox").select("reference").where("kind", "=", "order-placed").execute();
  expect(mails.map((m) => m.reference).sort()).toEqual(orders.map((o) => o.id).sort());
  return orders.length;
}

test.describe("the shop when PostgreSQL drops or refuses its connections", () => {
  test.describe.configure({ timeout: 180_000 });

  test.beforeAll(async () => {
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) throw new Error("this test needs TEST_DATABASE_URL (playwright.config.ts ignores it otherwise)");
    state.target = await createPostgresDatabase(adminUrl, "plant_shop_outage");
    state.name = new URL(state.target.url).pathname.slice(1);
    state.admin = new pg.Client({ connectionString: adminUrl });
    await state.admin.connect();
    state.shop = startShopProcess({
      port: extraPort(0),
      databaseUrl: state.target.url,
      // Many orders per shopper in a few seconds: the pending-order and checkout limits are not under test.
      env: { MAX_PENDING_ORDERS: "1000", RATE_LIMIT_SCALE: "1000", LOG_LEVEL: "info" },
    });
    await waitUntilHealthy(state.shop);
    state.database = openDatabase({ databaseUrl: state.target.url, poolSize: 2 });
  });

  test.afterAll(async () => {
    if (state.shop) await stopShopProcess(state.shop);
    await state.database?.destroy();
    await state.admin?.query(`alter database "${state.name}" allow_connections true`).catch(() => undefined);
    await state.admin?.end();
    await state.target?.drop();
  });

  test("every connection dropped three times while four shoppers order: the process stays up, every answer is a success or a 503 with its message, an order after the drops succeeds, nothing is half-written", async () => {
    const { db } = state.database!;
    const product = await createProduct(db, { category_id: (await createCategory(db)).id, stock: STOCK, price_paise: 49_900 });
    const shoppers = await insertShoppers(db, SHOPPERS + 1, { password: "monstera-deliciosa-77", prefix: "outage" });
    const latecomer = shoppers.pop()!;
    const answers: Answer[] = [];
    const placed = new Map<string, string>(); // idempotency key → order id
    let stopping = false;

    // Each shopper adds the plant and checks out, again and again; a checkout answered 503 is tried again with
    // the same key, as a shopper pressing the button again would, until it is answered.
    const shopperLoops = shoppers.map(async ({ cookie }, n) => {
      /** Sends until the answer is not the outage's 503, pausing as a shopper would before pressing again. */
      const answered = async (send: () => Promise<Answer>) => {
        for (;;) {
          const answer = await send();
          answers.push(answer);
          if (answer.status !== 503) return answer;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      };
      while (!stopping) {
        await answered(() => request(`add to cart ${n}`, "/api/cart/items", { method: "POST", cookie, body: { productId: product.id, quantity: 1 } }));
        const key = randomUUID();
        const answer = await answered(() => request(`checkout ${n}`, "/api/orders", { method: "POST", cookie, body: { ...shipping, idempotencyKey: key } }));
        if (answer.status === 201) placed.set(key, (JSON.parse(answer.body) as { id: string }).id);
      }
    });
    // Meanwhile others read: a signed-in shopper's pages and API, and the probes.
    const readerLoop = (async () => {
      const { cookie } = shoppers[0]!;
      while (!stopping) {
        answers.push(await request("me", "/api/me", { cookie }));
        answers.push(await request("cart", "/api/cart", { cookie }));
        answers.push(await request("orders page", "/orders", { cookie, accept: "text/html" }));
        answers.push(await request("search", `/api/products?search=${randomUUID().slice(0, 6)}`));
        const readyz = await request("readyz", "/readyz");
        if (readyz.status !== 200) expect(readyz).toMatchObject({ status: 503, body: "database unreachable" });
      }
    })();

    try {
      for (let round = 1; round <= 3; round++) {
        const before = placed.size;
        await until(() => placed.size >= before + 5, `five orders before drop ${round}`);
        expect(await dropEveryConnection()).toBeGreaterThan(0);
      }
      const afterDrops = placed.size;
      await until(() => placed.size >= afterDrops + 5, "five orders after the last drop");
    } finally {
      stopping = true;
      await Promise.all([...shopperLoops, readerLoop]);
    }

    expect(isRunning(state.shop!.child.pid!)).toBe(true);
    expectCleanAnswers(answers);
    // Nothing but successes and the outage's 503: every add to the cart and every checkout was answered.
    expect(answers.filter((a) => ![200, 201, 503].includes(a.status)).map((a) => `${a.what} ${a.status} ${a.body.slice(0, 200)}`)).toEqual([]);
    test.info().annotations.push({
      type: "answers",
      description: `${answers.length} answers: ${[...new Set(answers.map((a) => a.status))].map((s) => `${s}×${answers.filter((a) => a.status === s).length}`).join(", ")}`,
    });

    // Once more, then one more order from someone who was not ordering: it goes through (a 503 first if it
    // meets a connection that died this instant, which the same key then places once).
    expect(await dropEveryConnection()).toBeGreaterThan(0);
    const latecomerAnswers: Answer[] = [];
    /** Sends until the answer is not the outage's 503 (bounded), as a shopper would after Retry-After. */
    const answered = async (send: () => Promise<Answer>) => {
      let answer: Answer | undefined;
      await until(async () => {
        answer = await send();
        latecomerAnswers.push(answer);
        return answer.status !== 503;
      }, "an answer other than 503");
      return answer!;
    };
    const added = await answered(() => request("latecomer add", "/api/cart/items", { method: "POST", cookie: latecomer.cookie, body: { productId: product.id, quantity: 2 } }));
    expect(added.status, added.body).toBe(201);
    const key = randomUUID();
    const ordered = await answered(() => request("latecomer checkout", "/api/orders", { method: "POST", cookie: latecomer.cookie, body: { ...shipping, idempotencyKey: key } }));
    expect(ordered.status, ordered.body).toBe(201);
    expectCleanAnswers(latecomerAnswers);
    expect(await db.selectFrom("orders").select("id").where("idempotency_key", "=", key).execute()).toHaveLength(1);

    // Every key the shoppers were answered 201 for is one order, and the orders are whole.
    const count = await expectNothingHalfWritten(product.id);
    expect(count).toBeGreaterThanOrEqual(placed.size + 1);
    const keys = await db.selectFrom("orders").select("idempotency_key").execute();
    expect(keys.length).toBe(new Set(keys.map((k) => k.idempotency_key)).size);
    expect(state.shop!.output()).not.toContain("Unhandled 'error' event");
  });

  test("while the database refuses connections: the API and pages answer 503 with the message and Retry-After, /readyz 503 and /healthz 200, no order is written; all of it recovers by itself when it accepts them again", async () => {
    const { db } = state.database!;
    const product = await createProduct(db, { category_id: (await createCategory(db)).id, stock: 10 });
    const [shopper] = await insertShoppers(db, 1, { password: "monstera-deliciosa-77", prefix: "refused" });
    expect((await request("add", "/api/cart/items", { method: "POST", cookie: shopper!.cookie, body: { productId: product.id, quantity: 1 } })).status).toBe(201);
    const ordersBefore = (await db.selectFrom("orders").select("id").execute()).length;

    await state.admin!.query(`alter database "${state.name}" allow_connections false`);
    await dropEveryConnection();
    try {
      const outage = await Promise.all([
        request("search", `/api/products?search=${randomUUID().slice(0, 6)}`),
        request("me", "/api/me", { cookie: shopper!.cookie }),
        request("checkout", "/api/orders", { method: "POST", cookie: shopper!.cookie, body: { ...shipping, idempotencyKey: randomUUID() } }),
      ]);
      for (const answer of outage) {
        expect(answer, answer.what).toMatchObject({ status: 503, retryAfter: "5" });
        expect(JSON.parse(answer.body), answer.what).toEqual({ message: OUTAGE_MESSAGE });
      }
      // A page: the shop's error screen (anonymous) or the plain outage page (signed in: the session is read first).
      for (const cookie of [undefined, shopper!.cookie]) {
        const page = await request("shop page", "/shop", { accept: "text/html", ...(cookie ? { cookie } : {}) });
        expect(page).toMatchObject({ status: 503, retryAfter: "5" });
        expect(page.body).toContain("The shop is briefly unavailable");
      }
      expect(await request("readyz", "/readyz")).toMatchObject({ status: 503, body: "database unreachable" });
      expect(await request("healthz", "/healthz")).toMatchObject({ status: 200, body: "ok" });
    } finally {
      await state.admin!.query(`alter database "${state.name}" allow_connections true`);
    }

    await until(async () => (await request("readyz", "/readyz")).status === 200, "/readyz to answer 200 again");
    const order = await request("checkout", "/api/orders", { method: "POST", cookie: shopper!.cookie, body: { ...shipping, idempotencyKey: randomUUID() } });
    expect(order.status, order.body).toBe(201);
    expect((await db.selectFrom("orders").select("id").execute()).length).toBe(ordersBefore + 1);
    expect(isRunning(state.shop!.child.pid!)).toBe(true);
    // The change feed found the database again by itself, and said so; the mail worker sends the new order's e-mail.
    await until(() => state.shop!.output().includes('"msg":"change feed: listening again"'), "the change feed to listen again");
    const orderId = (JSON.parse(order.body) as { id: string }).id;
    await until(async () => (await db.selectFrom("mail_outbox").select("status").where("reference", "=", orderId).executeTakeFirst())?.status === "sent", "the new order's e-mail to be sent");
  });
});
