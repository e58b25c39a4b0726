import { describe, expect, it } from "vitest";
import { createProduct } from "../support/factories.ts";
import { useAppWithPages } from "../support/app-with-pages.ts";
import { insertSessions, SHOP_AUTH_SECRET } from "../support/shop-process.ts";
import { checkoutInput, createShopper } from "../support/shoppers.ts";
import { TEST_ORIGIN } from "../support/test-app.ts";

// A shop in New York shows every date in New York time, on the shopper's pages and the admins' alike: the
// server renders it, and the zone reaches the browser with the page's data for the hydration to match.
const shop = useAppWithPages({ AUTH_SECRET: SHOP_AUTH_SECRET, SHOP_TIME_ZONE: "America/New_York" });

// 04:19 UTC on 27 November: 11:19 pm on the 26th in New York, 9:49 am on the 27th in India.
const PLACED = "2026-11-27T04:19:00.000Z";
const NEW_YORK_TIME = "26 Nov 2026, 11:19 pm";
const INDIA_TIME = "27 Nov 2026, 9:49 am";

let plants = 0;

async function page(path: string, cookie: string): Promise<string> {
  const response = await shop.app.request(`${TEST_ORIGIN}${path}`, { headers: { Cookie: cookie } });
  expect(response.status, path).toBe(200);
  return response.text();
}

/** The text of every <time> element whose instant is `instant`. */
const shownTimes = (html: string, instant: string) =>
  [...html.matchAll(new RegExp(`<time[^>]*dateTime="${instant.replace(/\./g, "\\.")}"[^>]*>([^<]*)</time>`, "gi"))].map((m) => m[1]);

/** An order placed by a signed-in shopper, its time set to PLACED; answers the order and both people's cookies. */
async function orderPlacedAtKnownTime() {
  const { db, dialect } = shop.app.database;
  const plant = await createProduct(db, { name: `Boston Fern ${++plants}`, price_paise: 90_000, stock: 5 });
  const shopper = await createShopper(db, dialect);
  const admin = await createShopper(db, dialect, { isAdmin: true });
  const [shopperCookie, adminCookie] = await insertSessions(db, [shopper.id, admin.id]);
  await shop.app.services.cart.addToCart(shopper, { productId: plant.id });
  const order = await shop.app.services.orders.placeOrder(shopper, checkoutInput());
  await db.updateTable("orders").set({ created_at: PLACED }).where("id", "=", order.id).execute();
  return { order, shopperCookie: shopperCookie!, adminCookie: adminCookie! };
}

describe("dates in the shop's time zone (SHOP_TIME_ZONE=America/New_York)", () => {
  it("shows when an order was placed in New York time on the shopper's order list and order page", async () => {
    const { order, shopperCookie } = await orderPlacedAtKnownTime();
    for (const path of ["/orders", `/orders/${order.id}`]) {
      const html = await page(path, shopperCookie);
      expect(html, path).toContain(NEW_YORK_TIME);
      expect(html, path).not.toContain(INDIA_TIME);
      expect(shownTimes(html, PLACED), path).toEqual([NEW_YORK_TIME]);
    }
  });

  it("shows when an order was placed in New York time on the admins' order list and order page", async () => {
    const { order, adminCookie } = await orderPlacedAtKnownTime();
    for (const path of ["/admin/orders", `/admin/orders/${order.id}`]) {
      const html = await page(path, adminCookie);
      expect(html, path).toContain(NEW_YORK_TIME);
      expect(html, path).not.toContain(INDIA_TIME);
      // The admins' list also holds the other tests' orders, placed at the same instant.
      const times = shownTimes(html, PLACED);
      expect(times.length, path).toBeGreaterThan(0);
      expect(new Set(times), path).toEqual(new Set([NEW_YORK_TIME]));
    }
  });

  it("dates a review by its day in New York (26 Nov), not by its day in UTC or India (27 Nov)", async () => {
    const { db, dialect } = shop.app.database;
    const plant = await createProduct(db, { name: `Rubber Plant ${++plants}`, stock: 5 });
    const reviewer = await createShopper(db, dialect);
    const [cookie] = await insertSessions(db, [reviewer.id]);
    const { review } = await shop.app.services.reviews.saveMyReview(reviewer, plant.id, { rating: 5, text: "New leaves every week." });
    await db.updateTable("reviews").set({ created_at: PLACED }).where("id", "=", review.id).execute();
    expect(shownTimes(await page(`/product/${plant.id}`, cookie!), PLACED)).toEqual(["26 Nov 2026"]);
  });

  it("shows when a message was sent and handled in New York time in the admins' inbox", async () => {
    const { db, dialect } = shop.app.database;
    const admin = await createShopper(db, dialect, { isAdmin: true });
    const [cookie] = await insertSessions(db, [admin.id]);
    const { id } = await shop.app.services.contact.sendMessage(
      { name: "Ravi", email: "ravi@example.com", subject: "Repotting", message: "When should a fern be repotted?" },
      { clientIp: "192.0.2.7" },
    );
    const handled = "2026-11-27T15:00:00.000Z";
    await db.updateTable("contact_messages").set({ created_at: PLACED, handled_at: handled }).where("id", "=", id).execute();
    const html = await page("/admin/messages", cookie!);
    expect(shownTimes(html, PLACED)).toEqual([NEW_YORK_TIME]);
    expect(shownTimes(html, handled)).toEqual(["27 Nov 2026, 10:00 am"]);
  });
});
