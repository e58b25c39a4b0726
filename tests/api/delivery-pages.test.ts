import { describe, expect, it } from "vitest";
import { messages } from "../../common/shared/messages.ts";
import { createProduct } from "../support/factories.ts";
import { useAppWithPages } from "../support/app-with-pages.ts";
import { insertSessions, SHOP_AUTH_SECRET } from "../support/shop-process.ts";
import { createShopper, shipping } from "../support/shoppers.ts";
import { TEST_ORIGIN } from "../support/test-app.ts";

// Delivery zones over HTTP as a browser without JavaScript sends them (docs/decisions/053): the owner's page (admins
// only), the product page's check on its own route, and the checkout priced by the PIN code's zone.

const m = messages.delivery;
const shop = useAppWithPages({ AUTH_SECRET: SHOP_AUTH_SECRET });

async function signedIn(fields: { isAdmin?: boolean } = {}) {
  const user = await createShopper(shop.app.database.db, shop.app.database.dialect, fields);
  const [cookie] = await insertSessions(shop.app.database.db, [user.id]);
  return { user, cookie: cookie! };
}
const postForm = (path: string, cookie: string | null, fields: Record<string, string>) =>
  shop.app.request(`${TEST_ORIGIN}${path}`, {
    method: "POST",
    headers: { Origin: TEST_ORIGIN, ...(cookie ? { Cookie: cookie } : {}), "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
const get = (path: string, cookie: string | null) => shop.app.request(`${TEST_ORIGIN}${path}`, { headers: cookie ? { Cookie: cookie } : {} });
const textOf = (html: string, testId: string) => new RegExp(`data-testid="${testId}"[^>]*>([^<]+)<`).exec(html)?.[1];
const zoneNames = async () => (await shop.app.database.db.selectFrom("delivery_zones").select("name").orderBy("name").execute()).map((z) => z.name);
const KARNATAKA = { intent: "create", name: "Karnataka", areas: "56\n57\n58\n59", fee: "80", daysMin: "3", daysMax: "5", codAllowed: "on", codLimit: "2000" };

describe("the owner's delivery page", () => {
  it("lets an admin make and delete zones and set dispatch days, and refuses shoppers and visitors every action", async () => {
    const admin = await signedIn({ isAdmin: true });
    const shopper = await signedIn();
    for (const cookie of [shopper.cookie, null]) {
      expect((await postForm("/admin/delivery", cookie, KARNATAKA)).status).not.toBe(200);
      expect((await postForm("/admin/delivery", cookie, { intent: "days", closedWeekdays: "0", holidays: "" })).status).not.toBe(200);
      expect((await get("/admin/delivery", cookie)).status).not.toBe(200);
    }
    expect(await zoneNames()).toEqual([]);

    expect((await postForm("/admin/delivery", admin.cookie, KARNATAKA)).status).toBe(200);
    const refused = await postForm("/admin/delivery", admin.cookie, { ...KARNATAKA, name: "Typo", areas: "560, 5x0" });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(m.areaInvalid("5x0").replaceAll('"', "&quot;"));
    expect((await postForm("/admin/delivery", admin.cookie, { intent: "days", closedWeekdays: "0", holidays: "2030-01-26" })).status).toBe(200);
    const html = await (await get("/admin/delivery", admin.cookie)).text();
    expect(html).toContain("Cash on Delivery up to Rs. 2,000.00");
    expect(await zoneNames()).toEqual(["Karnataka"]);
    const [zone] = await shop.app.database.db.selectFrom("delivery_zones").select("id").execute();
    for (const cookie of [shopper.cookie, null]) expect((await postForm("/admin/delivery", cookie, { intent: "delete", id: zone!.id })).status).not.toBe(200);
    expect((await postForm("/admin/delivery", admin.cookie, { intent: "delete", id: zone!.id })).status).toBe(200);
    expect(await zoneNames()).toEqual([]);
  });
});

describe("checking delivery and the checkout without JavaScript", () => {
  it("answers on its own route, never cached, and remembers the PIN code for the checkout, which charges its zone and refuses shipping other than it showed", async () => {
    const admin = await signedIn({ isAdmin: true });
    await postForm("/admin/delivery", admin.cookie, KARNATAKA);
    await postForm("/admin/delivery", admin.cookie, { ...KARNATAKA, name: "Bengaluru", areas: "560", fee: "20", codLimit: "" });

    const checked = await get("/delivery-check?pin=580001&product=abc", null);
    expect(checked.status).toBe(200);
    expect(checked.headers.get("cache-control")).toBe("private, no-store");
    expect(checked.headers.get("set-cookie")).toMatch(/^plant-shop\.pin=580001; Path=\/; Max-Age=\d+; SameSite=Lax; HttpOnly/);
    expect(textOf(await checked.text(), "delivery-answer")).toContain("Shipping Rs. 80.00 · Cash on Delivery up to Rs. 2,000.00");
    const outside = await get("/delivery-check?pin=799001", null);
    expect(textOf(await outside.text(), "delivery-answer")).toBe(m.notDelivered("799001").replace("'", "&#x27;"));
    const bad = await get("/delivery-check?pin=12345", null);
    expect([bad.status, bad.headers.get("set-cookie")]).toEqual([200, null]);
    expect(await bad.text()).toContain(m.pinInvalid);

    const { user, cookie } = await signedIn();
    const plant = await createProduct(shop.app.database.db, { price_paise: 50_000, stock: 5 });
    await shop.app.services.cart.addToCart(user, { productId: plant.id, quantity: 1 });
    const withPin = `${cookie}; plant-shop.pin=580001`;
    // The cart already shows the remembered PIN code's shipping, as the checkout will charge it.
    const cartPage = await (await get("/cart", withPin)).text();
    expect(textOf(cartPage, "order-shipping")).toBe("Rs. 80.00");
    expect(textOf(cartPage, "cart-delivery")).toContain("Delivers to 580001 by");
    expect(textOf(await (await get("/cart", cookie)).text(), "order-shipping")).toBe("Rs. 20.00");
    const checkout = await (await get("/checkout", withPin)).text();
    expect(checkout).toMatch(/name="pin"[^>]*value="580001"|value="580001"[^>]*name="pin"/);
    expect(textOf(checkout, "order-shipping")).toBe("Rs. 80.00");
    const form = /<form[^>]*id="checkout-form"[^>]*>([\s\S]*?)<\/form>/.exec(checkout)![1]!;
    const hidden = Object.fromEntries([...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((x) => [x[1]!, x[2]!]));
    expect(hidden.shippingPaise).toBe("8000");

    // Typed another PIN code whose zone charges otherwise: refused, and the page made again shows that zone.
    const changed = await postForm("/checkout", withPin, { ...hidden, ...shipping, pin: "560001", payment: "cod" });
    expect(changed.status).toBe(409);
    expect(changed.headers.get("set-cookie")).toContain("plant-shop.pin=560001");
    expect(await changed.text()).toContain(m.shippingChanged("560001", "Rs. 20.00"));
    const again = await (await get("/checkout", `${cookie}; plant-shop.pin=560001`)).text();
    expect(textOf(again, "order-shipping")).toBe("Rs. 20.00");
    const placed = await postForm("/checkout", `${cookie}; plant-shop.pin=560001`, { ...hidden, shippingPaise: "2000", ...shipping, pin: "560001", payment: "cod" });
    expect(placed.status).toBe(302);
    const order = await shop.app.database.db.selectFrom("orders").select(["ship_pin", "total_paise"]).where("user_id", "=", user.id).executeTakeFirstOrThrow();
    expect([order.ship_pin, Number(order.total_paise)]).toEqual(["560001", 52_000]);
  });
});
