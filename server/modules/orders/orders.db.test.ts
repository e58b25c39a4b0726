import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { messages } from "#common/shared/messages.ts";
import { ERROR_CODES } from "#common/shared/user-facing-error.ts";
import { createProduct, setSelling } from "../../../tests/support/factories.ts";
import { checkoutInput, createShopper } from "../../../tests/support/shoppers.ts";
import { createTestApp, type TestApp } from "../../../tests/support/test-app.ts";
import { ordersServiceOver } from "../../../tests/support/orders-service.ts";
import { inWriteTransaction } from "../../platform/db/write-transaction.ts";
import { ConflictError } from "../../platform/errors.ts";
import type { PaymentHold, PaymentMethod } from "./payments.ts";
import { createLocalChangeFeed, type Change } from "../../platform/change-feed/change-feed.ts";

let app: TestApp;
beforeEach(async () => {
  app = await createTestApp();
});
afterEach(async () => {
  await app.cleanup();
});

const stockOf = async (id: string) =>
  (await app.database.db.selectFrom("products").select("stock").where("id", "=", id).executeTakeFirstOrThrow()).stock;
const shopper = () => createShopper(app.database.db, app.database.dialect);
const admin = () => createShopper(app.database.db, app.database.dialect, { isAdmin: true });

/** The orders service over the test database with its own payment method. */
function ordersWith(overrides: Parameters<typeof ordersServiceOver>[1] = {}) {
  return { orders: ordersServiceOver(app.database, overrides) };
}

/** The mails queued in the outbox, as [kind, reference, recipient, subject]. */
const queuedMails = async () =>
  (await app.database.db.selectFrom("mail_outbox").select(["kind", "reference", "recipient", "subject"]).execute()).map((m) => [
    m.kind,
    m.reference,
    m.recipient,
    m.subject,
  ]);

/** A shopper with `quantity` of a new plant in the cart. */
async function shopperWithCart(product: Parameters<typeof createProduct>[1] = {}, quantity = 1) {
  const plant = await createProduct(app.database.db, product);
  const user = await shopper();
  await app.services.cart.addToCart(user, { productId: plant.id, quantity });
  return { plant, user };
}

