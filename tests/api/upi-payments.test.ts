import jsQR from "jsqr";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { messages } from "#common/shared/messages.ts";
import type { ViewedOrder } from "#common/orders/order-types.ts";
import { setTestClock } from "../../server/platform/clock.ts";
import { createProduct } from "../support/factories.ts";
import { checkoutInput, createShopper } from "../support/shoppers.ts";
import { insertSessions, SHOP_AUTH_SECRET } from "../support/shop-process.ts";
import { createTestApp, postJson, type TestApp } from "../support/test-app.ts";
import { ordersServiceOver } from "../support/orders-service.ts";

const UPI = { SHOP_UPI_ID: "greenleaf@okaxis", SHOP_UPI_NAME: "Green Leaf Nursery", UPI_PAYMENT_MINUTES: "30" };
const MINUTE = 60_000;

let app: TestApp;
beforeEach(async () => {
  app = await createTestApp({ ...UPI, AUTH_SECRET: SHOP_AUTH_SECRET });
});
afterEach(async () => {
  setTestClock(Date.now());
  await app.cleanup();
});

const db = () => app.database.db;
const shopper = () => createShopper(db(), app.database.dialect);
const admin = () => createShopper(db(), app.database.dialect, { isAdmin: true });
const stockOf = async (id: string) => (await db().selectFrom("products").select("stock").where("id", "=", id).executeTakeFirstOrThrow()).stock;
/** The mails queued for an order, as [kind, subject]. */
const mailsOf = async (orderId: string) =>
  (await db().selectFrom("mail_outbox").select(["kind", "subject"]).where("reference", "=", orderId).orderBy("created_at").execute()).map((m) => [m.kind, m.subject]);

/** A shopper who ordered `quantity` of a new plant (stock 5, Rs. 450) paying by UPI. */
async function upiOrder(quantity = 2) {
  const plant = await createProduct(db(), { name: "Snake Plant", price_paise: 45_000, stock: 5 });
  const user = await shopper();
  await app.services.cart.addToCart(user, { productId: plant.id, quantity });
  const order = await app.services.orders.placeOrder(user, { ...checkoutInput(), payment: "upi" });
  return { plant, user, order };
}

/** What a phone's camera reads from the QR code: the SVG drawn as pixels, then decoded. */
async function decodeQr(svg: string): Promise<string | undefined> {
  const { data, info } = await sharp(Buffer.from(svg)).resize(440).flatten({ background: "#ffffff" }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height)?.data;
}

