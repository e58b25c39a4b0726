import { createHash } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_CART_QUANTITY } from "#common/shared/constants.ts";
import { messages } from "#common/shared/messages.ts";
import { createProduct, setSelling } from "../../../tests/support/factories.ts";
import { untilWaitingForRowLock } from "../../../tests/support/lock-waits.ts";
import { createShopper } from "../../../tests/support/shoppers.ts";
import { createTestApp, type TestApp } from "../../../tests/support/test-app.ts";
import { inShopperTransaction } from "../../platform/db/write-transaction.ts";
import { mergeVisitorCart, VISITOR_CART_IDLE_DAYS, type VisitorCartOutcome } from "./index.ts";
import { visitorCartRateRule } from "./visitor-cart.ts";

let app: TestApp;
beforeEach(async () => {
  app = await createTestApp();
});
afterEach(async () => {
  await app.cleanup();
});

const c = messages.cart;
/** Who is adding: a visitor's address, by which their new carts are counted. */
const visitor = { clientIp: "203.0.113.7" };
const cart = () => app.services.cart;
const shopper = () => createShopper(app.database.db, app.database.dialect);
const setStock = (id: string, stock: number) => setSelling(app.database.db, id, { stock });
const issuedToken = (outcome: VisitorCartOutcome) => {
  if (outcome.kind !== "issued") throw new Error(`expected a token, got ${outcome.kind}`);
  return outcome.token;
};
/** A visitor's first add: the token their browser is given. */
const visitorAdds = async (productId: string, quantity = 1) => issuedToken(await cart().addToVisitorCart(null, { productId, quantity }, visitor));
const storedCarts = () => app.database.db.selectFrom("visitor_carts").selectAll().execute();
const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 60 * 60 * 1000).toISOString();