describe("placing an order", () => {
  it("decrements stock, snapshots names and prices, empties the cart and adds one flat shipping fee", async () => {
    const fern = await createProduct(app.database.db, { name: "Bird's Nest Fern", price_paise: 45_000, stock: 4 });
    const palm = await createProduct(app.database.db, { name: "Kentia Palm", price_paise: 120_050, stock: 2 });
    const user = await shopper();
    await app.services.cart.addToCart(user, { productId: fern.id, quantity: 3 });
    await app.services.cart.addToCart(user, { productId: palm.id });

    const order = await app.services.orders.placeOrder(user, checkoutInput());
    expect(order).toMatchObject({ status: "pending", subtotalPaise: 3 * 45_000 + 120_050, shippingPaise: 2000, totalPaise: 3 * 45_000 + 120_050 + 2000, itemCount: 4 });
    expect(order.lines.map((l) => [l.name, l.unitPricePaise, l.quantity])).toEqual(
      expect.arrayContaining([["Bird's Nest Fern", 45_000, 3], ["Kentia Palm", 120_050, 1]]),
    );
    expect(await stockOf(fern.id)).toBe(1);
    expect(await stockOf(palm.id)).toBe(1);
    expect((await app.services.cart.getCart(user)).lines).toEqual([]);
    // Stored as answered: every line, in the same positions.
    expect((await app.services.orders.getOrder(user, order.id)).lines).toEqual(order.lines);

    // A later price change does not touch the order.
    await setSelling(app.database.db, fern.id, { price_paise: 1 });
    expect((await app.services.orders.getOrder(user, order.id)).lines.find((l) => l.name === "Bird's Nest Fern")?.unitPricePaise).toBe(45_000);
  });

  it("changes nothing when a line lacks stock, and says which plant and how many are left", async () => {
    const fern = await createProduct(app.database.db, { name: "Maidenhair Fern", stock: 3 });
    const cactus = await createProduct(app.database.db, { name: "Barrel Cactus", stock: 5 });
    const user = await shopper();
    await app.services.cart.addToCart(user, { productId: fern.id, quantity: 3 });
    await app.services.cart.addToCart(user, { productId: cactus.id });
    await setSelling(app.database.db, fern.id, { stock: 2 });

    const refusal = await app.services.orders.placeOrder(user, checkoutInput()).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(ConflictError);
    expect((refusal as Error).message).toBe("Only 2 of Maidenhair Fern left in stock.");
    expect(await stockOf(cactus.id)).toBe(5);
    expect((await app.services.cart.getCart(user)).lines).toHaveLength(2);
    expect(await app.database.db.selectFrom("orders").select("id").execute()).toEqual([]);
  });

  it("is refused with an empty cart, without a verified e-mail, and for visitors", async () => {
    const user = await shopper();
    await expect(app.services.orders.placeOrder(user, checkoutInput())).rejects.toMatchObject({ status: 400 });
    const unverified = await createShopper(app.database.db, app.database.dialect, { emailVerified: false });
    await expect(app.services.orders.placeOrder(unverified, checkoutInput())).rejects.toMatchObject({ status: 403, message: expect.stringMatching(/verify/) });
    await expect(app.services.orders.placeOrder(null, checkoutInput())).rejects.toMatchObject({ status: 401 });
  });

  it("never sells more than the stock: 100 shoppers at once for 5 plants make exactly 5 orders", async () => {
    const plant = await createProduct(app.database.db, { name: "Last Monstera", stock: 5 });
    const shoppers = [];
    for (let i = 0; i < 100; i++) {
      const user = await shopper();
      await app.services.cart.addToCart(user, { productId: plant.id });
      shoppers.push(user);
    }
    const results = await Promise.allSettled(shoppers.map((user) => app.services.orders.placeOrder(user, checkoutInput())));
    const placed = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(placed).toHaveLength(5);
    expect(refused).toHaveLength(95);
    for (const r of refused) expect(r.reason).toBeInstanceOf(ConflictError);
    expect(await stockOf(plant.id)).toBe(0);
    const lines = await app.database.db.selectFrom("order_lines").select("quantity").where("product_id", "=", plant.id).execute();
    expect(lines.reduce((n, l) => n + l.quantity, 0)).toBe(5);
  }, 60_000);

  it("makes one order for one idempotency key, however often and however concurrently it is sent", async () => {
    const plant = await createProduct(app.database.db, { stock: 10 });
    const user = await shopper();
    await app.services.cart.addToCart(user, { productId: plant.id, quantity: 2 });
    const input = checkoutInput("double-click-key-1");
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => app.services.orders.placeOrder(user, input)));
    const ids = new Set(results.map((r) => (r.status === "fulfilled" ? r.value.id : `rejected: ${String(r.reason)}`)));
    expect([...ids]).toHaveLength(1);
    expect([...ids][0]).not.toMatch(/^rejected/);
    expect(await app.database.db.selectFrom("orders").select("id").execute()).toHaveLength(1);
    expect(await stockOf(plant.id)).toBe(8);
  });
});

