import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createProduct } from "../../tests/support/factories.ts";
import { checkoutInput, createShopper } from "../../tests/support/shoppers.ts";
import { createTestApp, type TestApp } from "../../tests/support/test-app.ts";
import { ConflictError } from "./errors.ts";

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

    // A later price change does not touch the order.
    await app.database.db.updateTable("products").set({ price_paise: 1 }).where("id", "=", fern.id).execute();
    expect((await app.services.orders.getOrder(user, order.id)).lines.find((l) => l.name === "Bird's Nest Fern")?.unitPricePaise).toBe(45_000);
  });

  it("changes nothing when a line lacks stock, and says which plant and how many are left", async () => {
    const fern = await createProduct(app.database.db, { name: "Maidenhair Fern", stock: 3 });
    const cactus = await createProduct(app.database.db, { name: "Barrel Cactus", stock: 5 });
    const user = await shopper();
    await app.services.cart.addToCart(user, { productId: fern.id, quantity: 3 });
    await app.services.cart.addToCart(user, { productId: cactus.id });
    await app.database.db.updateTable("products").set({ stock: 2 }).where("id", "=", fern.id).execute();

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
  });
});
