import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ORDERS_CSV_COLUMNS } from "#common/admin/catalog-csv.ts";
import { createProduct } from "../../../tests/support/factories.ts";
import { checkoutInput, createShopper, shipping } from "../../../tests/support/shoppers.ts";
import { createTestApp, type TestApp } from "../../../tests/support/test-app.ts";
import { ForbiddenError, InvalidInputError, UnauthorizedError } from "../../platform/errors.ts";
import type { SessionUser } from "../../platform/session-user.ts";

// The accountant's orders export (docs/decisions/058): the lines of a range of the shop's days (Asia/Kolkata here,
// UTC+5:30), with the order's totals and discount in rupees.

let app: TestApp;
let admin: SessionUser;
beforeEach(async () => {
  app = await createTestApp();
  admin = await createShopper(app.database.db, app.database.dialect, { isAdmin: true });
});
afterEach(async () => {
  await app.cleanup();
});

/** An order of `lines` placed by a new shopper, then dated `at` (an instant). */
async function orderAt(at: string, lines: { name: string; price: number; quantity: number }[], coupon?: string) {
  const user = await createShopper(app.database.db, app.database.dialect);
  for (const line of lines) {
    const plant = await createProduct(app.database.db, { name: line.name, price_paise: line.price, stock: 50 });
    await app.services.cart.addToCart(user, { productId: plant.id, quantity: line.quantity });
  }
  if (coupon) await app.services.cart.applyCoupon(user, { code: coupon });
  const order = await app.services.orders.placeOrder(user, checkoutInput());
  await app.database.db.updateTable("orders").set({ created_at: at }).where("id", "=", order.id).execute();
  return order;
}

async function exported(viewer: SessionUser | null, range: Record<string, string>) {
  const rows: Record<string, string>[] = [];
  for await (const page of app.services.orders.exportOrders(viewer, range)) {
    for (const cells of page) rows.push(Object.fromEntries(ORDERS_CSV_COLUMNS.map((column, index) => [column, cells[index]!])));
  }
  return rows;
}

describe(`the orders export (${process.env.TEST_DATABASE_URL ? "postgres" : "sqlite"})`, () => {
  it("writes one line per order line of the range's shop days, with totals and the discount in rupees", async () => {
    await app.services.coupons.createCoupon(admin, { code: "GREEN10", kind: "percent", value: "10" });
    // 1 November 00:00 and 23:59 in Kolkata: inside a range of that one day.
    const first = await orderAt("2026-10-31T18:30:00.000Z", [
      { name: "Boston fern", price: 49_950, quantity: 2 },
      { name: "Snake plant", price: 30_000, quantity: 1 },
    ], "GREEN10");
    const second = await orderAt("2026-11-01T18:29:00.000Z", [{ name: "Jade", price: 15_000, quantity: 1 }]);
    // 2 November 00:00 in Kolkata, and 31 October 23:59: outside it.
    await orderAt("2026-11-01T18:30:00.000Z", [{ name: "Pothos", price: 10_000, quantity: 1 }]);
    await orderAt("2026-10-31T18:29:00.000Z", [{ name: "Aloe", price: 10_000, quantity: 1 }]);

    const rows = await exported(admin, { from: "2026-11-01", to: "2026-11-01" });

    // An order's lines in the order's own order (its lines' positions); the orders oldest first.
    const linesOf = (number: string) => rows.filter((row) => row.order_number === number).map((row) => [row.product, row.quantity, row.unit_price, row.line_total]);
    expect(rows.map((row) => row.order_number)).toEqual([first.number, first.number, second.number]);
    expect(linesOf(first.number).map((line) => line[0])).toEqual(first.lines.map((line) => line.name));
    expect(linesOf(first.number)).toEqual(
      expect.arrayContaining([
        ["Boston fern", "2", "499.50", "999.00"],
        ["Snake plant", "1", "300.00", "300.00"],
      ]),
    );
    expect(linesOf(second.number)).toEqual([["Jade", "1", "150.00", "150.00"]]);
    // 10% of Rs. 1,299 off, Rs. 20 shipping: the order's own figures, repeated on each of its lines.
    expect(rows[0]).toMatchObject({ coupon: "GREEN10", discount: "129.90", shipping: "20.00", order_total: "1189.10", status: "pending" });
    expect(rows[1]).toMatchObject({ coupon: "GREEN10", discount: "129.90", order_total: "1189.10" });
    expect(rows[2]).toMatchObject({ coupon: "", discount: "0.00", order_total: "170.00" });
    expect(rows[0]).toMatchObject({ customer: shipping.name, date: "2026-11-01 00:00", payment_method: "Cash on Delivery", payment_reference: "" });
    expect(rows[2]!.date).toBe("2026-11-01 23:59");
  });

  it("reads past a page of orders: 205 orders of a day are each written once", async () => {
    const placed = await orderAt("2026-11-05T06:00:00.000Z", [{ name: "Moss ball", price: 10_000, quantity: 1 }]);
    const order = await app.database.db.selectFrom("orders").selectAll().where("id", "=", placed.id).executeTakeFirstOrThrow();
    const line = await app.database.db.selectFrom("order_lines").selectAll().where("order_id", "=", placed.id).executeTakeFirstOrThrow();
    // Copies at the same instant (checkout's rate limit allows few orders a shopper): the id breaks the tie, so none
    // is skipped or repeated between pages.
    for (let i = 0; i < 204; i++) {
      const id = randomUUID();
      await app.database.db
        .insertInto("orders")
        .values({ ...order, id, number: `PS-TEST-${String(i).padStart(4, "0")}`, idempotency_key: id, created_at: "2026-11-05T06:00:00.000Z", updated_at: "2026-11-05T06:00:00.000Z" })
        .execute();
      await app.database.db.insertInto("order_lines").values({ ...line, id: randomUUID(), order_id: id }).execute();
    }
    const rows = await exported(admin, { from: "2026-11-05", to: "2026-11-05" });
    expect(rows).toHaveLength(205);
    expect(new Set(rows.map((row) => row.order_number)).size).toBe(205);
  });

  it("refuses a shopper, a visitor and a range that ends before it starts", async () => {
    const shopper = await createShopper(app.database.db, app.database.dialect);
    expect(() => app.services.orders.exportOrders(shopper, { from: "2026-11-01", to: "2026-11-02" })).toThrow(ForbiddenError);
    expect(() => app.services.orders.exportOrders(null, { from: "2026-11-01", to: "2026-11-02" })).toThrow(UnauthorizedError);
    expect(() => app.services.orders.exportOrders(admin, { from: "2026-11-03", to: "2026-11-02" })).toThrow(InvalidInputError);
    expect(() => app.services.orders.exportOrders(admin, { from: "yesterday", to: "2026-11-02" })).toThrow(InvalidInputError);
  });
});