describe("order numbers", () => {
  it("gives a new order PS- and three groups of four letters without I, L, O or U, stored with the order and unique", async () => {
    const numbers = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const { user } = await shopperWithCart();
      const order = await app.services.orders.placeOrder(user, checkoutInput());
      expect(order.number).toMatch(/^PS-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
      expect((await app.database.db.selectFrom("orders").select("number").where("id", "=", order.id).executeTakeFirstOrThrow()).number).toBe(order.number);
      expect((await app.services.orders.getOrder(user, order.id)).number).toBe(order.number);
      numbers.add(order.number);
    }
    expect(numbers.size).toBe(5);
  });

  it("draws again when the number drawn is taken: the second order gets the next number, placed once", async () => {
    const draws = ["PS-AAAA-BBBB-CCCC", "PS-AAAA-BBBB-CCCC", "PS-DDDD-EEEE-FFFF"];
    const { orders } = ordersWith({ orderNumbers: () => draws.shift()! });
    const first = await shopperWithCart({ stock: 3 });
    expect((await orders.placeOrder(first.user, checkoutInput())).number).toBe("PS-AAAA-BBBB-CCCC");
    const second = await shopperWithCart({ stock: 3 });
    const order = await orders.placeOrder(second.user, checkoutInput());
    expect(order.number).toBe("PS-DDDD-EEEE-FFFF");
    expect(draws).toEqual([]);
    expect(await stockOf(second.plant.id)).toBe(2);
    expect(await app.database.db.selectFrom("orders").select("id").where("user_id", "=", second.user.id).execute()).toEqual([{ id: order.id }]);
  });

  it("keeps the number of an order stored before numbers were: PS- and the first eight hex digits of its id", async () => {
    const { user } = await shopperWithCart();
    const order = await app.services.orders.placeOrder(user, checkoutInput());
    await sql`update orders set number = null where id = ${order.id}`.execute(app.database.db);
    const legacy = `PS-${order.id.replaceAll("-", "").slice(0, 8).toUpperCase()}`;
    expect((await app.services.orders.getOrder(user, order.id)).number).toBe(legacy);
    expect((await app.services.orders.listMyOrders(user))[0]!.number).toBe(legacy);
  });
});

describe("Cash on Delivery: the order is the summary the checkout page showed", () => {
  /** Everything an order writes, to prove that a refused one wrote none of it. */
  const everythingAnOrderTouches = async (userId: string) => ({
    stock: await app.database.db.selectFrom("products").select(["id", "stock", "price_paise"]).orderBy("id").execute(),
    cart: await app.database.db.selectFrom("cart_items").select(["id", "product_id", "quantity"]).where("user_id", "=", userId).orderBy("id").execute(),
    orders: await app.database.db.selectFrom("orders").select("id").execute(),
    lines: await app.database.db.selectFrom("order_lines").select("id").execute(),
    outbox: await queuedMails(),
    dailyTotals: await app.database.db.selectFrom("order_daily_totals").selectAll().execute(),
  });

  it.each([
    ["the price changes (the admin sets 3000)", async (plantId: string) => {
      await setSelling(app.database.db, plantId, { price_paise: 300_000 });
    }],
    ["a plant is added in another tab", async (_: string, user: Awaited<ReturnType<typeof shopper>>) => {
      const other = await createProduct(app.database.db, { name: "Peace Lily", stock: 5 });
      await app.services.cart.addToCart(user, { productId: other.id });
    }],
    ["the quantity changes in another tab", async (_: string, user: Awaited<ReturnType<typeof shopper>>) => {
      const [line] = (await app.services.cart.getCart(user)).lines;
      await app.services.cart.setQuantity(user, line!.id, { quantity: 2 });
    }],
  ])("refuses with cartChanged and changes nothing when %s after the summary was shown", async (_, change) => {
    const { plant, user } = await shopperWithCart({ name: "Snake Plant", price_paise: 150_000, stock: 5 }, 1);
    const shown = await app.services.cart.getCart(user);
    expect(shown.totalPaise).toBe(152_000);
    await change(plant.id, user);
    const before = await everythingAnOrderTouches(user.id);

    const refusal = app.services.orders.placeOrder(user, { ...checkoutInput(), cartFingerprint: shown.fingerprint });
    await expect(refusal).rejects.toMatchObject({ status: 409, message: messages.checkout.cartChanged, code: ERROR_CODES.cartChanged });
    expect(await everythingAnOrderTouches(user.id)).toEqual(before);
  });

  it("after a cartChanged refusal, orders the cart at its new price once the page has shown the fresh summary", async () => {
    const { plant, user } = await shopperWithCart({ name: "Snake Plant", price_paise: 150_000, stock: 5 }, 1);
    const shown = await app.services.cart.getCart(user);
    await setSelling(app.database.db, plant.id, { price_paise: 300_000 });
    await expect(app.services.orders.placeOrder(user, { ...checkoutInput(), cartFingerprint: shown.fingerprint })).rejects.toMatchObject({ status: 409 });

    const shownAgain = await app.services.cart.getCart(user);
    expect(shownAgain.fingerprint).not.toBe(shown.fingerprint);
    const order = await app.services.orders.placeOrder(user, { ...checkoutInput(), cartFingerprint: shownAgain.fingerprint });
    expect(shownAgain.totalPaise).toBe(302_000);
    expect(order).toMatchObject({ totalPaise: 302_000, itemCount: 1 });
    expect(await stockOf(plant.id)).toBe(4);
  });
});