describe("a visitor's cart", () => {
  it("is made by the first add, under a random token of which the database keeps only the SHA-256", async () => {
    const plant = await createProduct(app.database.db, { stock: 5, price_paise: 30_000 });
    expect(await storedCarts()).toEqual([]);
    const token = await visitorAdds(plant.id, 2);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const [stored] = await storedCarts();
    expect(stored!.token_hash).toBe(createHash("sha256").update(token).digest("base64url"));
    expect(JSON.stringify(await storedCarts())).not.toContain(token);
    const { cart: shown, outcome } = await cart().getVisitorCart(token);
    expect(outcome).toEqual({ kind: "unchanged" });
    expect(shown).toMatchObject({ itemCount: 2, subtotalPaise: 60_000, shippingPaise: 2000, canCheckOut: true, lines: [{ productId: plant.id, quantity: 2 }] });
    // A second add goes into the same cart.
    expect(await cart().addToVisitorCart(token, { productId: plant.id }, visitor)).toEqual({ kind: "issued", token });
    expect((await cart().countVisitorItems(token)).count).toBe(3);
  });

  it("is never reached with another visitor's token: their lines are 'not found' and stay as they are", async () => {
    const plant = await createProduct(app.database.db, { stock: 5 });
    const mine = await visitorAdds(plant.id, 2);
    const theirs = await visitorAdds(plant.id, 1);
    expect(theirs).not.toBe(mine);
    const myLine = (await cart().getVisitorCart(mine)).cart.lines[0]!;

    expect((await cart().getVisitorCart(theirs)).cart.lines.map((line) => line.quantity)).toEqual([1]);
    await expect(cart().setVisitorQuantity(theirs, myLine.id, { quantity: 4 })).rejects.toMatchObject({ status: 404, message: `${c.updatePrefix} ${c.itemNotFound}` });
    await expect(cart().removeVisitorItem(theirs, myLine.id)).rejects.toMatchObject({ status: 404, message: `${c.removePrefix} ${c.itemNotFound}` });
    await expect(cart().removeVisitorItem(null, myLine.id)).rejects.toMatchObject({ status: 404 });
    // Nor an account's: an account's cart line id is not a visitor's either.
    const user = await shopper();
    await cart().addToCart(user, { productId: plant.id });
    const accountLine = (await cart().getCart(user)).lines[0]!;
    await expect(cart().removeVisitorItem(mine, accountLine.id)).rejects.toMatchObject({ status: 404 });
    expect((await cart().getVisitorCart(mine)).cart.lines).toMatchObject([{ id: myLine.id, quantity: 2 }]);
  });

  it("keeps the account cart's rules and words: the stock, the most of one plant, a sold-out plant, an unknown one", async () => {
    const plant = await createProduct(app.database.db, { stock: 3 });
    const soldOut = await createProduct(app.database.db, { stock: 0 });
    const plenty = await createProduct(app.database.db, { stock: MAX_CART_QUANTITY + 10 });
    const token = await visitorAdds(plant.id, 2);

    await expect(cart().addToVisitorCart(token, { productId: plant.id, quantity: 2 }, visitor)).rejects.toMatchObject({ status: 409, message: `${c.addPrefix} ${c.onlyLeft(3)}` });
    await expect(cart().addToVisitorCart(token, { productId: soldOut.id }, visitor)).rejects.toMatchObject({ status: 409, message: `${c.addPrefix} ${c.outOfStock}` });
    await cart().addToVisitorCart(token, { productId: plenty.id, quantity: MAX_CART_QUANTITY }, visitor);
    await expect(cart().addToVisitorCart(token, { productId: plenty.id }, visitor)).rejects.toMatchObject({ status: 400, message: `${c.addPrefix} ${c.quantityAtMost(MAX_CART_QUANTITY)}` });
    await expect(cart().addToVisitorCart(token, { productId: "no-such-plant" }, visitor)).rejects.toMatchObject({ status: 404, message: `${c.addPrefix} ${messages.product.notFound}` });
    await expect(cart().addToVisitorCart(token, { productId: plant.id, quantity: 0 }, visitor)).rejects.toMatchObject({ status: 400 });

    const line = (await cart().getVisitorCart(token)).cart.lines.find((l) => l.productId === plant.id)!;
    await expect(cart().setVisitorQuantity(token, line.id, { quantity: 4 })).rejects.toMatchObject({ status: 409, message: `${c.updatePrefix} ${c.onlyLeft(3)}` });
    await cart().setVisitorQuantity(token, line.id, { quantity: 3 });
    expect((await cart().getVisitorCart(token)).cart.lines.find((l) => l.id === line.id)?.quantity).toBe(3);
    await cart().setVisitorQuantity(token, line.id, { quantity: 0 });
    expect((await cart().getVisitorCart(token)).cart.lines.map((l) => l.productId)).toEqual([plenty.id]);
  });

  it("is not made by a refused first add: no row, no token", async () => {
    const soldOut = await createProduct(app.database.db, { stock: 0 });
    await expect(cart().addToVisitorCart(null, { productId: soldOut.id }, visitor)).rejects.toMatchObject({ status: 409 });
    expect(await storedCarts()).toEqual([]);
  });

  it("treats a forged, unknown or malformed token as no cart and says to forget it; an add under one makes a new cart", async () => {
    const plant = await createProduct(app.database.db, { stock: 5 });
    const real = await visitorAdds(plant.id);
    const forged = `${real.slice(0, -1)}${real.endsWith("A") ? "B" : "A"}`;
    for (const token of [forged, "not a token", "", "x".repeat(5000)]) {
      const read = await cart().getVisitorCart(token);
      expect(read.cart.lines).toEqual([]);
      expect(read.outcome).toEqual({ kind: "ended" });
    }
    expect(await cart().getVisitorCart(null)).toMatchObject({ cart: { lines: [], itemCount: 0 }, outcome: { kind: "unchanged" } });
    const fresh = issuedToken(await cart().addToVisitorCart(forged, { productId: plant.id }, visitor));
    expect(fresh).not.toBe(forged);
    expect(fresh).not.toBe(real);
    expect((await cart().countVisitorItems(real)).count).toBe(1);
  });

  it("is started at most a bounded number of times an hour from one address; adding to a cart it has is never refused", async () => {
    const plant = await createProduct(app.database.db, { stock: 1000 });
    let last = "";
    for (let i = 0; i < visitorCartRateRule.limit; i++) last = await visitorAdds(plant.id);
    await expect(cart().addToVisitorCart(null, { productId: plant.id }, visitor)).rejects.toMatchObject({
      status: 429,
      message: expect.stringContaining(c.tooManyVisitorCarts),
    });
    expect(await storedCarts()).toHaveLength(visitorCartRateRule.limit);
    expect(await cart().addToVisitorCart(last, { productId: plant.id }, visitor)).toEqual({ kind: "issued", token: last });
    expect(issuedToken(await cart().addToVisitorCart(null, { productId: plant.id }, { clientIp: "198.51.100.4" }))).not.toBe(last);
  });

  it(`is forgotten after ${VISITOR_CART_IDLE_DAYS} idle days: on sight, and a few at a time by later adds`, async () => {
    const plant = await createProduct(app.database.db, { stock: 100 });
    const idle = await visitorAdds(plant.id);
    const alsoIdle = await visitorAdds(plant.id);
    const recent = await visitorAdds(plant.id);
    await app.database.db.updateTable("visitor_carts").set({ used_at: daysAgo(VISITOR_CART_IDLE_DAYS + 1) }).execute();
    await app.database.db.updateTable("visitor_carts").set({ used_at: daysAgo(VISITOR_CART_IDLE_DAYS - 1) }).where("token_hash", "=", createHash("sha256").update(recent).digest("base64url")).execute();

    expect(await cart().getVisitorCart(idle)).toMatchObject({ cart: { lines: [] }, outcome: { kind: "ended" } });
    expect(await storedCarts()).toHaveLength(2);
    // A read a day or more after the last use starts the idle days (and the cookie's) again.
    expect(await cart().getVisitorCart(recent)).toMatchObject({ cart: { itemCount: 1 }, outcome: { kind: "issued", token: recent } });
    await visitorAdds(plant.id);
    expect(await storedCarts()).toHaveLength(2);
    expect((await cart().getVisitorCart(alsoIdle)).outcome).toEqual({ kind: "ended" });
    expect((await cart().countVisitorItems(recent)).count).toBe(1);
  });
});

