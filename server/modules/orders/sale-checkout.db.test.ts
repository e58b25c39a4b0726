import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createProduct } from "../../../tests/support/factories.ts";
import { checkoutInput, createShopper } from "../../../tests/support/shoppers.ts";
import { createTestApp, type TestApp } from "../../../tests/support/test-app.ts";
import { dialectUnderTest } from "../../../tests/support/test-database.ts";
import { setTestClock } from "../../platform/clock.ts";

// What a sale charges (docs/decisions/047): the cart line, the checkout's total and the order's snapshot all take
// a line's unit price from the one price rule, inside the window and after it alike.

const NOW = Date.parse("2026-12-01T06:00:00.000Z");
const HOUR = 3_600_000;

let app: TestApp;
beforeEach(async () => {
  app = await createTestApp();
  setTestClock(NOW);
});
afterEach(async () => {
  setTestClock(Date.now());
  await app.cleanup();
});

async function orderOf(saleEndsAt: number) {
  const plant = await createProduct(app.database.db, { price_paise: 75_000, compare_at_paise: 100_000, sale_ends_at: new Date(saleEndsAt).toISOString(), stock: 5 });
  const user = await createShopper(app.database.db, app.database.dialect);
  await app.services.cart.addToCart(user, { productId: plant.id, quantity: 2 });
  const cart = await app.services.cart.getCart(user);
  const order = await app.services.orders.placeOrder(user, { ...checkoutInput(), cartFingerprint: cart.fingerprint });
  return { line: cart.lines[0]!, order };
}

describe(`a sale at checkout (${dialectUnderTest})`, () => {
  it("charges the sale price inside the window: the cart line, the order's line and its subtotal agree", async () => {
    const { line, order } = await orderOf(NOW + HOUR);
    expect({ unit: line.unitPricePaise, sale: line.sale }).toEqual({ unit: 75_000, sale: { regularPaise: 100_000, savingPaise: 25_000, savingPercent: 25 } });
    expect({ unit: order.lines[0]!.unitPricePaise, subtotal: order.subtotalPaise }).toEqual({ unit: 75_000, subtotal: 150_000 });
  });

  it("charges the compare-at price once the window has ended, by itself: the cart line, the order's line and its subtotal agree", async () => {
    const { line, order } = await orderOf(NOW - HOUR);
    expect({ unit: line.unitPricePaise, sale: line.sale }).toEqual({ unit: 100_000, sale: null });
    expect({ unit: order.lines[0]!.unitPricePaise, subtotal: order.subtotalPaise }).toEqual({ unit: 100_000, subtotal: 200_000 });
  });
});