describe("placing an order: details, amounts and e-mail", () => {
  it("saves the name, phone and address on the profile only when asked", async () => {
    const { user } = await shopperWithCart();
    const profile = () => app.database.db.selectFrom("users").select(["name", "phone", "address"]).where("id", "=", user.id).executeTakeFirstOrThrow();
    await app.services.orders.placeOrder(user, { ...checkoutInput(), name: "Asha K." });
    expect(await profile()).toEqual({ name: "Shopper", phone: null, address: null });

    await app.services.cart.addToCart(user, { productId: (await createProduct(app.database.db)).id });
    await app.services.orders.placeOrder(user, { ...checkoutInput(), name: "Asha Kulkarni-Rao", saveToProfile: "on" });
    expect(await profile()).toEqual({ name: "Asha Kulkarni-Rao", phone: checkoutInput().phone, address: checkoutInput().address });
  });

  it("stores an order above Rs. 2.1 crore (beyond a 32-bit integer of paise) and reads it back exactly", async () => {
    const { user } = await shopperWithCart({ name: "Ancient Bonsai", price_paise: 1_500_000_000, stock: 3 }, 2);
    const order = await app.services.orders.placeOrder(user, checkoutInput());
    expect(order).toMatchObject({ subtotalPaise: 3_000_000_000, totalPaise: 3_000_002_000 });
    expect(order.lines[0]).toMatchObject({ unitPricePaise: 1_500_000_000, lineTotalPaise: 3_000_000_000 });
    expect((await app.services.orders.listMyOrders(user))[0]?.totalPaise).toBe(3_000_002_000);
  });

  it("queues the confirmation e-mail with the order, for the mail worker to send", async () => {
    const { orders } = ordersWith();
    const { user } = await shopperWithCart();
    const order = await orders.placeOrder(user, checkoutInput());
    expect(await queuedMails()).toEqual([["order-placed", order.id, user.email, `Order ${order.number} is placed`]]);
  });
});

