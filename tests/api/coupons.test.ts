import { describe, expect, it } from "vitest";
import { couponMessages as m } from "../../common/coupons/coupon-messages.ts";
import { createProduct } from "../support/factories.ts";
import { useAppWithPages } from "../support/app-with-pages.ts";
import { insertSessions, SHOP_AUTH_SECRET } from "../support/shop-process.ts";
import { createShopper, shipping } from "../support/shoppers.ts";
import { TEST_ORIGIN } from "../support/test-app.ts";

// Discount codes over HTTP: the owner's JSON API and page (admins only), and the cart's and checkout's forms as a
// browser without JavaScript sends them (docs/decisions/046). Free shipping from Rs. 1,000 in this shop.

// A known secret, so that a test can sign in people it wrote into the database (insertSessions).
const shop = useAppWithPages({ AUTH_SECRET: SHOP_AUTH_SECRET, FREE_SHIPPING_ABOVE_PAISE: "100000" });

let plants = 0;
async function signedIn(fields: { isAdmin?: boolean } = {}) {
  const user = await createShopper(shop.app.database.db, shop.app.database.dialect, fields);
  const [cookie] = await insertSessions(shop.app.database.db, [user.id]);
  return { user, cookie: cookie! };
}
const json = (method: string, path: string, cookie: string | null, body?: unknown) =>
  shop.app.request(path, {
    method,
    headers: { Origin: TEST_ORIGIN, ...(cookie ? { Cookie: cookie } : {}), ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const postForm = (path: string, cookie: string | null, fields: Record<string, string>) =>
  shop.app.request(`${TEST_ORIGIN}${path}`, {
    method: "POST",
    headers: { Origin: TEST_ORIGIN, ...(cookie ? { Cookie: cookie } : {}), "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
const page = async (path: string, cookie: string | null) => (await shop.app.request(`${TEST_ORIGIN}${path}`, { headers: cookie ? { Cookie: cookie } : {} })).text();
const textOf = (html: string, testId: string) => new RegExp(`data-testid="${testId}"[^>]*>([^<]+)<`).exec(html)?.[1];

describe("the owner's coupons API and page", () => {
  it("lets an admin make, list, pause and delete codes, and refuses shoppers (403) and visitors (401) every call and page action", async () => {
    const admin = await signedIn({ isAdmin: true });
    const shopper = await signedIn();
    const made = await json("POST", "/api/admin/coupons", admin.cookie, { code: "api10", kind: "percent", value: 10, maxUses: 3 });
    expect(made.status).toBe(201);
    const coupon = await made.json();
    expect(coupon).toMatchObject({ code: "API10", amount: 10, maxUses: 3, usedCount: 0 });

    for (const [cookie, status] of [[shopper.cookie, 403], [null, 401]] as const) {
      expect((await json("GET", "/api/admin/coupons", cookie)).status).toBe(status);
      expect((await json("POST", "/api/admin/coupons", cookie, { code: "MINE", kind: "amount", value: "100" })).status).toBe(status);
      expect((await json("PATCH", `/api/admin/coupons/${coupon.id}`, cookie, { paused: true })).status).toBe(status);
      expect((await json("DELETE", `/api/admin/coupons/${coupon.id}`, cookie)).status).toBe(status);
      expect((await postForm("/admin/coupons", cookie, { intent: "create", code: "PAGEMINE", kind: "amount", value: "100" })).status).not.toBe(200);
      expect((await postForm("/admin/coupons", cookie, { intent: "delete", id: coupon.id })).status).not.toBe(200);
    }
    const listed = await (await json("GET", "/api/admin/coupons", admin.cookie)).json();
    expect(listed.coupons.map((c: { code: string }) => c.code)).toEqual(["API10"]);

    // The page's forms, without JavaScript.
    expect((await postForm("/admin/coupons", admin.cookie, { intent: "create", code: "page5", kind: "amount", value: "5" })).status).toBe(200);
    const refused = await postForm("/admin/coupons", admin.cookie, { intent: "create", code: "PAGE5", kind: "amount", value: "5" });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain(m.codeTaken);
    expect((await postForm("/admin/coupons", admin.cookie, { intent: "pause", id: coupon.id })).status).toBe(200);
    const html = await page("/admin/coupons", admin.cookie);
    expect(html).toContain("Resume API10");
    expect(html).toContain("PAGE5");
    expect((await json("PATCH", `/api/admin/coupons/${coupon.id}`, admin.cookie, { paused: "maybe" })).status).toBe(400);
    expect((await json("DELETE", `/api/admin/coupons/${coupon.id}`, admin.cookie)).status).toBe(200);
    expect((await json("DELETE", `/api/admin/coupons/${coupon.id}`, admin.cookie)).status).toBe(404);
  });
});

describe("editing a code through the owner's API and page", () => {
  it("changes a code's terms by PATCH …/terms for admins only: 401 for visitors, 403 for shoppers, 400 with field errors, 404 for an unknown code, 409 for a taken code", async () => {
    const admin = await signedIn({ isAdmin: true });
    const shopper = await signedIn();
    const coupon = await (await json("POST", "/api/admin/coupons", admin.cookie, { code: "EDIT10", kind: "percent", value: 10 })).json();
    await json("POST", "/api/admin/coupons", admin.cookie, { code: "OTHER10", kind: "percent", value: 10 });
    const terms = `/api/admin/coupons/${coupon.id}/terms`;

    expect((await json("PATCH", terms, null, { value: 20 })).status).toBe(401);
    expect((await json("PATCH", terms, shopper.cookie, { value: 20 })).status).toBe(403);
    for (const [body, fieldErrors] of [
      [{ value: 150 }, { value: m.percentInvalid }],
      [{ maxUses: 0 }, { maxUses: m.maxUsesInvalid }],
      [{ startsAt: "soon" }, { startsAt: m.dateInvalid }],
    ] as const) {
      const invalid = await json("PATCH", terms, admin.cookie, body);
      expect([invalid.status, (await invalid.json()).fieldErrors]).toEqual([400, fieldErrors]);
    }
    const taken = await json("PATCH", terms, admin.cookie, { code: "other10" });
    expect([taken.status, (await taken.json()).fieldErrors]).toEqual([409, { code: m.codeTaken }]);
    expect((await json("PATCH", "/api/admin/coupons/no-such-coupon/terms", admin.cookie, { value: 20 })).status).toBe(404);

    const changed = await json("PATCH", terms, admin.cookie, { code: "edit20", value: 20, minSubtotal: "500", oncePerCustomer: true });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({ id: coupon.id, code: "EDIT20", kind: "percent", amount: 20, minSubtotalPaise: 50_000, oncePerCustomer: true, maxUses: null });
    const listed = await (await json("GET", "/api/admin/coupons", admin.cookie)).json();
    expect(listed).toMatchObject({ nextCursor: null, previousCursor: null });
    expect(listed.coupons.filter((c: { id: string }) => c.id === coupon.id)).toMatchObject([{ code: "EDIT20", amount: 20 }]);
    expect((await json("GET", "/api/admin/coupons?after=nonsense", admin.cookie)).status).toBe(400);
  });

  it("edits through the page's form without JavaScript: the form shows the stored terms, a save changes them, a refusal keeps what was typed with its message, and shoppers and visitors cannot", async () => {
    const admin = await signedIn({ isAdmin: true });
    const shopper = await signedIn();
    const coupon = await (await json("POST", "/api/admin/coupons", admin.cookie, { code: "FORMEDIT", kind: "amount", value: "150", maxUses: 4, oncePerCustomer: true })).json();
    const form = { intent: "update", id: coupon.id, code: "FORMEDIT", kind: "amount", value: "175.50", minSubtotal: "", startsAt: "2030-01-01T10:00", endsAt: "", maxUses: "4", oncePerCustomer: "false" };

    const editPage = await page(`/admin/coupons?edit=${coupon.id}`, admin.cookie);
    expect(editPage).toContain("Edit coupon FORMEDIT");
    // Its form posts back to this address, so a refusal shows the same form again.
    expect(/<form[^>]*aria-labelledby="coupon-form-title"[^>]*>/.exec(editPage)?.[0]).toContain(`action="/admin/coupons?edit=${coupon.id}"`);
    expect(editPage).toMatch(/name="value"[^>]*value="150"/);
    expect(editPage).toMatch(/name="maxUses"[^>]*value="4"/);
    expect((await shop.app.request(`${TEST_ORIGIN}/admin/coupons?edit=no-such-coupon`, { headers: { Cookie: admin.cookie } })).status).toBe(404);

    for (const [cookie, status] of [[shopper.cookie, 403], [null, 401]] as const) {
      expect((await postForm("/admin/coupons", cookie, form)).status).not.toBe(200);
      expect((await json("GET", `/api/admin/coupons`, cookie)).status).toBe(status);
    }
    expect((await json("GET", "/api/admin/coupons", admin.cookie)).status).toBe(200);

    // Posted where the form is shown: the page with ?edit=.
    const saved = await postForm(`/admin/coupons?edit=${coupon.id}`, admin.cookie, form);
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain(m.updated("FORMEDIT"));
    const listed = await (await json("GET", "/api/admin/coupons", admin.cookie)).json();
    expect(listed.coupons.filter((c: { id: string }) => c.id === coupon.id)).toMatchObject([
      { code: "FORMEDIT", kind: "amount", amount: 17_550, startsAt: "2030-01-01T04:30:00.000Z", oncePerCustomer: false, maxUses: 4 },
    ]);

    const refused = await postForm(`/admin/coupons?edit=${coupon.id}`, admin.cookie, { ...form, value: "-3" });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain(m.amountInvalid);
    expect(html).toMatch(/name="value"[^>]*value="-3"/);
  });
});

describe("a discount code in the cart and at checkout, without JavaScript", () => {
  it("applies in the cart with a Discount line, shows each refusal's message, is seen again at checkout and ordered with the total shown", async () => {
    const admin = await signedIn({ isAdmin: true });
    await json("POST", "/api/admin/coupons", admin.cookie, { code: "FORM20", kind: "amount", value: "200" });
    await json("POST", "/api/admin/coupons", admin.cookie, { code: "BIGONLY", kind: "amount", value: "10", minSubtotal: "5000" });
    const plant = await createProduct(shop.app.database.db, { name: `Rubber Plant ${++plants}`, price_paise: 60_000, stock: 5 });
    const { user, cookie } = await signedIn();
    await shop.app.services.cart.addToCart(user, { productId: plant.id });

    // Below the free-shipping threshold: the cart says how much more to add.
    expect(await page("/cart", cookie)).toContain(m.freeShippingIn(40_000));

    const unknown = await postForm("/cart", cookie, { intent: "apply-coupon", code: "NOPE" });
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain(m.unknown);
    const minimum = await postForm("/cart", cookie, { intent: "apply-coupon", code: "bigonly" });
    expect(minimum.status).toBe(409);
    expect(await minimum.text()).toContain("Add Rs. 4,400.00 more to your cart to use that discount code.");

    expect((await postForm("/cart", cookie, { intent: "apply-coupon", code: "form20" })).status).toBe(200);
    const cart = await page("/cart", cookie);
    expect(textOf(cart, "order-discount")).toBe("−Rs. 200.00");
    expect(textOf(cart, "order-total")).toBe("Rs. 420.00");

    const checkout = await page("/checkout", cookie);
    expect(textOf(checkout, "order-discount")).toBe("−Rs. 200.00");
    expect(checkout).toContain("Remove FORM20");
    const form = /<form[^>]*id="checkout-form"[^>]*>([\s\S]*?)<\/form>/.exec(checkout)![1]!;
    const hidden = Object.fromEntries([...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((x) => [x[1]!, x[2]!]));
    const placed = await postForm("/checkout", cookie, { ...hidden, ...shipping, payment: "cod" });
    expect(placed.status).toBe(302);
    const order = await shop.app.database.db.selectFrom("orders").select(["id", "total_paise", "discount_paise", "coupon_code"]).where("user_id", "=", user.id).executeTakeFirstOrThrow();
    expect(order).toMatchObject({ total_paise: 42_000, coupon_code: "FORM20" });
    expect(Number(order.discount_paise)).toBe(20_000);
    const orderPage = await page(`/orders/${order.id}`, cookie);
    expect(textOf(orderPage, "order-discount")).toBe("−Rs. 200.00");
    expect(textOf(await page(`/admin/orders/${order.id}`, admin.cookie), "order-discount")).toBe("−Rs. 200.00");
  });

  it("removes the code at checkout, asks a visitor to log in, and ships free at the threshold", async () => {
    const admin = await signedIn({ isAdmin: true });
    await json("POST", "/api/admin/coupons", admin.cookie, { code: "REMOVEME", kind: "percent", value: "5" });
    const plant = await createProduct(shop.app.database.db, { name: `Fiddle Leaf ${++plants}`, price_paise: 100_000, stock: 5 });
    const { user, cookie } = await signedIn();
    await shop.app.services.cart.addToCart(user, { productId: plant.id });
    expect(textOf(await page("/cart", cookie), "order-shipping")).toBe(m.free);

    await postForm("/cart", cookie, { intent: "apply-coupon", code: "REMOVEME" });
    // 5% off takes the subtotal below Rs. 1,000: the fee is back.
    expect(textOf(await page("/checkout", cookie), "order-shipping")).toBe("Rs. 20.00");
    expect((await postForm("/checkout", cookie, { intent: "remove-coupon" })).status).toBe(200);
    const checkout = await page("/checkout", cookie);
    expect(textOf(checkout, "order-discount")).toBeUndefined();
    expect(textOf(checkout, "order-shipping")).toBe(m.free);

    const visitor = await postForm("/cart", null, { intent: "apply-coupon", code: "REMOVEME" });
    expect(visitor.status).toBe(401);
    expect(await visitor.text()).toContain(m.loginToApply);
  });

  it("answers the cart API's apply and remove with the cart, and a refusal with its message", async () => {
    const admin = await signedIn({ isAdmin: true });
    await json("POST", "/api/admin/coupons", admin.cookie, { code: "JSON1", kind: "amount", value: "1" });
    const plant = await createProduct(shop.app.database.db, { name: `Pothos ${++plants}`, price_paise: 30_000, stock: 5 });
    const { user, cookie } = await signedIn();
    await shop.app.services.cart.addToCart(user, { productId: plant.id });
    const applied = await json("PUT", "/api/cart/coupon", cookie, { code: "json1" });
    expect(applied.status).toBe(200);
    expect(await applied.json()).toMatchObject({ coupon: { code: "JSON1", problem: null }, discountPaise: 100, totalPaise: 30_000 - 100 + 2000, freeShippingMorePaise: 70_100 });
    const refused = await json("PUT", "/api/cart/coupon", cookie, { code: "NOPE" });
    expect([refused.status, (await refused.json()).message]).toEqual([400, m.unknown]);
    expect((await json("PUT", "/api/cart/coupon", null, { code: "JSON1" })).status).toBe(401);
    expect(await (await json("DELETE", "/api/cart/coupon", cookie)).json()).toMatchObject({ coupon: null, discountPaise: 0 });
  });
});
