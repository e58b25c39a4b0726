import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { messages } from "#common/shared/messages.ts";
import { createProductWithSizes } from "../../../tests/support/factories.ts";
import { checkoutInput, createShopper } from "../../../tests/support/shoppers.ts";
import { createTestApp, type TestApp } from "../../../tests/support/test-app.ts";
import { ConflictError } from "../../platform/errors.ts";

// A plant sold in sizes (docs/decisions/048): the size is the unit a cart holds, an order takes and a cancellation
// gives back, and the product's stock stays the total of its sizes' through all of it.

let app: TestApp;
beforeEach(async () => {
  app = await createTestApp();
});
afterEach(async () => {
  await app.cleanup();
});

const shopper = () => createShopper(app.database.db, app.database.dialect);
const sizeStocks = async (productId: string) =>
  (await app.database.db.selectFrom("product_variants").select("stock").where("product_id", "=", productId).orderBy("position").execute()).map((v) => v.stock);
const productStock = async (productId: string) =>
  (await app.database.db.selectFrom("products").select("stock").where("id", "=", productId).executeTakeFirstOrThrow()).stock;

const FIG_SIZES = [
  { label: 'Medium · 8" pot', price_paise: 250_000, stock: 10 },
  { label: 'Large · 10" pot', price_paise: 380_000, stock: 5 },
];

describe("ordering sizes", () => {
  it("holds two sizes of one plant as two cart lines, orders them at their own prices, and keeps each size's label and SKU on the order", async () => {
    const { product, sizeIds } = await createProductWithSizes(app.database.db, FIG_SIZES, { name: "Fig in sizes" });
    const user = await shopper();
    await app.services.cart.addToCart(user, { productId: product.id, variantId: sizeIds[1], quantity: 2 });
    await app.services.cart.addToCart(user, { productId: product.id, variantId: sizeIds[0] });
    await app.services.cart.addToCart(user, { productId: product.id, variantId: sizeIds[1] });

    const cart = await app.services.cart.getCart(user);
    expect(cart.lines.map((line) => [line.variantLabel, line.unitPricePaise, line.quantity])).toEqual([
      ['Large · 10" pot', 380_000, 3],
      ['Medium · 8" pot', 250_000, 1],
    ]);
    expect(cart.subtotalPaise).toBe(3 * 380_000 + 250_000);

    const order = await app.services.orders.placeOrder(user, checkoutInput());
    const skus = await app.database.db.selectFrom("product_variants").select(["id", "sku"]).where("product_id", "=", product.id).orderBy("position").execute();
    expect(order.lines.map((line) => [line.variantId, line.variantLabel, line.sku, line.unitPricePaise, line.quantity]).sort()).toEqual(
      [
        [sizeIds[0], 'Medium · 8" pot', skus[0]!.sku, 250_000, 1],
        [sizeIds[1], 'Large · 10" pot', skus[1]!.sku, 380_000, 3],
      ].sort(),
    );
    expect(await sizeStocks(product.id)).toEqual([9, 2]);
    expect(await productStock(product.id)).toBe(11);
  });

  it("adds the first size when none is named, and refuses a size of another plant as not found", async () => {
    const fig = await createProductWithSizes(app.database.db, FIG_SIZES);
    const palm = await createProductWithSizes(app.database.db, FIG_SIZES);
    const user = await shopper();
    await app.services.cart.addToCart(user, { productId: fig.product.id });
    expect((await app.services.cart.getCart(user)).lines.map((line) => line.variantId)).toEqual([fig.sizeIds[0]]);
    await expect(app.services.cart.addToCart(user, { productId: fig.product.id, variantId: palm.sizeIds[1] })).rejects.toMatchObject({ status: 404 });
  });

  it("refuses an add beyond the chosen size's stock with that size's count, though the plant has more in other sizes", async () => {
    const { product, sizeIds } = await createProductWithSizes(app.database.db, FIG_SIZES);
    const user = await shopper();
    await expect(app.services.cart.addToCart(user, { productId: product.id, variantId: sizeIds[1], quantity: 6 })).rejects.toThrow(messages.cart.onlyLeft(5));
  });

  it("names the size in a shortage found at checkout, and orders nothing", async () => {
    const { product, sizeIds } = await createProductWithSizes(app.database.db, FIG_SIZES, { name: "Fig with a shortage" });
    const user = await shopper();
    await app.services.cart.addToCart(user, { productId: product.id, variantId: sizeIds[1], quantity: 3 });
    await app.database.db.updateTable("product_variants").set({ stock: 1 }).where("id", "=", sizeIds[1]!).execute();
    await app.database.db.updateTable("products").set({ stock: 11 }).where("id", "=", product.id).execute();
    await expect(app.services.orders.placeOrder(user, checkoutInput())).rejects.toThrow(messages.checkout.shortage('Fig with a shortage (Large · 10" pot)', 1));
    expect(await sizeStocks(product.id)).toEqual([10, 1]);
  });

  it("gives a cancelled order's units back to the sizes they came from and to the plant's total", async () => {
    const { product, sizeIds } = await createProductWithSizes(app.database.db, FIG_SIZES);
    const user = await shopper();
    await app.services.cart.addToCart(user, { productId: product.id, variantId: sizeIds[1], quantity: 5 });
    const order = await app.services.orders.placeOrder(user, checkoutInput());
    expect(await sizeStocks(product.id)).toEqual([10, 0]);
    await app.services.orders.cancelOrder(user, order.id);
    expect(await sizeStocks(product.id)).toEqual([10, 5]);
    expect(await productStock(product.id)).toBe(15);
  });

  it("keeps an order's label, SKU, name and price when its size is deleted, and shows a cart line holding that size as no longer sold", async () => {
    const { product, sizeIds } = await createProductWithSizes(app.database.db, FIG_SIZES, { name: "Fig losing a size" });
    const buyer = await shopper();
    await app.services.cart.addToCart(buyer, { productId: product.id, variantId: sizeIds[1] });
    const order = await app.services.orders.placeOrder(buyer, checkoutInput());
    const holder = await shopper();
    await app.services.cart.addToCart(holder, { productId: product.id, variantId: sizeIds[1] });

    await app.database.db.deleteFrom("product_variants").where("id", "=", sizeIds[1]!).execute();

    const kept = (await app.services.orders.getOrder(buyer, order.id)).lines[0]!;
    expect(kept).toMatchObject({ variantId: null, variantLabel: 'Large · 10" pot', sku: order.lines[0]!.sku, name: "Fig losing a size", unitPricePaise: 380_000 });
    const line = (await app.services.cart.getCart(holder)).lines[0]!;
    expect(line).toMatchObject({ available: false, problem: messages.checkout.noLongerSold, variantId: null });
  });
});