describe("payment", () => {
  /** A card-like payment method that records what it holds and lets go; `onAuthorize` runs inside authorize. */
  function recordingPayment(onAuthorize: (order: { id: string; totalPaise: number }) => Promise<void> = async () => undefined) {
    const held: PaymentHold[] = [];
    const released: PaymentHold[] = [];
    const payment: PaymentMethod = {
      id: "card",
      label: "Card",
      placesAs: "pending",
      async authorize(order) {
        await onAuthorize(order);
        const hold = { orderId: order.id, reference: `hold-${held.length + 1}` };
        held.push(hold);
        return hold;
      },
      release: async (hold) => void released.push(hold),
    };
    return { payment, held, released };
  }

  it("holds the amount before the order's transaction and keeps the hold for the order", async () => {
    const { plant, user } = await shopperWithCart({ price_paise: 30_000, stock: 5 }, 2);
    // A write of its own while authorising: under the order's write lock this would wait forever.
    const { payment, held, released } = recordingPayment(async () => {
      await inWriteTransaction(app.database, (trx) => trx.updateTable("products").set({ updated_at: new Date().toISOString() }).where("id", "=", plant.id).execute());
    });
    const order = await ordersWith({ payment }).orders.placeOrder(user, checkoutInput());
    expect(held).toEqual([{ orderId: order.id, reference: "hold-1" }]);
    expect(order).toMatchObject({ totalPaise: 62_000, paymentMethod: "Card" });
    expect(released).toEqual([]);
  });

  it.each([
    ["the last plants sell meanwhile", { stock: 0 }, (name: string) => messages.checkout.shortage(name, 0)],
    ["the price changes meanwhile", { price_paise: 31_000 }, () => messages.checkout.cartChanged],
  ])("lets the hold go and changes nothing when %s", async (_, change, message) => {
    const { plant, user } = await shopperWithCart({ price_paise: 30_000, stock: 5 }, 2);
    const { payment, held, released } = recordingPayment(async () => {
      await setSelling(app.database.db, plant.id, change);
    });
    await expect(ordersWith({ payment }).orders.placeOrder(user, checkoutInput())).rejects.toMatchObject({ status: 409, message: message(plant.name) });
    expect(released).toEqual(held);
    expect(held).toHaveLength(1);
    expect(await app.database.db.selectFrom("orders").select("id").execute()).toEqual([]);
    expect(await queuedMails()).toEqual([]);
    expect((await app.services.cart.getCart(user)).lines).toHaveLength(1);
  });

  it("refuses a cart that is not the one the checkout page showed before holding any money", async () => {
    const { plant, user } = await shopperWithCart({ price_paise: 30_000, stock: 5 }, 1);
    const shown = await app.services.cart.getCart(user);
    await setSelling(app.database.db, plant.id, { price_paise: 31_000 });
    const { payment, held } = recordingPayment();
    await expect(ordersWith({ payment }).orders.placeOrder(user, { ...checkoutInput(), cartFingerprint: shown.fingerprint })).rejects.toMatchObject({
      status: 409,
      message: messages.checkout.cartChanged,
    });
    expect(held).toEqual([]);
    expect(await app.database.db.selectFrom("orders").select("id").execute()).toEqual([]);
  });

  it("changes nothing when the payment is refused", async () => {
    const { plant, user } = await shopperWithCart({ stock: 5 }, 2);
    const { payment } = recordingPayment(async () => {
      throw new ConflictError("The card was declined.");
    });
    await expect(ordersWith({ payment }).orders.placeOrder(user, checkoutInput())).rejects.toMatchObject({ status: 409, message: "The card was declined." });
    expect(await stockOf(plant.id)).toBe(5);
    expect((await app.services.cart.getCart(user)).lines).toHaveLength(1);
    expect(await app.database.db.selectFrom("orders").select("id").execute()).toEqual([]);
  });

  it("keeps exactly one hold and sends one confirmation when one key is sent many times at once", async () => {
    const { user } = await shopperWithCart({ stock: 10 }, 2);
    const { payment, held, released } = recordingPayment();
    const { orders } = ordersWith({ payment });
    const input = checkoutInput();
    const results = await Promise.all(Array.from({ length: 20 }, () => orders.placeOrder(user, input)));
    expect(new Set(results.map((order) => order.id)).size).toBe(1);
    const kept = held.filter((hold) => !released.includes(hold));
    expect(kept.map((hold) => hold.orderId)).toEqual([results[0]!.id]);
    expect(await queuedMails()).toEqual([["order-placed", results[0]!.id, user.email, `Order ${results[0]!.number} is placed`]]);
  });

  it("stops, keeps the new line in the cart and lets the hold go when a line is added meanwhile (another tab)", async () => {
    const { user } = await shopperWithCart({ stock: 5 }, 1);
    const other = await createProduct(app.database.db, { stock: 5 });
    const { payment, held, released } = recordingPayment(() => app.services.cart.addToCart(user, { productId: other.id }));
    await expect(ordersWith({ payment }).orders.placeOrder(user, checkoutInput())).rejects.toMatchObject({ status: 409, message: messages.checkout.cartChanged });
    expect(released).toEqual(held);
    expect((await app.services.cart.getCart(user)).lines).toHaveLength(2);
    expect(await app.database.db.selectFrom("orders").select("id").execute()).toEqual([]);
  });
});

