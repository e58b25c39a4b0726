import { describe, expect, it } from "vitest";
import { messages } from "../../common/shared/messages.ts";
import { useAppWithPages } from "../support/app-with-pages.ts";
import { createProduct } from "../support/factories.ts";
import { TEST_ORIGIN } from "../support/test-app.ts";

// The pages of a visitor's cart (docs/decisions/037) behind the shared page cache: a visitor without a cart keeps
// getting the cached pages; one with a cart gets pages of their own, which reach nobody else.

const shop = useAppWithPages({ PAGE_CACHE_SECONDS: "60" });
const VISITOR_CART = "plant-shop.visitor_cart";

/** Product names are unique, and the tests of this file share one database. */
let plants = 0;
const newPlant = (stock = 5) => createProduct(shop.app.database.db, { name: `Visitor Fern ${++plants}`, stock });

const get = (path: string, cookie?: string) => shop.app.request(`${TEST_ORIGIN}${path}`, { headers: cookie ? { Cookie: cookie } : {} });

/** The product page's Add to Cart form, as a browser without JavaScript sends it. */
const addToCart = (productId: string, cookie?: string) =>
  shop.app.request(`${TEST_ORIGIN}/product/${productId}`, {
    method: "POST",
    headers: { Origin: TEST_ORIGIN, "Content-Type": "application/x-www-form-urlencoded", ...(cookie ? { Cookie: cookie } : {}) },
    body: new URLSearchParams({ productId }).toString(),
  });

const visitorCookie = (response: Response) => {
  const header = response.headers.getSetCookie().find((cookie) => cookie.startsWith(`${VISITOR_CART}=`));
  if (!header) throw new Error(`no visitor cart cookie in: ${response.headers.getSetCookie().join(" | ")}`);
  return header.split(";")[0]!;
};

describe("a visitor's cart on the pages", () => {
  it("sets no cookie for a visitor who adds nothing, who keeps getting the cached page", async () => {
    const plant = await newPlant();
    const first = await get(`/product/${plant.id}`);
    expect(first.status).toBe(200);
    expect(first.headers.getSetCookie()).toEqual([]);
    const second = await get(`/product/${plant.id}`);
    expect(second.headers.get("x-page-cache")).toBe("hit");
    expect(second.headers.getSetCookie()).toEqual([]);
  });

  it("keeps a visitor's Add to Cart in their cart page and header count, private to them: another visitor and the cache never see it", async () => {
    const plant = await newPlant();
    // The cached product page exists before the add; the add must not reach it.
    await get(`/product/${plant.id}`);
    const added = await addToCart(plant.id);
    expect(added.status).toBe(200);
    const cookie = visitorCookie(added);
    expect(added.headers.get("cache-control")).toBe("private, no-store");

    const mine = await get("/cart", cookie);
    expect(mine.status).toBe(200);
    expect(mine.headers.get("cache-control")).toBe("private, no-store");
    const html = await mine.text();
    expect(html).toContain(plant.name);
    expect(html).toContain('aria-label="Cart, 1 item"');
    // Checking out asks the visitor to log in, and brings them back to the cart.
    expect(html).toContain(`href="/login?redirectTo=%2Fcart"`);

    const someoneElse = await get("/cart");
    const theirs = await someoneElse.text();
    expect(theirs).not.toContain(plant.name);
    expect(theirs).toContain(messages.cart.empty);
    const cached = await get(`/product/${plant.id}`);
    expect(cached.headers.get("x-page-cache")).toBe("hit");
    expect(await cached.text()).not.toContain('aria-label="Cart, 1 item"');
    // Another visitor's cart page is never a cached copy of this one's, nor this one's of theirs.
    expect((await get("/cart", cookie)).headers.get("x-page-cache")).toBeNull();
  });

  it("answers a page with a forged cart cookie as for a visitor without a cart, and clears the cookie", async () => {
    const response = await get("/cart", `${VISITOR_CART}=${"Z".repeat(43)}`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(messages.cart.empty);
    expect(response.headers.getSetCookie().find((cookie) => cookie.startsWith(`${VISITOR_CART}=`))).toMatch(/Max-Age=0/);
    const home = await get("/", `${VISITOR_CART}=not-a-token`);
    expect(home.status).toBe(200);
    expect(home.headers.getSetCookie().find((cookie) => cookie.startsWith(`${VISITOR_CART}=`))).toMatch(/Max-Age=0/);
  });
});
