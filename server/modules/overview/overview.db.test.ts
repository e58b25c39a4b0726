import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createProduct, setSelling } from "../../../tests/support/factories.ts";
import { checkoutInput, createShopper } from "../../../tests/support/shoppers.ts";
import { createTestApp, type TestApp } from "../../../tests/support/test-app.ts";
import { addDays, shopDay } from "../../platform/shop-day.ts";
import { createOverviewService } from "./overview.ts";

let app: TestApp;
beforeEach(async () => {
  app = await createTestApp();
});
afterEach(async () => {
  await app.cleanup();
});

const admin = () => createShopper(app.database.db, app.database.dialect, { isAdmin: true });
const shopper = () => createShopper(app.database.db, app.database.dialect);
const totalsRows = () => app.database.db.selectFrom("order_daily_totals").selectAll().execute();

/** A shopper who has ordered `quantity` of a new plant at `pricePaise` (plus the Rs. 20 shipping). */
async function placeOrder(pricePaise: number, quantity = 1) {
  const plant = await createProduct(app.database.db, { price_paise: pricePaise, stock: 50 });
  const user = await shopper();
  await app.services.cart.addToCart(user, { productId: plant.id, quantity });
  return app.services.orders.placeOrder(user, checkoutInput());
}

describe("daily order totals", () => {
  it("count a placed order, with its total, on today's row in the shop's time zone", async () => {
    const order = await placeOrder(45_000, 2);
    expect(order.totalPaise).toBe(92_000);
    expect(await totalsRows()).toEqual([
      { day: shopDay(new Date(), "Asia/Kolkata"), orders_placed: 1, orders_cancelled: 0, revenue_paise: 92_000 },
    ]);
  });

  it("take a cancelled order out of the revenue and count it as cancelled, whether the owner or an admin cancels", async () => {
    const byOwner = await placeOrder(10_000);
    const byAdmin = await placeOrder(30_000);
    const kept = await placeOrder(50_000);
    const owner = { ...(await shopper()), id: byOwner.userId! };
    await app.services.orders.cancelOrder(owner, byOwner.id);
    const boss = await admin();
    await app.services.orders.setStatus(boss, byAdmin.id, { status: "processing" });
    await app.services.orders.setStatus(boss, byAdmin.id, { status: "cancelled" });
    await app.services.orders.setStatus(boss, kept.id, { status: "processing" });

    const overview = await app.services.overview.getOverview(boss);
    expect(overview.today).toMatchObject({ orders: 1, cancelled: 2, revenuePaise: kept.totalPaise });
    expect(overview.lastDays).toMatchObject({ orders: 1, cancelled: 2, revenuePaise: kept.totalPaise });
  });

  it("stay exact when twenty shoppers order at the same moment", async () => {
    const orders = await Promise.all(Array.from({ length: 20 }, (_, i) => placeOrder(1_000 * (i + 1))));
    const revenue = orders.reduce((sum, order) => sum + order.totalPaise, 0);
    const overview = await app.services.overview.getOverview(await admin());
    expect(overview.today).toMatchObject({ orders: 20, cancelled: 0, revenuePaise: revenue });
  });

  it("are not touched by an order that fails (nothing half-written)", async () => {
    const plant = await createProduct(app.database.db, { stock: 1 });
    const user = await shopper();
    await app.services.cart.addToCart(user, { productId: plant.id, quantity: 1 });
    await setSelling(app.database.db, plant.id, { stock: 0 });
    await expect(app.services.orders.placeOrder(user, checkoutInput())).rejects.toMatchObject({ status: 409 });
    expect(await totalsRows()).toEqual([]);
  });
});