describe("paying by UPI", () => {
  it("places the order awaiting its payment, its stock held, due in UPI_PAYMENT_MINUTES, with a mail saying how to pay", async () => {
    const before = Date.now();
    const { plant, order } = await upiOrder(2);
    expect(order).toMatchObject({ status: "awaiting_payment", paymentMethod: "UPI", totalPaise: 92_000, payment: { method: "upi", state: "awaiting", reference: null } });
    const payBy = Date.parse(order.payment.payBy!);
    expect(payBy).toBeGreaterThanOrEqual(before + 30 * MINUTE);
    expect(payBy).toBeLessThanOrEqual(Date.now() + 30 * MINUTE);
    expect(await stockOf(plant.id)).toBe(3);
    expect(await mailsOf(order.id)).toEqual([["order-awaiting", `Order ${order.number} is placed: please pay by UPI`]]);
  });

  it("shows its owner the exact upi://pay link, and a QR code made by the shop that decodes to that same link; an admin gets neither", async () => {
    const { user, order } = await upiOrder(2);
    const viewed = await app.services.orders.getOrder(user, order.id);
    const link = `upi://pay?pa=greenleaf%40okaxis&pn=Green%20Leaf%20Nursery&am=920.00&cu=INR&tr=${order.number}&tn=Plant%20Shop%20order%20${order.number}`;
    expect(viewed.upi?.link).toBe(link);
    expect(await decodeQr(viewed.upi!.qrSvg)).toBe(link);
    expect((await app.services.orders.getOrder(await admin(), order.id)).upi).toBeNull();
  });

  it("takes the 12-digit reference (UTR) from the order's owner only, refuses a malformed one with its message, and shows it to the owner's list", async () => {
    const { user, order } = await upiOrder(1);
    await expect(app.services.orders.giveUpiReference(user, order.id, { reference: "12345" })).rejects.toMatchObject({
      status: 400,
      fieldErrors: { reference: "Enter the 12-digit UPI reference (UTR) from your UPI app." },
    });
    await expect(app.services.orders.giveUpiReference(await shopper(), order.id, { reference: "412345678901" })).rejects.toMatchObject({ status: 404 });
    const given = await app.services.orders.giveUpiReference(user, order.id, { reference: "4123 4567 8901" });
    expect(given.payment.reference).toBe("412345678901");
    const listed = await app.services.orders.listAllOrders(await admin(), { status: "awaiting_payment" });
    expect(listed.items.map((item) => [item.id, item.paymentReference])).toEqual([[order.id, "412345678901"]]);
  });

  it("through the JSON API: its owner gives the reference with PUT; anybody else's order is a 404, a bad reference a 400 with its message", async () => {
    const { user, order } = await upiOrder(1);
    const stranger = await shopper();
    const [ownerCookie, strangerCookie] = await insertSessions(db(), [user.id, stranger.id]);
    // app.request checks every answer against the OpenAPI document too.
    const put = (cookie: string, reference: string) =>
      app.request(`/api/orders/${order.id}/upi-reference`, { ...postJson({ reference }, { Cookie: cookie }), method: "PUT" });
    expect((await put(strangerCookie!, "412345678901")).status).toBe(404);
    const bad = await put(ownerCookie!, "41234567890X");
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain("Enter the 12-digit UPI reference (UTR) from your UPI app.");
    const given = await put(ownerCookie!, "412345678901");
    expect(given.status).toBe(200);
    expect(((await given.json()) as { payment: { reference: string } }).payment.reference).toBe("412345678901");
  });

  it("'Mark paid' makes the order pending with its payment paid, mails the customer, and keeps the stock taken", async () => {
    const { plant, user, order } = await upiOrder(2);
    const paid = await app.services.orders.setStatus(await admin(), order.id, { status: "pending" });
    expect(paid).toMatchObject({ status: "pending", payment: { method: "upi", state: "paid", payBy: null } });
    expect(await stockOf(plant.id)).toBe(3);
    expect((await mailsOf(order.id)).map(([kind]) => kind)).toEqual(["order-awaiting", "order-paid"]);
    // Paid: the shop's own cancellation no longer touches it, and its customer can no longer pay it again.
    setTestClock(Date.now() + 31 * MINUTE);
    expect(await app.services.orders.cancelUnpaidOrders()).toBe(0);
    expect((await app.services.orders.getOrder(user, order.id)).upi).toBeNull();
    // Cancelled once paid, its payment is refunded.
    expect(await app.services.orders.setStatus(await admin(), order.id, { status: "cancelled" })).toMatchObject({ payment: { state: "refunded" } });
  });

  it("'Payment not received' cancels the order, puts its stock back, marks the payment failed and tells the customer why", async () => {
    const { plant, order } = await upiOrder(2);
    const cancelled = await app.services.orders.setStatus(await admin(), order.id, { status: "cancelled" });
    expect(cancelled).toMatchObject({ status: "cancelled", payment: { state: "failed" } });
    expect(await stockOf(plant.id)).toBe(5);
    expect((await mailsOf(order.id)).at(-1)).toEqual(["order-unpaid", `Order ${order.number} is cancelled: payment not received`]);
  });

  it("refuses a UPI order when the shop has no UPI ID, with the message, and orders nothing", async () => {
    const plain = await createTestApp();
    try {
      const plant = await createProduct(plain.database.db, { stock: 5 });
      const user = await createShopper(plain.database.db, plain.database.dialect);
      await plain.services.cart.addToCart(user, { productId: plant.id, quantity: 1 });
      await expect(plain.services.orders.placeOrder(user, { ...checkoutInput(), payment: "upi" })).rejects.toMatchObject({
        status: 400,
        fieldErrors: { payment: messages.checkout.upiUnavailable },
      });
      expect(await plain.database.db.selectFrom("orders").select("id").execute()).toEqual([]);
      expect((await plain.services.orders.paymentOptions(user)).map((option) => option.id)).toEqual(["cod"]);
    } finally {
      await plain.cleanup();
    }
  });
});

