import { describe, expect, it } from "vitest";
import { messages } from "../../common/shared/messages.ts";
import { createProduct, setSelling } from "../support/factories.ts";
import { useAppWithPages } from "../support/app-with-pages.ts";
import { insertSessions, SHOP_AUTH_SECRET } from "../support/shop-process.ts";
import { createShopper, shipping } from "../support/shoppers.ts";
import { TEST_ORIGIN } from "../support/test-app.ts";
import type { SessionUser } from "../../server/platform/session-user.ts";

// The checkout page's own form, as a browser without JavaScript sends it: what the shopper was shown is what
// is ordered, or nothing is (Cash on Delivery, docs/decisions/009).

// A known secret, so that a test can sign in people it wrote into the database (insertSessions).
const shop = useAppWithPages({ AUTH_SECRET: SHOP_AUTH_SECRET });

/** Product names are unique, and the tests of this file share one database. */
let plants = 0;

/** A verified shopper, signed in, with one Snake Plant (Rs. 1,500) in the cart. */
async function shopperWithSnakePlant() {
  const plant = await createProduct(shop.app.database.db, { name: `Snake Plant ${++plants}`, price_paise: 150_000, stock: 5 });
  const user = await createShopper(shop.app.database.db, shop.app.database.dialect);
  const [cookie] = await insertSessions(shop.app.database.db, [user.id]);
  await shop.app.services.cart.addToCart(user, { productId: plant.id });
  return { plant, user, cookie: cookie! };
}

/** The checkout page's HTML and the hidden fields of its form, as the browser would send them back. */
function readCheckout(html: string) {
  const form = /<form[^>]*id="checkout-form"[^>]*>([\s\S]*?)<\/form>/.exec(html)?.[1];
  if (!form) throw new Error("the checkout page shows no checkout form");
  const hidden = Object.fromEntries([...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
  const total = /data-testid="order-total"[^>]*>([^<]+)</.exec(html)?.[1];
  return { hidden, total };
}

const openCheckout = async (cookie: string) => {
  const page = await shop.app.request(`${TEST_ORIGIN}/checkout`, { headers: { Cookie: cookie } });
  expect(page.status).toBe(200);
  return readCheckout(await page.text());
};

const placeOrder = (cookie: string, hidden: Record<string, string>) =>
  shop.app.request(`${TEST_ORIGIN}/checkout`, {
    method: "POST",
    headers: { Origin: TEST_ORIGIN, Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ ...hidden, ...shipping, payment: "cod" }).toString(),
    redirect: "manual",
  });

const ordersOf = (userId: string) => shop.app.database.db.selectFrom("orders").select(["id", "total_paise"]).where("user_id", "=", userId).execute();

describe("the checkout page (Cash on Delivery)", () => {
  it("places the order the page showed when nothing changed, and sends the shopper to it", async () => {
    const { plant, user, cookie } = await shopperWithSnakePlant();
    const shown = await openCheckout(cookie);
    expect(shown.total).toBe("Rs. 1,520.00");
    expect(shown.hidden.cartFingerprint).toMatch(/\S/);

    const placed = await placeOrder(cookie, shown.hidden);
    expect(placed.status).toBe(302);
    const [order] = await ordersOf(user.id);
    expect(placed.headers.get("location")).toBe(`/orders/${order!.id}`);
    expect(order!.total_paise).toBe(152_000);
    expect(await shop.app.database.db.selectFrom("products").select("stock").where("id", "=", plant.id).executeTakeFirstOrThrow()).toEqual({ stock: 4 });
  });

  it.each([
    ["the price changes after the page was shown (Rs. 1,520.00, then 3000)", "Rs. 3,020.00", 1, async (plantId: string) => {
      await setSelling(shop.app.database.db, plantId, { price_paise: 300_000 });
    }],
    ["a plant is added in another tab after the page was shown", "Rs. 2,320.00", 2, async (_: string, user: SessionUser) => {
      const lily = await createProduct(shop.app.database.db, { name: `Peace Lily ${++plants}`, price_paise: 80_000, stock: 5 });
      await shop.app.services.cart.addToCart(user, { productId: lily.id });
    }],
  ])("orders nothing and says 'Your cart changed just now' with the fresh summary when %s; placing it again orders that", async (_, freshTotal, lines, change) => {
    const { plant, user, cookie } = await shopperWithSnakePlant();
    const shown = await openCheckout(cookie);
    expect(shown.total).toBe("Rs. 1,520.00");
    await change(plant.id, user);

    const refused = await placeOrder(cookie, shown.hidden);
    expect(refused.status).toBe(409);
    const html = await refused.text();
    expect(html).toMatch(new RegExp(`role="alert"[^>]*>${messages.checkout.cartChanged.replaceAll(".", "\\.")}<`));
    const fresh = readCheckout(html);
    expect(fresh.total).toBe(freshTotal);
    expect(await ordersOf(user.id)).toEqual([]);
    expect(await shop.app.database.db.selectFrom("products").select("stock").where("id", "=", plant.id).executeTakeFirstOrThrow()).toEqual({ stock: 5 });
    expect(await shop.app.database.db.selectFrom("cart_items").select("id").where("user_id", "=", user.id).execute()).toHaveLength(lines);

    // The form as the refusal showed it again: the order is what the shopper now saw.
    const placed = await placeOrder(cookie, fresh.hidden);
    expect(placed.status).toBe(302);
    expect((await ordersOf(user.id)).map((o) => o.total_paise)).toEqual([Number(freshTotal.replace(/[^\d]/g, ""))]);
  });
});