describe("the overview", () => {
  /** Totals written straight into the table, `daysAgo` before the day of `now` in Kolkata. */
  async function totalsOn(now: Date, daysAgo: number, ordersPlaced: number, revenuePaise: number) {
    await app.database.db
      .insertInto("order_daily_totals")
      .values({ day: addDays(shopDay(now, "Asia/Kolkata"), -daysAgo), orders_placed: ordersPlaced, orders_cancelled: 0, revenue_paise: revenuePaise })
      .execute();
  }

  it("counts today apart from the last 30 days, which end today and start 29 days before it", async () => {
    const now = new Date("2030-03-15T06:00:00Z");
    await totalsOn(now, 0, 2, 5_000);
    await totalsOn(now, 1, 1, 700);
    await totalsOn(now, 29, 3, 30_000);
    await totalsOn(now, 30, 100, 9_999_999); // one day too old
    const overview = await createOverviewService({ database: app.database, timeZone: "Asia/Kolkata", now: () => now }).getOverview(await admin());

    expect(overview.today).toEqual({ day: "2030-03-15", orders: 2, cancelled: 0, revenuePaise: 5_000 });
    expect(overview.lastDays).toEqual({ from: "2030-02-14", to: "2030-03-15", orders: 6, cancelled: 0, revenuePaise: 35_700 });
    expect(overview.days).toHaveLength(30);
    expect(overview.days[0]).toEqual({ day: "2030-02-14", orders: 3, cancelled: 0, revenuePaise: 30_000 });
    expect(overview.days[1]).toEqual({ day: "2030-02-15", orders: 0, cancelled: 0, revenuePaise: 0 });
    expect(overview.days[29]).toEqual({ day: "2030-03-15", orders: 2, cancelled: 0, revenuePaise: 5_000 });
  });

  it("takes today from the shop's time zone: 20:00 UTC is already the next day in Kolkata but not in New York", async () => {
    const now = new Date("2030-01-01T20:00:00Z");
    const boss = await admin();
    const kolkata = await createOverviewService({ database: app.database, timeZone: "Asia/Kolkata", now: () => now }).getOverview(boss);
    const newYork = await createOverviewService({ database: app.database, timeZone: "America/New_York", now: () => now }).getOverview(boss);
    expect([kolkata.timeZone, kolkata.today.day]).toEqual(["Asia/Kolkata", "2030-01-02"]);
    expect([newYork.timeZone, newYork.today.day]).toEqual(["America/New_York", "2030-01-01"]);
  });

  it("lists products with 5 or fewer in stock, fewest first, ten at most, and says when there are more", async () => {
    // Sample products out of the way: the list reads each size's stock.
    await app.database.db.updateTable("products").set({ stock: 100 }).execute();
    await app.database.db.updateTable("product_variants").set({ stock: 100 }).execute();
    const out = await createProduct(app.database.db, { name: "Out Of Stock Fern", stock: 0 });
    const five = await createProduct(app.database.db, { name: "Five Left Palm", stock: 5 });
    await createProduct(app.database.db, { name: "Six Left Cactus", stock: 6 });
    const boss = await admin();

    let overview = await app.services.overview.getOverview(boss);
    expect(overview.lowStock).toEqual({
      threshold: 5,
      products: [
        { id: out.id, name: "Out Of Stock Fern", stock: 0, variantId: out.id, label: "", waiting: { count: 0, atLeast: false } },
        { id: five.id, name: "Five Left Palm", stock: 5, variantId: five.id, label: "", waiting: { count: 0, atLeast: false } },
      ],
      more: false,
    });

    for (let i = 0; i < 9; i++) await createProduct(app.database.db, { stock: 3 });
    overview = await app.services.overview.getOverview(boss);
    expect(overview.lowStock.products.map((p) => p.stock)).toEqual([0, 3, 3, 3, 3, 3, 3, 3, 3, 3]);
    expect(overview.lowStock.more).toBe(true);
  });

  it("says how many people wait for each sold-out size listed, confirmed alerts only", async () => {
    await app.database.db.updateTable("products").set({ stock: 100 }).execute();
    await app.database.db.updateTable("product_variants").set({ stock: 100 }).execute();
    const fern = await createProduct(app.database.db, { name: "Waited For Fern", stock: 0 });
    const palm = await createProduct(app.database.db, { name: "Unwanted Palm", stock: 0 });
    for (let i = 0; i < 3; i++) await app.services.alerts.subscribe(await createShopper(app.database.db, app.database.dialect), { variantId: fern.id }, { clientIp: null });
    // A visitor who has not confirmed does not count yet.
    await app.services.alerts.subscribe(null, { variantId: fern.id, email: "visitor@example.com" }, { clientIp: "10.9.0.1" });
    const listed = (await app.services.overview.getOverview(await admin())).lowStock.products;
    expect(listed.find((size) => size.variantId === fern.id)?.waiting).toEqual({ count: 3, atLeast: false });
    expect(listed.find((size) => size.variantId === palm.id)?.waiting).toEqual({ count: 0, atLeast: false });
  });

  it("counts the unhandled messages, and a handled one no longer", async () => {
    const boss = await admin();
    const first = await app.services.contact.sendMessage({ name: "A", email: "a@example.com", subject: "S", message: "M" }, { clientIp: "10.1.0.1" });
    await app.services.contact.sendMessage({ name: "B", email: "b@example.com", subject: "S", message: "M" }, { clientIp: "10.1.0.2" });
    expect((await app.services.overview.getOverview(boss)).unhandledMessages).toEqual({ count: 2, atLeast: false });
    await app.services.contact.setHandled(boss, first.id, { handled: true });
    expect((await app.services.overview.getOverview(boss)).unhandledMessages).toEqual({ count: 1, atLeast: false });
  });

  it("caps the unhandled count at 99+ instead of counting a long backlog", async () => {
    const at = new Date().toISOString();
    await app.database.db
      .insertInto("contact_messages")
      .values(Array.from({ length: 120 }, (_, i) => ({ id: `m${i}`, name: "N", email: "n@example.com", subject: "S", message: "M", client_ip: null, created_at: at })))
      .execute();
    expect((await app.services.overview.getOverview(await admin())).unhandledMessages).toEqual({ count: 99, atLeast: true });
  });

  it("is refused to visitors (401) and to shoppers (403)", async () => {
    await expect(app.services.overview.getOverview(null)).rejects.toMatchObject({ status: 401 });
    await expect(app.services.overview.getOverview(await shopper())).rejects.toMatchObject({ status: 403 });
  });
});
