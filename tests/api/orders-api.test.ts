import { describe, expect, it } from "vitest";
import { messages } from "../../common/shared/messages.ts";
import { newPerson, signUpVerified } from "../support/accounts.ts";
import { createProduct, setSelling } from "../support/factories.ts";
import { captureLogs } from "../support/log-capture.ts";
import { insertSessions, SHOP_AUTH_SECRET } from "../support/shop-process.ts";
import { checkoutInput, createShopper } from "../support/shoppers.ts";
import { startSmtpCapture } from "../support/smtp-capture.ts";
import { useAppWithMail } from "../support/app-with-mail.ts";
import { createTestApp, TEST_ORIGIN } from "../support/test-app.ts";

// A known secret, so that a test can sign in a shopper it wrote into the database (insertSessions).
const shop = useAppWithMail({ AUTH_SECRET: SHOP_AUTH_SECRET });

const send = (method: string, path: string, cookie: string | null, body?: unknown) =>
  shop.app.request(path, {
    method,
    headers: { Origin: TEST_ORIGIN, ...(cookie ? { Cookie: cookie } : {}), ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

describe("the cart API", () => {
  it("keeps a cart per user and answers other users' lines with 404", async () => {
    const plant = await createProduct(shop.app.database.db, { stock: 3, price_paise: 45_000 });
    const asha = await signUpVerified(shop.app, shop.capture);
    const ravi = await signUpVerified(shop.app, shop.capture, newPerson({ name: "Ravi Menon" }));

    const added = await send("POST", "/api/cart/items", asha.cookie, { productId: plant.id });
    expect(added.status).toBe(201);
    const cart = await added.json();
    expect(cart).toMatchObject({ itemCount: 1, subtotalPaise: 45_000, shippingPaise: 2000, totalPaise: 47_000 });
    const itemId = cart.lines[0].id;

    expect((await (await send("GET", "/api/cart", ravi.cookie)).json()).lines).toEqual([]);
    const foreign = await send("PATCH", `/api/cart/items/${itemId}`, ravi.cookie, { quantity: 2 });
    expect(foreign.status).toBe(404);
    expect((await foreign.json()).message).toBe("Failed to update cart: Cart item not found.");
    expect((await send("DELETE", `/api/cart/items/${itemId}`, ravi.cookie)).status).toBe(404);
    expect((await (await send("GET", "/api/cart", null)).json()).lines).toEqual([]);
  });

  it("reads a quantity only from a number or a string of digits: null, '', false and true are refused and the line stays", async () => {
    const plant = await createProduct(shop.app.database.db, { stock: 5 });
    const { cookie } = await signUpVerified(shop.app, shop.capture);
    const cart = await (await send("POST", "/api/cart/items", cookie, { productId: plant.id, quantity: "2" })).json();
    const lineId = cart.lines[0].id;
    for (const quantity of [null, "", false, true, [3], "2.5", "Infinity"]) {
      const refused = await send("PATCH", `/api/cart/items/${lineId}`, cookie, { quantity });
      expect(refused.status, JSON.stringify(quantity)).toBe(400);
      expect((await refused.json()).message).toBe("Failed to update cart: Quantity must be at least 1.");
    }
    expect((await (await send("GET", "/api/cart", cookie)).json()).lines).toMatchObject([{ id: lineId, quantity: 2 }]);
    expect((await (await send("PATCH", `/api/cart/items/${lineId}`, cookie, { quantity: " 3 " })).json()).lines).toMatchObject([{ quantity: 3 }]);
  });

  it("never goes beyond the stock, and refuses with the cart's messages after 'Failed to add product to cart:' or 'Failed to update cart:'", async () => {
    const plant = await createProduct(shop.app.database.db, { stock: 2 });
    const soldOut = await createProduct(shop.app.database.db, { stock: 0 });
    const { cookie } = await signUpVerified(shop.app, shop.capture);
    await send("POST", "/api/cart/items", cookie, { productId: plant.id, quantity: 2 });
    const tooMany = await send("POST", "/api/cart/items", cookie, { productId: plant.id });
    expect(tooMany.status).toBe(409);
    expect((await tooMany.json()).message).toBe("Failed to add product to cart: Only 2 left in stock.");
    expect((await (await send("POST", "/api/cart/items", cookie, { productId: soldOut.id })).json()).message).toBe(
      "Failed to add product to cart: This plant is out of stock.",
    );
    expect((await (await send("POST", "/api/cart/items", cookie, {})).json()).message).toBe(
      "Failed to add product to cart: user_id and product_id must be provided.",
    );
    expect((await (await send("POST", "/api/cart/items", cookie, { productId: plant.id, quantity: 0 })).json()).message).toBe(
      "Failed to add product to cart: Quantity must be at least 1.",
    );
    const tooLarge = await send("POST", "/api/cart/items", cookie, { productId: plant.id, quantity: 1000 });
    expect(tooLarge.status).toBe(400);
    expect((await tooLarge.json()).message).toBe("Failed to add product to cart: Quantity must be at most 999.");
    const cart = await (await send("GET", "/api/cart", cookie)).json();
    const setTooLarge = await send("PATCH", `/api/cart/items/${cart.lines[0].id}`, cookie, { quantity: 1000 });
    expect((await setTooLarge.json()).message).toBe("Failed to update cart: Quantity must be at most 999.");
    const zero = await send("PATCH", `/api/cart/items/${cart.lines[0].id}`, cookie, { quantity: 0 });
    expect((await zero.json()).lines).toEqual([]);
  });

  it("adds to the line already in the cart, refuses a total past 999 even with the stock there, and refuses a product that does not exist", async () => {
    const plant = await createProduct(shop.app.database.db, { stock: 5000 });
    const { cookie } = await signUpVerified(shop.app, shop.capture);
    expect((await send("POST", "/api/cart/items", cookie, { productId: plant.id, quantity: 990 })).status).toBe(201);
    const more = await send("POST", "/api/cart/items", cookie, { productId: plant.id, quantity: 9 });
    expect(more.status).toBe(201);
    expect((await more.json()).lines.map((line: { quantity: number }) => line.quantity)).toEqual([999]);
    const pastCap = await send("POST", "/api/cart/items", cookie, { productId: plant.id, quantity: 1 });
    expect(pastCap.status).toBe(400);
    expect((await pastCap.json()).message).toBe("Failed to add product to cart: Quantity must be at most 999.");
    const missing = await send("POST", "/api/cart/items", cookie, { productId: "00000000-0000-4000-8000-000000000000" });
    expect(missing.status).toBe(404);
    expect((await missing.json()).message).toBe(`Failed to add product to cart: ${messages.product.notFound}`);
    const cart = await (await send("GET", "/api/cart", cookie)).json();
    expect(cart.lines.map((line: { quantity: number }) => line.quantity)).toEqual([999]);
  });

  it("stops at the stock when one shopper adds many times at once, telling the rest how many are left", async () => {
    const plant = await createProduct(shop.app.database.db, { stock: 3 });
    const { cookie } = await signUpVerified(shop.app, shop.capture);
    const answers = await Promise.all(Array.from({ length: 10 }, () => send("POST", "/api/cart/items", cookie, { productId: plant.id })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 201, 201, 409, 409, 409, 409, 409, 409, 409]);
    for (const refused of answers.filter((answer) => answer.status === 409)) {
      expect((await refused.json()).message).toBe("Failed to add product to cart: Only 3 left in stock.");
    }
    const cart = await (await send("GET", "/api/cart", cookie)).json();
    expect(cart.lines.map((line: { quantity: number }) => line.quantity)).toEqual([3]);
  });

  it("leaves a sold-out line out of the total and marks it unavailable", async () => {
    const plant = await createProduct(shop.app.database.db, { stock: 2, price_paise: 10_000 });
    const other = await createProduct(shop.app.database.db, { stock: 2, price_paise: 5_000 });
    const { cookie } = await signUpVerified(shop.app, shop.capture);
    await send("POST", "/api/cart/items", cookie, { productId: plant.id });
    await send("POST", "/api/cart/items", cookie, { productId: other.id });
    await setSelling(shop.app.database.db, plant.id, { stock: 0 });
    const cart = await (await send("GET", "/api/cart", cookie)).json();
    expect(cart.lines.map((l: { available: boolean }) => l.available)).toEqual([false, true]);
    expect(cart).toMatchObject({ itemCount: 1, subtotalPaise: 5_000, totalPaise: 7_000 });
  });
});

describe("the orders API", () => {
  async function customerWithOrder() {
    const plant = await createProduct(shop.app.database.db, { name: "Snake Plant Mini", stock: 5, price_paise: 30_000 });
    const customer = await signUpVerified(shop.app, shop.capture);
    await send("POST", "/api/cart/items", customer.cookie, { productId: plant.id, quantity: 2 });
    const response = await send("POST", "/api/orders", customer.cookie, checkoutInput());
    expect(response.status).toBe(201);
    return { plant, customer, order: await response.json() };
  }

  it("confirms an order by e-mail and shows it only to its owner and admins", async () => {
    const { customer, order } = await customerWithOrder();
    const mail = await shop.capture.waitFor((m) => m.to.includes(customer.person.email) && m.subject.includes(order.number));
    expect(mail.subject).toBe(`Order ${order.number} is placed`);
    expect(mail.text).toContain("2 × Snake Plant Mini: Rs. 600.00");
    expect(mail.text).toContain("Total: Rs. 620.00");

    const stranger = await signUpVerified(shop.app, shop.capture, newPerson({ name: "Ravi Menon" }));
    expect((await send("GET", `/api/orders/${order.id}`, stranger.cookie)).status).toBe(404);
    expect((await send("POST", `/api/orders/${order.id}/cancel`, stranger.cookie)).status).toBe(404);
    expect((await (await send("GET", "/api/orders", stranger.cookie)).json()).items).toEqual([]);
    expect((await send("GET", "/api/admin/orders", stranger.cookie)).status).toBe(403);
    expect((await send("GET", `/api/admin/orders/${order.id}`, customer.cookie)).status).toBe(403);
    expect((await send("PATCH", `/api/admin/orders/${order.id}`, customer.cookie, { status: "shipped" })).status).toBe(403);
    expect((await send("GET", "/api/admin/orders", null)).status).toBe(401);
  });

  it("lets an admin ship an order, which e-mails the customer", async () => {
    const { customer, order } = await customerWithOrder();
    const admin = await signUpVerified(shop.app, shop.capture, newPerson({ name: "Owner" }));
    await shop.app.services.accounts.setAdmin(admin.person.email, true);
    const list = await (await send("GET", "/api/admin/orders?status=pending", admin.cookie)).json();
    expect(list.items.map((o: { id: string }) => o.id)).toContain(order.id);
    expect((await send("PATCH", `/api/admin/orders/${order.id}`, admin.cookie, { status: "processing" })).status).toBe(200);
    expect((await (await send("PATCH", `/api/admin/orders/${order.id}`, admin.cookie, { status: "shipped" })).json()).status).toBe("shipped");
    const mail = await shop.capture.waitFor((m) => m.to.includes(customer.person.email) && m.subject === `Order ${order.number} has shipped`);
    expect(mail.text).toContain("on their way");
    const cancelShipped = await send("POST", `/api/orders/${order.id}/cancel`, customer.cookie);
    expect(cancelShipped.status).toBe(409);
  });

  it("still places the order when the confirmation e-mail cannot be sent, and logs the failure with the order id", async () => {
    const closed = await startSmtpCapture();
    const deadSmtp = closed.url;
    await closed.close();
    const logs = captureLogs();
    const offline = await createTestApp({ SMTP_URL: deadSmtp, AUTH_SECRET: SHOP_AUTH_SECRET }, undefined, logs.logger);
    try {
      const plant = await createProduct(offline.database.db, { stock: 1 });
      const shopper = await createShopper(offline.database.db, offline.database.dialect);
      const [cookie] = await insertSessions(offline.database.db, [shopper.id]);
      await offline.services.cart.addToCart(shopper, { productId: plant.id });
      const response = await offline.request("/api/orders", {
        method: "POST",
        headers: { Origin: TEST_ORIGIN, Cookie: cookie!, "Content-Type": "application/json" },
        body: JSON.stringify(checkoutInput()),
      });
      expect(response.status).toBe(201);
      const order = await response.json();
      expect(await offline.database.db.selectFrom("orders").select(["id", "status"]).execute()).toEqual([{ id: order.id, status: "pending" }]);
      const failure = await logs.waitFor((line) => line.msg === "e-mail could not be sent" && line.reference === order.id);
      expect(failure).toMatchObject({ level: 50, kind: "order-placed", attempt: 1, willRetry: true, mailId: expect.any(String) });
    } finally {
      await offline.cleanup();
    }
  });

  it("refuses an order without a usable idempotency key with a message that says what to send, and orders nothing", async () => {
    const plant = await createProduct(shop.app.database.db, { stock: 2 });
    const shopper = await signUpVerified(shop.app, shop.capture);
    expect((await send("POST", "/api/cart/items", shopper.cookie, { productId: plant.id })).status).toBe(201);
    const { idempotencyKey: _, ...withoutKey } = checkoutInput();
    for (const body of [withoutKey, checkoutInput("short"), checkoutInput("has spaces in it"), checkoutInput("k".repeat(101))]) {
      const refused = await send("POST", "/api/orders", shopper.cookie, body);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({
        message: messages.checkout.attemptKeyInvalid,
        fieldErrors: { idempotencyKey: messages.checkout.attemptKeyInvalid },
      });
    }
    expect(await shop.app.database.db.selectFrom("orders").select("id").execute()).toEqual([]);
  });

  it("refuses an order whose cartFingerprint is from before a price change with 409 CART_CHANGED, orders nothing, and orders with the fresh fingerprint or none", async () => {
    const plant = await createProduct(shop.app.database.db, { name: "Snake Plant", stock: 5, price_paise: 150_000 });
    const shopper = await signUpVerified(shop.app, shop.capture);
    expect((await send("POST", "/api/cart/items", shopper.cookie, { productId: plant.id })).status).toBe(201);
    const shown = await (await send("GET", "/api/cart", shopper.cookie)).json();
    expect(shown.totalPaise).toBe(152_000);
    await setSelling(shop.app.database.db, plant.id, { price_paise: 300_000 });

    const refused = await send("POST", "/api/orders", shopper.cookie, { ...checkoutInput(), cartFingerprint: shown.fingerprint });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ message: messages.checkout.cartChanged, fieldErrors: { cart: messages.checkout.cartChanged }, code: "CART_CHANGED" });
    expect(await shop.app.database.db.selectFrom("orders").select("id").execute()).toEqual([]);
    expect(await shop.app.database.db.selectFrom("products").select("stock").where("id", "=", plant.id).executeTakeFirstOrThrow()).toEqual({ stock: 5 });

    const fresh = await (await send("GET", "/api/cart", shopper.cookie)).json();
    const placed = await send("POST", "/api/orders", shopper.cookie, { ...checkoutInput(), cartFingerprint: fresh.fingerprint });
    expect(placed.status).toBe(201);
    expect((await placed.json()).totalPaise).toBe(302_000);
    // A raw API client that sends no fingerprint orders the cart as it stands, as before.
    expect((await send("POST", "/api/cart/items", shopper.cookie, { productId: plant.id })).status).toBe(201);
    expect((await send("POST", "/api/orders", shopper.cookie, checkoutInput())).status).toBe(201);
  });

  it("refuses an order from a shopper whose e-mail is not verified, with the message to verify first", async () => {
    const plant = await createProduct(shop.app.database.db, { stock: 2 });
    const unverified = await createShopper(shop.app.database.db, shop.app.database.dialect, { emailVerified: false });
    const [cookie] = await insertSessions(shop.app.database.db, [unverified.id]);
    expect((await send("POST", "/api/cart/items", cookie!, { productId: plant.id })).status).toBe(201);
    const refused = await send("POST", "/api/orders", cookie!, checkoutInput());
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toBe(messages.checkout.verifyFirst);
    expect(await shop.app.database.db.selectFrom("orders").select("id").execute()).toEqual([]);
  });

  it("asks a visitor to log in for ordering, an order and the admins' calls", async () => {
    const { order } = await customerWithOrder();
    const calls = [
      send("POST", "/api/orders", null, checkoutInput()),
      send("GET", `/api/orders/${order.id}`, null),
      send("POST", `/api/orders/${order.id}/cancel`, null),
      send("PATCH", `/api/admin/orders/${order.id}`, null, { status: "shipped" }),
    ];
    expect((await Promise.all(calls)).map((answer) => answer.status)).toEqual([401, 401, 401, 401]);
    expect(await shop.app.database.db.selectFrom("orders").select(["id", "status"]).execute()).toEqual([{ id: order.id, status: "pending" }]);
  });

  it("lets the owner cancel only a pending order; admins cancel through their own call, which e-mails the customer", async () => {
    const { customer, order, plant } = await customerWithOrder();
    const admin = await signUpVerified(shop.app, shop.capture, newPerson({ name: "Owner" }));
    await shop.app.services.accounts.setAdmin(admin.person.email, true);

    // The owner's cancel call is the owner's only: for an admin it is another user's order, so 404.
    const adminViaOwnerRoute = await send("POST", `/api/orders/${order.id}/cancel`, admin.cookie);
    expect(adminViaOwnerRoute.status).toBe(404);
    expect((await adminViaOwnerRoute.json()).message).toBe(messages.orders.notFound);

    expect((await send("PATCH", `/api/admin/orders/${order.id}`, admin.cookie, { status: "processing" })).status).toBe(200);
    const tooLate = await send("POST", `/api/orders/${order.id}/cancel`, customer.cookie);
    expect(tooLate.status).toBe(409);
    expect((await tooLate.json()).message).toBe(messages.orders.cannotCancel);

    const cancelled = await send("PATCH", `/api/admin/orders/${order.id}`, admin.cookie, { status: "cancelled" });
    expect((await cancelled.json()).status).toBe("cancelled");
    const mail = await shop.capture.waitFor((m) => m.to.includes(customer.person.email) && m.subject === `Order ${order.number} is cancelled`);
    expect(mail.text).toContain("2 × Snake Plant Mini");
    const stock = await shop.app.database.db.selectFrom("products").select("stock").where("id", "=", plant.id).executeTakeFirstOrThrow();
    expect(stock.stock).toBe(5);
  });
});