describe("unpaid UPI orders", () => {
  /** A second copy of the orders service over the same database, as a second server process would run it. */
  const secondCopy = () => ordersServiceOver(app.database, { upi: { id: "greenleaf@okaxis", name: "Green Leaf Nursery", minutesToPay: 30 } });

  it("are left alone before their time, then cancelled exactly once when two copies look at the same moment: stock back once, one mail, one cancellation counted", async () => {
    const { plant, order } = await upiOrder(2);
    const other = secondCopy();
    setTestClock(Date.now() + 29 * MINUTE);
    expect(await Promise.all([app.services.orders.cancelUnpaidOrders(), other.cancelUnpaidOrders()])).toEqual([0, 0]);
    expect(await stockOf(plant.id)).toBe(3);
    setTestClock(Date.now() + 31 * MINUTE);
    const cancelled = await Promise.all([app.services.orders.cancelUnpaidOrders(), other.cancelUnpaidOrders()]);
    expect(cancelled.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await stockOf(plant.id)).toBe(5);
    const viewed: ViewedOrder = await app.services.orders.getOrder(await admin(), order.id);
    expect(viewed).toMatchObject({ status: "cancelled", payment: { state: "failed" } });
    expect((await mailsOf(order.id)).map(([kind]) => kind)).toEqual(["order-awaiting", "order-unpaid"]);
    const totals = await db().selectFrom("order_daily_totals").select(["orders_placed", "orders_cancelled", "revenue_paise"]).execute();
    expect(totals.map((t) => [Number(t.orders_placed), Number(t.orders_cancelled), Number(t.revenue_paise)])).toEqual([[1, 1, 0]]);
  });

  it("count, with pending Cash on Delivery orders, toward the cap on unpaid orders per shopper", async () => {
    const plant = await createProduct(db(), { stock: 50 });
    const user = await shopper();
    for (let n = 0; n < 5; n++) {
      await app.services.cart.addToCart(user, { productId: plant.id, quantity: 1 });
      await app.services.orders.placeOrder(user, { ...checkoutInput(), payment: n % 2 ? "cod" : "upi" });
    }
    await app.services.cart.addToCart(user, { productId: plant.id, quantity: 1 });
    await expect(app.services.orders.placeOrder(user, { ...checkoutInput(), payment: "upi" })).rejects.toMatchObject({ status: 409, message: messages.checkout.tooManyPending(5) });
  });
});

describe("rules for Cash on Delivery", () => {
  it("lets the owner mark a shipped parcel refused on delivery, counts it for the shopper, and turn COD off for them; checkout then refuses COD and offers UPI", async () => {
    const owner = await admin();
    const plant = await createProduct(db(), { stock: 10 });
    const user = await shopper();
    await app.services.cart.addToCart(user, { productId: plant.id, quantity: 1 });
    const order = await app.services.orders.placeOrder(user, checkoutInput());
    for (const status of ["processing", "shipped", "refused"]) await app.services.orders.setStatus(owner, order.id, { status });
    expect(await app.services.orders.getOrder(owner, order.id)).toMatchObject({ status: "refused", payment: { method: "cod", state: "failed" } });
    await expect(app.services.orders.setStatus(owner, order.id, { status: "delivered" })).rejects.toMatchObject({ status: 409 });
    expect(await app.services.orders.codStanding(owner, order.id)).toEqual({ refusedParcels: 1, codBlocked: false });

    expect(await app.services.orders.setCodBlocked(owner, order.id, { blocked: "true" })).toEqual({ refusedParcels: 1, codBlocked: true });
    const refusal = messages.checkout.payByUpiInstead(messages.checkout.codBlocked);
    expect(await app.services.orders.paymentOptions(user)).toEqual([
      { id: "cod", label: "Cash on Delivery", refusal },
      { id: "upi", label: "UPI", refusal: null },
    ]);
    await app.services.cart.addToCart(user, { productId: plant.id, quantity: 1 });
    await expect(app.services.orders.placeOrder(user, checkoutInput())).rejects.toMatchObject({ status: 409, fieldErrors: { payment: refusal } });
    expect(await app.services.orders.placeOrder(user, { ...checkoutInput(), payment: "upi" })).toMatchObject({ status: "awaiting_payment" });

    expect(await app.services.orders.setCodBlocked(owner, order.id, { blocked: false })).toEqual({ refusedParcels: 1, codBlocked: false });
    await app.services.cart.addToCart(user, { productId: plant.id, quantity: 1 });
    expect(await app.services.orders.placeOrder(user, checkoutInput())).toMatchObject({ status: "pending" });
  });

  it("keeps the COD switch to admins: a shopper is refused, over the JSON API too", async () => {
    const plant = await createProduct(db(), { stock: 10 });
    const user = await shopper();
    await app.services.cart.addToCart(user, { productId: plant.id, quantity: 1 });
    const order = await app.services.orders.placeOrder(user, checkoutInput());
    await expect(app.services.orders.setCodBlocked(user, order.id, { blocked: true })).rejects.toMatchObject({ status: 403 });
    await expect(app.services.orders.codStanding(user, order.id)).rejects.toMatchObject({ status: 403 });
    const [cookie] = await insertSessions(db(), [user.id]);
    const asShopper = await app.request(`/api/admin/orders/${order.id}/cod`, { ...postJson({ blocked: true }, { Cookie: cookie! }), method: "PUT" });
    expect(asShopper.status).toBe(403);
    expect(await app.services.orders.codStanding(await admin(), order.id)).toEqual({ refusedParcels: 0, codBlocked: false });
  });
});
