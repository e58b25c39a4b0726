import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { messages } from "#common/shared/messages.ts";
import { createProduct, setSelling } from "../../../tests/support/factories.ts";
import { untilWaitingForShopperLock } from "../../../tests/support/lock-waits.ts";
import { checkoutInput, createShopper } from "../../../tests/support/shoppers.ts";
import { createTestApp, type TestApp } from "../../../tests/support/test-app.ts";
import { inShopperTransaction } from "../../platform/db/write-transaction.ts";

let app: TestApp;
beforeEach(async () => {
  app = await createTestApp();
});
afterEach(async () => {
  await app.cleanup();
});

const shopper = () => createShopper(app.database.db, app.database.dialect);
const setStock = (id: string, stock: number) => setSelling(app.database.db, id, { stock });

describe("the cart summary", () => {
  it("counts only what can be ordered, in the summary and on the cart icon alike, and charges shipping only then", async () => {
    const fern = await createProduct(app.database.db, { price_paise: 40_000, stock: 5 });
    const palm = await createProduct(app.database.db, { price_paise: 90_000, stock: 5 });
    const user = await shopper();
    await app.services.cart.addToCart(user, { productId: fern.id, quantity: 2 });
    await app.services.cart.addToCart(user, { productId: palm.id, quantity: 3 });
    await setStock(palm.id, 1);

    const mixed = await app.services.cart.getCart(user);
    expect(mixed).toMatchObject({ itemCount: 2, subtotalPaise: 80_000, shippingPaise: 2000, totalPaise: 82_000, canCheckOut: false });
    const problemOf = (productId: string) => mixed.lines.find((line) => line.productId === productId)?.problem;
    expect([problemOf(fern.id), problemOf(palm.id)]).toEqual([null, messages.checkout.shortage(palm.name, 1)]);
    expect(await app.services.cart.countItems(user)).toBe(2);

    await setStock(fern.id, 0);
    const nothing = await app.services.cart.getCart(user);
    expect(nothing).toMatchObject({ itemCount: 0, subtotalPaise: 0, shippingPaise: 0, totalPaise: 0, canCheckOut: false });
    expect(await app.services.cart.countItems(user)).toBe(0);

    await setStock(fern.id, 5);
    await setStock(palm.id, 5);
    expect(await app.services.cart.getCart(user)).toMatchObject({ itemCount: 5, subtotalPaise: 350_000, shippingPaise: 2000, canCheckOut: true });
    expect(await app.services.cart.countItems(user)).toBe(5);
  });
});

describe("a product that is gone", () => {
  it("stays in the cart as unavailable, stops checkout by saying so, and can be removed", async () => {
    const kept = await createProduct(app.database.db, { stock: 5 });
    const gone = await createProduct(app.database.db, { stock: 5 });
    const user = await shopper();
    await app.services.cart.addToCart(user, { productId: kept.id });
    await app.services.cart.addToCart(user, { productId: gone.id, quantity: 2 });
    await app.database.db.deleteFrom("products").where("id", "=", gone.id).execute();

    const cart = await app.services.cart.getCart(user);
    expect(cart.lines.map((line) => line.productId).sort()).toEqual([kept.id, null].sort());
    const line = cart.lines.find((l) => l.productId === null)!;
    expect(line).toMatchObject({ name: messages.cart.productGone, available: false, problem: messages.checkout.noLongerSold, lineTotalPaise: 0 });
    expect(cart).toMatchObject({ itemCount: 1, canCheckOut: false });

    await expect(app.services.orders.placeOrder(user, checkoutInput())).rejects.toMatchObject({ status: 409, message: messages.checkout.noLongerSold });
    await expect(app.services.cart.setQuantity(user, line.id, { quantity: 1 })).rejects.toMatchObject({ status: 409 });
    await app.services.cart.removeItem(user, line.id);
    expect((await app.services.orders.placeOrder(user, checkoutInput())).lines.map((l) => l.productId)).toEqual([kept.id]);
  });
});

describe("cart changes and checkout at the same time", () => {
  it("a cart change waits while the shopper's lock is held (as during a checkout), then goes ahead", async () => {
    const plant = await createProduct(app.database.db, { stock: 5 });
    const user = await shopper();
    const events: string[] = [];
    let locked: () => void = () => {};
    const holding = new Promise<void>((resolve) => (locked = resolve));
    let letGo: () => void = () => {};
    const released = new Promise<void>((resolve) => (letGo = resolve));
    const checkout = inShopperTransaction(app.database, user.id, async () => {
      locked();
      await released;
      events.push("checkout done");
    });
    await holding;
    const add = app.services.cart.addToCart(user, { productId: plant.id }).then(() => events.push("add done"));
    // The checkout ends only once the add waits for the lock, or has finished (then the order shows it).
    try {
      await untilWaitingForShopperLock(app.database, user.id, add);
    } finally {
      letGo();
    }
    await Promise.all([checkout, add]);
    expect(events).toEqual(["checkout done", "add done"]);
    expect((await app.services.cart.getCart(user)).itemCount).toBe(1);
  });

  it("never loses a line added while the shopper's checkout runs: it is ordered, or stays in the cart", async () => {
    const ordered = await createProduct(app.database.db, { stock: 1000 });
    const addedMeanwhile = await createProduct(app.database.db, { stock: 1000 });
    const users = [];
    for (let i = 0; i < 100; i++) {
      const user = await shopper();
      await app.services.cart.addToCart(user, { productId: ordered.id });
      users.push(user);
    }
    // Each add starts a little later than the last, so that some land inside a checkout: after 0–24 ms, or after
    // 0–294 turns of the microtask queue — on SQLite, whose driver answers synchronously, a whole checkout runs
    // within one macrotask, so only the latter can reach its middle.
    const later = (i: number) =>
      i % 2 ? new Promise((resolve) => setTimeout(resolve, i % 25)) : Array.from({ length: i * 3 }).reduce<Promise<unknown>>((p) => p.then(() => undefined), Promise.resolve());
    const outcomes = await Promise.all(
      users.map(async (user, i) => {
        let checkoutSettled = false;
        let addedDuringCheckout = false;
        const [order] = await Promise.all([
          // Added after the order was priced, the line stops it: the shopper is asked to look again.
          app.services.orders
            .placeOrder(user, checkoutInput())
            .catch((error: unknown) => {
              expect(error).toMatchObject({ status: 409, message: messages.checkout.cartChanged });
              return undefined;
            })
            .finally(() => (checkoutSettled = true)),
          later(i).then(() => {
            addedDuringCheckout = !checkoutSettled;
            return app.services.cart.addToCart(user, { productId: addedMeanwhile.id });
          }),
        ]);
        const inOrder = order?.lines.some((line) => line.productId === addedMeanwhile.id) ?? false;
        const inCart = (await app.services.cart.getCart(user)).lines.some((line) => line.productId === addedMeanwhile.id);
        return { inOrder, inCart, addedDuringCheckout };
      }),
    );
    // The race was run: adds were sent while their shopper's checkout had started and not yet finished.
    expect(outcomes.filter((outcome) => outcome.addedDuringCheckout).length).toBeGreaterThan(0);
    for (const outcome of outcomes) expect(outcome.inOrder !== outcome.inCart, JSON.stringify(outcome)).toBe(true);
    const sold = outcomes.filter((outcome) => outcome.inOrder).length;
    expect((await app.database.db.selectFrom("products").select("stock").where("id", "=", addedMeanwhile.id).executeTakeFirstOrThrow()).stock).toBe(1000 - sold);
  }, 60_000);
});