describe("a size sold out is a change of availability", () => {
  it("announces availability when an order takes a size's last unit though the plant has more, and again when a cancellation gives it back", async () => {
    const { product, sizeIds } = await createProductWithSizes(app.database.db, FIG_SIZES);
    const user = await shopper();
    await app.services.cart.addToCart(user, { productId: product.id, variantId: sizeIds[1], quantity: 5 });
    const heard: unknown[] = [];
    const stop = app.infrastructure.changes.subscribe((change) => heard.push(change));
    try {
      const order = await app.services.orders.placeOrder(user, checkoutInput());
      expect(heard).toEqual([{ type: "product", productId: product.id, aspects: ["stock", "availability"] }]);
      heard.length = 0;
      await app.services.orders.cancelOrder(user, order.id);
      expect(heard).toEqual([{ type: "product", productId: product.id, aspects: ["stock", "availability"] }]);
      heard.length = 0;
      await app.services.cart.addToCart(user, { productId: product.id, variantId: sizeIds[1], quantity: 1 });
      await app.services.orders.placeOrder(user, checkoutInput());
      expect(heard).toEqual([{ type: "product", productId: product.id, aspects: ["stock"] }]);
    } finally {
      stop();
    }
  });
});

describe("the last unit of a size, raced for", () => {
  /**
   * `count` shoppers, each with one of both sizes in the cart (half added the second size first: the lines are taken
   * in one order whatever order they were added in), all checking out at once; answers the orders placed and refused.
   */
  async function raceForBothSizes(productId: string, sizeIds: string[], count: number) {
    const shoppers = [];
    for (let i = 0; i < count; i++) {
      const user = await shopper();
      const sizes = i % 2 === 0 ? [sizeIds[1]!, sizeIds[0]!] : [sizeIds[0]!, sizeIds[1]!];
      for (const variantId of sizes) await app.services.cart.addToCart(user, { productId, variantId });
      shoppers.push(user);
    }
    const results = await Promise.allSettled(shoppers.map((user) => app.services.orders.placeOrder(user, checkoutInput())));
    return { placed: results.filter((r) => r.status === "fulfilled"), refused: results.filter((r): r is PromiseRejectedResult => r.status === "rejected") };
  }

  it("sells a size's last 3 units to exactly 3 of 60 shoppers racing for them, each also buying the plant's other size, never lowering a size or the total below what was sold", async () => {
    const { product, sizeIds } = await createProductWithSizes(app.database.db, [
      { label: "Small", price_paise: 30_000, stock: 100 },
      { label: "Large", price_paise: 90_000, stock: 3 },
    ]);
    const { placed, refused } = await raceForBothSizes(product.id, sizeIds, 60);
    expect(placed).toHaveLength(3);
    for (const r of refused) expect(r.reason).toBeInstanceOf(ConflictError);
    expect(await sizeStocks(product.id)).toEqual([97, 0]);
    expect(await productStock(product.id)).toBe(97);
    const sold = await app.database.db.selectFrom("order_lines").select(["variant_id", "quantity"]).where("product_id", "=", product.id).execute();
    expect(sold.filter((line) => line.variant_id === sizeIds[1]).reduce((n, line) => n + line.quantity, 0)).toBe(3);
    expect(sold.filter((line) => line.variant_id === sizeIds[0]).reduce((n, line) => n + line.quantity, 0)).toBe(3);
  }, 60_000);

  it("sells two scarce sizes of one plant without a deadlock or an oversell when 40 shoppers each want one of each", async () => {
    const { product, sizeIds } = await createProductWithSizes(app.database.db, [
      { label: "Small", price_paise: 30_000, stock: 4 },
      { label: "Large", price_paise: 90_000, stock: 4 },
    ]);
    const { placed, refused } = await raceForBothSizes(product.id, sizeIds, 40);
    expect(placed).toHaveLength(4);
    for (const r of refused) expect(r.reason).toBeInstanceOf(ConflictError);
    expect(await sizeStocks(product.id)).toEqual([0, 0]);
    expect(await productStock(product.id)).toBe(0);
  }, 60_000);
});
