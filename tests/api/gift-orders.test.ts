import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { messages } from "../../common/shared/messages.ts";
import { createProduct } from "../support/factories.ts";
import { useAppWithPages } from "../support/app-with-pages.ts";
import { insertSessions, SHOP_AUTH_SECRET } from "../support/shop-process.ts";
import { checkoutInput, createShopper, shipping } from "../support/shoppers.ts";
import { TEST_ORIGIN } from "../support/test-app.ts";

// Gift orders over HTTP (docs/decisions/052): the checkout's JSON API and its page's form as a browser without
// JavaScript sends it, what is stored, and the owner's packing slip with and without prices.

// A known secret, so that a test can sign in people it wrote into the database (insertSessions).
const shop = useAppWithPages({ AUTH_SECRET: SHOP_AUTH_SECRET });

let plants = 0;
async function signedIn(fields: { isAdmin?: boolean } = {}) {
  const user = await createShopper(shop.app.database.db, shop.app.database.dialect, fields);
  const [cookie] = await insertSessions(shop.app.database.db, [user.id]);
  return { user, cookie: cookie! };
}
/** A verified shopper, signed in, with two of a new plant (Rs. 450 each) in the cart. */
async function shopperWithPlants() {
  const plant = await createProduct(shop.app.database.db, { name: `Gift Fern ${++plants}`, price_paise: 45_000, stock: 5 });
  const shopper = await signedIn();
  await shop.app.services.cart.addToCart(shopper.user, { productId: plant.id, quantity: 2 });
  return { plant, ...shopper };
}
const json = (method: string, path: string, cookie: string, body?: unknown) =>
  shop.app.request(`${TEST_ORIGIN}${path}`, {
    method,
    headers: { Origin: TEST_ORIGIN, Cookie: cookie, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const postForm = (path: string, cookie: string, fields: Record<string, string>) =>
  shop.app.request(`${TEST_ORIGIN}${path}`, {
    method: "POST",
    headers: { Origin: TEST_ORIGIN, Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
const getPage = (path: string, cookie: string) => shop.app.request(`${TEST_ORIGIN}${path}`, { headers: { Cookie: cookie } });
/** The page's main content, as the slip prints it (the page's data for the browser is outside it). */
const mainOf = (html: string) => /<main[^>]*>([\s\S]*?)<\/main>/.exec(html)?.[1] ?? "";

const ordersOf = (userId: string) => shop.app.database.db.selectFrom("orders").select("id").where("user_id", "=", userId).execute();
const giftRowOf = (orderId: string) =>
  shop.app.database.db.selectFrom("order_gifts").select(["recipient_name", "recipient_phone", "message", "hide_prices"]).where("order_id", "=", orderId).executeTakeFirst();

const giftCount = async () => (await shop.app.database.db.selectFrom("order_gifts").select("order_id").execute()).length;

const GIFT = { gift: true, giftName: "Meera Iyer", giftPhone: "+91 99887 76655", giftMessage: "Happy birthday, Meera!\nLove, Asha", giftHidePrices: true };

describe("a gift order through the checkout", () => {
  it("stores the recipient, the message and 'hide prices' with the order, and the order answers them", async () => {
    const { user, cookie } = await shopperWithPlants();
    const placed = await json("POST", "/api/orders", cookie, { ...checkoutInput(), ...GIFT });
    expect(placed.status).toBe(201);
    const order = await placed.json();
    const gift = { recipientName: "Meera Iyer", recipientPhone: "+91 99887 76655", message: "Happy birthday, Meera!\nLove, Asha", hidePrices: true };
    expect(order.gift).toEqual(gift);
    expect((await (await json("GET", `/api/orders/${order.id}`, cookie)).json()).gift).toEqual(gift);
    expect(await giftRowOf(order.id)).toEqual({ recipient_name: "Meera Iyer", recipient_phone: "+91 99887 76655", message: "Happy birthday, Meera!\nLove, Asha", hide_prices: 1 });
    expect(await ordersOf(user.id)).toHaveLength(1);
  });

  it("stores no gift when the box is not ticked, whatever the other gift fields hold", async () => {
    const { cookie } = await shopperWithPlants();
    const placed = await json("POST", "/api/orders", cookie, { ...checkoutInput(), ...GIFT, gift: false, giftName: "", giftPhone: "not a phone" });
    expect(placed.status).toBe(201);
    const order = await placed.json();
    expect(order.gift).toBeNull();
    expect(await giftRowOf(order.id)).toBeUndefined();
  });

  it("takes a message of 300 characters counted as people count them (300 emoji), and none at all", async () => {
    const first = await shopperWithPlants();
    const long = await json("POST", "/api/orders", first.cookie, { ...checkoutInput(), ...GIFT, giftMessage: "🌱".repeat(300) });
    expect(long.status).toBe(201);
    expect((await long.json()).gift.message).toBe("🌱".repeat(300));
    const second = await shopperWithPlants();
    const none = await json("POST", "/api/orders", second.cookie, { ...checkoutInput(), ...GIFT, giftMessage: "  " });
    expect(none.status).toBe(201);
    expect((await none.json()).gift).toMatchObject({ message: null, hidePrices: true });
  });

  it.each([
    ["no recipient's name", { giftName: "  " }, "giftName", messages.checkout.giftNameRequired],
    ["no recipient's phone", { giftPhone: undefined }, "giftPhone", messages.checkout.giftPhoneRequired],
    ["a recipient's phone that is no phone number", { giftPhone: "call me" }, "giftPhone", messages.validation.phoneInvalid],
    ["a message of 301 characters", { giftMessage: "a".repeat(301) }, "giftMessage", messages.checkout.giftMessageTooLong(300)],
  ])("refuses a gift with %s, saying so at that field, and orders nothing (the cart and stock stay)", async (_, change, field, message) => {
    const { plant, user, cookie } = await shopperWithPlants();
    const giftsBefore = await giftCount();
    const refused = await json("POST", "/api/orders", cookie, { ...checkoutInput(), ...GIFT, ...change });
    expect(refused.status).toBe(400);
    expect((await refused.json()).fieldErrors).toEqual({ [field]: message });
    expect(await ordersOf(user.id)).toEqual([]);
    expect(await giftCount()).toBe(giftsBefore);
    expect((await shop.app.services.cart.getCart(user)).itemCount).toBe(2);
    expect(await shop.app.database.db.selectFrom("products").select("stock").where("id", "=", plant.id).executeTakeFirstOrThrow()).toEqual({ stock: 5 });
  });

  it("refuses the page's form without JavaScript with the field's message shown, and places the gift once it is right", async () => {
    const { user, cookie } = await shopperWithPlants();
    const form = { ...shipping, payment: "cod", idempotencyKey: randomUUID(), gift: "on", giftName: "Meera Iyer", giftPhone: "", giftMessage: "For you", giftHidePrices: "on" };
    const refused = await postForm("/checkout", cookie, form);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(messages.checkout.giftPhoneRequired);
    expect(await ordersOf(user.id)).toEqual([]);

    const placed = await postForm("/checkout", cookie, { ...form, giftPhone: "98765 12345" });
    expect(placed.status).toBe(302);
    const [order] = await ordersOf(user.id);
    expect(await giftRowOf(order!.id)).toEqual({ recipient_name: "Meera Iyer", recipient_phone: "98765 12345", message: "For you", hide_prices: 1 });
    // The buyer's order page shows the gift.
    const mine = await (await getPage(`/orders/${order!.id}`, cookie)).text();
    expect(mine).toContain(messages.gifts.giftFor("Meera Iyer", "98765 12345"));
    expect(mine).toContain(messages.gifts.pricesHidden);
  });
});

describe("the packing slip", () => {
  it("shows a gift's recipient, address, lines and message and no price anywhere in its content when prices are hidden; admins only, never cached", async () => {
    const { plant, cookie } = await shopperWithPlants();
    const order = await (await json("POST", "/api/orders", cookie, { ...checkoutInput(), ...GIFT })).json();
    const admin = await signedIn({ isAdmin: true });

    const adminPage = await (await getPage(`/admin/orders/${order.id}`, admin.cookie)).text();
    expect(adminPage).toContain(`href="/admin/orders/${order.id}/packing-slip"`);
    expect(adminPage).toContain(messages.gifts.giftFor("Meera Iyer", "+91 99887 76655"));

    const slip = await getPage(`/admin/orders/${order.id}/packing-slip`, admin.cookie);
    expect(slip.status).toBe(200);
    expect(slip.headers.get("cache-control")).toBe("private, no-store");
    const content = mainOf(await slip.text());
    for (const text of [order.number, "Meera Iyer", "+91 99887 76655", "12 Garden Road", plant.name, "Happy birthday, Meera!"]) expect(content).toContain(text);
    expect(content).not.toContain("Rs.");
    expect(content).not.toContain("Cash on Delivery");

    expect((await getPage(`/admin/orders/${order.id}/packing-slip`, cookie)).status).toBe(403);
  });

  it("shows the prices, the total and the payment of an order that is no gift", async () => {
    const { cookie } = await shopperWithPlants();
    const order = await (await json("POST", "/api/orders", cookie, checkoutInput())).json();
    const admin = await signedIn({ isAdmin: true });
    const content = mainOf(await (await getPage(`/admin/orders/${order.id}/packing-slip`, admin.cookie)).text());
    expect(content).toContain(shipping.name);
    expect(content).toContain("Rs. 900.00");
    expect(content).toContain("Rs. 920.00");
    expect(content).toContain("Cash on Delivery");
  });
});