describe("merging a visitor's cart into an account's", () => {
  it("adds the quantities, capped by the stock, never lowers the account's own, tells what changed and deletes the visitor's cart", async () => {
    const monstera = await createProduct(app.database.db, { name: "Monstera", stock: 3 });
    const fern = await createProduct(app.database.db, { name: "Fern", stock: 10 });
    const cactus = await createProduct(app.database.db, { name: "Cactus", stock: 5 });
    const gone = await createProduct(app.database.db, { name: "Gone", stock: 5 });
    const user = await shopper();
    await cart().addToCart(user, { productId: monstera.id, quantity: 2 });
    await cart().addToCart(user, { productId: cactus.id, quantity: 4 });

    const token = await visitorAdds(monstera.id, 3);
    await cart().addToVisitorCart(token, { productId: fern.id, quantity: 2 }, visitor);
    await cart().addToVisitorCart(token, { productId: cactus.id, quantity: 1 }, visitor);
    await cart().addToVisitorCart(token, { productId: gone.id, quantity: 1 }, visitor);
    await app.database.db.deleteFrom("products").where("id", "=", gone.id).execute();
    await setStock(cactus.id, 2);

    const merged = await cart().mergeVisitorCart(token, user.id);
    expect(merged).toEqual({
      added: 3,
      limits: [c.mergeLimitedByStock("Monstera", 3), c.mergeLimitedByStock("Cactus", 4)],
      notice: "3 plants from your visit were added to your cart; Monstera was limited to 3 by stock; Cactus was limited to 4 by stock.",
    });
    const quantities = Object.fromEntries((await cart().getCart(user)).lines.map((line) => [line.name, line.quantity]));
    expect(quantities).toEqual({ Monstera: 3, Cactus: 4, Fern: 2 });
    expect(await storedCarts()).toEqual([]);
    expect(await app.database.db.selectFrom("visitor_cart_items").selectAll().execute()).toEqual([]);
    expect(await cart().mergeVisitorCart(token, user.id)).toBeNull();
  });

  it("caps a line by the most a cart holds of one plant, and says so", async () => {
    const plenty = await createProduct(app.database.db, { name: "Pothos", stock: MAX_CART_QUANTITY * 2 });
    const user = await shopper();
    await cart().addToCart(user, { productId: plenty.id, quantity: MAX_CART_QUANTITY - 1 });
    const token = await visitorAdds(plenty.id, 5);
    expect(await cart().mergeVisitorCart(token, user.id)).toMatchObject({ added: 1, limits: [c.mergeLimitedByMax("Pothos", MAX_CART_QUANTITY)] });
    expect((await cart().getCart(user)).lines[0]!.quantity).toBe(MAX_CART_QUANTITY);
  });

  it("merges nothing for an unknown, forged or expired token, and an expired cart is deleted", async () => {
    const plant = await createProduct(app.database.db, { stock: 5 });
    const user = await shopper();
    const token = await visitorAdds(plant.id);
    expect(await cart().mergeVisitorCart("not a token", user.id)).toBeNull();
    expect(await cart().mergeVisitorCart(`${"A".repeat(43)}`, user.id)).toBeNull();
    await app.database.db.updateTable("visitor_carts").set({ used_at: daysAgo(VISITOR_CART_IDLE_DAYS + 1) }).execute();
    expect(await cart().mergeVisitorCart(token, user.id)).toBeNull();
    expect(await storedCarts()).toEqual([]);
    expect((await cart().getCart(user)).lines).toEqual([]);
  });

  it("adds once when two sign-ins with the same cookie race: the second waits for the first, then finds no cart", async () => {
    const plant = await createProduct(app.database.db, { stock: 100 });
    const first = await shopper();
    const second = await shopper();
    const token = await visitorAdds(plant.id, 2);

    let merged: () => void = () => {};
    const mergedInFirst = new Promise<void>((resolve) => (merged = resolve));
    let letGo: () => void = () => {};
    const released = new Promise<void>((resolve) => (letGo = resolve));
    // The first sign-in's transaction merges and holds on before committing.
    const firstMerge = inShopperTransaction(app.database, first.id, async (trx) => {
      const result = await mergeVisitorCart(trx, token, first.id);
      merged();
      await released;
      return result;
    });
    await mergedInFirst;
    // Another account (another shopper lock), the same cookie: only the visitor cart's row can keep it waiting.
    const secondMerge = cart().mergeVisitorCart(token, second.id);
    try {
      await untilWaitingForRowLock(app.database, "visitor_carts", secondMerge);
    } finally {
      letGo();
    }
    const [one, other] = await Promise.all([firstMerge, secondMerge]);
    expect(one).toMatchObject({ added: 2 });
    expect(other).toBeNull();
    expect((await cart().getCart(first)).itemCount).toBe(2);
    expect((await cart().getCart(second)).itemCount).toBe(0);

    // And without holding anything back: many pairs of sign-ins sent at once, each cart added exactly once.
    const pairs = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const token = await visitorAdds(plant.id, 1);
        const [a, b] = await Promise.all([cart().mergeVisitorCart(token, first.id), cart().mergeVisitorCart(token, second.id)]);
        return [a, b].filter((result) => result !== null).length;
      }),
    );
    expect(pairs).toEqual(Array(10).fill(1));
    expect((await cart().getCart(first)).itemCount + (await cart().getCart(second)).itemCount).toBe(12);
  });
});