describe("cancelling and fulfilling", () => {
  async function placedOrder(stock = 5, quantity = 2) {
    const plant = await createProduct(app.database.db, { stock });
    const user = await shopper();
    await app.services.cart.addToCart(user, { productId: plant.id, quantity });
    return { plant, user, order: await app.services.orders.placeOrder(user, checkoutInput()) };
  }

  it("lets the owner cancel a pending order and returns its stock, once", async () => {
    const { plant, user, order } = await placedOrder();
    expect(await stockOf(plant.id)).toBe(3);
    expect((await app.services.orders.cancelOrder(user, order.id)).status).toBe("cancelled");
    expect(await stockOf(plant.id)).toBe(5);
    await expect(app.services.orders.cancelOrder(user, order.id)).rejects.toMatchObject({ status: 409, message: "Only a pending order can be cancelled." });
    expect(await stockOf(plant.id)).toBe(5);
  });

  it("offers cancelling only to the owner of a pending order, and shows admins the customer", async () => {
    const { user, order } = await placedOrder();
    const owner = await app.database.db.selectFrom("users").select(["name", "email"]).where("id", "=", user.id).executeTakeFirstOrThrow();
    const boss = await admin();
    expect((await app.services.orders.getOrder(user, order.id)).canCancel).toBe(true);
    expect((await app.services.orders.getOrder(boss, order.id)).canCancel).toBe(false);
    expect((await app.services.orders.getOrderForAdmin(boss, order.id)).customer).toEqual(owner);
    expect((await app.services.orders.listAllOrders(boss, {})).items.map((o) => o.customer)).toEqual([owner]);
    await app.services.orders.setStatus(boss, order.id, { status: "processing" });
    expect((await app.services.orders.getOrder(user, order.id)).canCancel).toBe(false);
  });

  it("keeps each order to its owner and the admins", async () => {
    const { order } = await placedOrder();
    const stranger = await shopper();
    await expect(app.services.orders.getOrder(stranger, order.id)).rejects.toMatchObject({ status: 404 });
    await expect(app.services.orders.cancelOrder(stranger, order.id)).rejects.toMatchObject({ status: 404 });
    expect(await app.services.orders.listMyOrders(stranger)).toEqual([]);
    const admin = await createShopper(app.database.db, app.database.dialect, { isAdmin: true });
    expect((await app.services.orders.getOrder(admin, order.id)).id).toBe(order.id);
    await expect(app.services.orders.listAllOrders(stranger, {})).rejects.toMatchObject({ status: 403 });
    await expect(app.services.orders.setStatus(stranger, order.id, { status: "shipped" })).rejects.toMatchObject({ status: 403 });
  });

  it("moves pending → processing → shipped → delivered, refuses other moves, and cancelling from processing returns stock", async () => {
    const admin = await createShopper(app.database.db, app.database.dialect, { isAdmin: true });
    const { order, plant } = await placedOrder();
    await expect(app.services.orders.setStatus(admin, order.id, { status: "shipped" })).rejects.toMatchObject({ status: 409 });
    for (const status of ["processing", "shipped", "delivered"] as const) {
      expect((await app.services.orders.setStatus(admin, order.id, { status })).status).toBe(status);
    }
    await expect(app.services.orders.setStatus(admin, order.id, { status: "cancelled" })).rejects.toMatchObject({ status: 409 });
    expect(await stockOf(plant.id)).toBe(3);

    const second = await placedOrder(4, 4);
    await app.services.orders.setStatus(admin, second.order.id, { status: "processing" });
    await app.services.orders.setStatus(admin, second.order.id, { status: "cancelled" });
    expect(await stockOf(second.plant.id)).toBe(4);

    const page = await app.services.orders.listAllOrders(admin, { status: "cancelled" });
    expect(page.items.map((o) => o.id)).toEqual([second.order.id]);
    // The customer hears when an order is placed, shipped or cancelled; a refused move queues nothing.
    const kindsFor = async (id: string) => (await queuedMails()).filter(([, reference]) => reference === id).map(([kind]) => kind).sort();
    expect(await kindsFor(order.id)).toEqual(["order-placed", "order-shipped"]);
    expect(await kindsFor(second.order.id)).toEqual(["order-cancelled", "order-placed"]);
  });
});

describe("announcing stock changes on the change feed", () => {
  /** Each change heard, with the product's stock read the moment it was heard (from the committed database). */
  function listen() {
    const heard: { change: Change; stock: Promise<number | undefined> }[] = [];
    const stop = app.infrastructure.changes.subscribe((change) => {
      const stock = change.type === "product" ? stockOf(change.productId) : Promise.resolve(undefined);
      heard.push({ change, stock });
    });
    return { heard, stop };
  }

  it("announces each ordered product's stock after the order commits, and again when a cancellation returns it", async () => {
    const fern = await createProduct(app.database.db, { stock: 4 });
    const palm = await createProduct(app.database.db, { stock: 2 });
    const user = await shopper();
    await app.services.cart.addToCart(user, { productId: fern.id, quantity: 3 });
    await app.services.cart.addToCart(user, { productId: palm.id });
    const { heard, stop } = listen();

    const order = await app.services.orders.placeOrder(user, checkoutInput());
    expect(heard.map((h) => h.change)).toEqual(
      expect.arrayContaining([
        { type: "product", productId: fern.id, aspects: ["stock"] },
        { type: "product", productId: palm.id, aspects: ["stock"] },
      ]),
    );
    expect(heard).toHaveLength(2);
    // Read when heard, by another connection on PostgreSQL: the new stock is already committed.
    expect(await Promise.all(heard.map((h) => h.stock))).toEqual(expect.arrayContaining([1, 1]));

    heard.length = 0;
    await app.services.orders.cancelOrder(user, order.id);
    expect(heard.map((h) => h.change)).toEqual(
      expect.arrayContaining([
        { type: "product", productId: fern.id, aspects: ["stock"] },
        { type: "product", productId: palm.id, aspects: ["stock"] },
      ]),
    );
    expect(heard).toHaveLength(2);
    expect((await Promise.all(heard.map((h) => h.stock))).sort()).toEqual([2, 4]);
    stop();
  });

  it("says the product went out of stock when an order takes its last one, and back in stock when a cancellation returns it", async () => {
    const fern = await createProduct(app.database.db, { stock: 2 });
    const user = await shopper();
    await app.services.cart.addToCart(user, { productId: fern.id, quantity: 2 });
    const { heard, stop } = listen();
    const order = await app.services.orders.placeOrder(user, checkoutInput());
    expect(heard.map((h) => h.change)).toEqual([{ type: "product", productId: fern.id, aspects: ["stock", "availability"] }]);
    heard.length = 0;
    await app.services.orders.cancelOrder(user, order.id);
    expect(heard.map((h) => h.change)).toEqual([{ type: "product", productId: fern.id, aspects: ["stock", "availability"] }]);
    stop();
  });

  it("announces nothing when the order's transaction rolls back after taking the stock", async () => {
    const { plant, user } = await shopperWithCart({ stock: 3 }, 2);
    const changes = createLocalChangeFeed();
    const heard: Change[] = [];
    changes.subscribe((change) => heard.push(change));
    // The day's totals are counted after the stock was decremented and announced (on PostgreSQL in the same
    // statement); a trigger makes that count fail, so the order's transaction rolls back after taking the stock.
    const { db } = app.database;
    if (app.database.dialect === "postgres") {
      await sql`create function refuse_day() returns trigger language plpgsql as $$ begin raise exception 'daily totals unavailable'; end $$`.execute(db);
      await sql`create trigger refuse_day before insert or update on order_daily_totals for each row execute function refuse_day()`.execute(db);
    } else {
      await sql`create trigger refuse_day before insert on order_daily_totals begin select raise(abort, 'daily totals unavailable'); end`.execute(db);
    }
    const { orders } = ordersWith({ changes });

    await expect(orders.placeOrder(user, checkoutInput())).rejects.toThrow("daily totals unavailable");
    expect(await stockOf(plant.id)).toBe(3);
    expect(await db.selectFrom("orders").select("id").execute()).toEqual([]);
    expect(await db.selectFrom("mail_outbox").select("id").execute()).toEqual([]);
    expect(heard).toEqual([]);
  });
});
