import { describe, expect, it } from "vitest";
import { useAppWithPages } from "../support/app-with-pages.ts";
import { SHOP_AUTH_SECRET } from "../support/shop-process.ts";
import { checkoutInput, createShopper } from "../support/shoppers.ts";
import { createProductWithSizes } from "../support/factories.ts";

// The product page of a plant in several sizes through the anonymous page cache (docs/decisions/048): the page
// at `?variant=` is its own page, stored under its whole URL, so a stored copy of one size is never another's.
const shop = useAppWithPages({ AUTH_SECRET: SHOP_AUTH_SECRET, PAGE_CACHE_SECONDS: "3600" });

async function visit(path: string) {
  const response = await shop.app.request(path);
  return { status: response.status, hit: response.headers.get("x-page-cache") === "hit", body: await response.text() };
}

/** A plant in two sizes: 'Small' at Rs. 500 and 'Large' at Rs. 900, with these stocks. */
async function smallAndLarge(smallStock: number, largeStock: number) {
  const { product, sizeIds } = await createProductWithSizes(shop.app.database.db, [
    { label: "Small", price_paise: 50_000, stock: smallStock },
    { label: "Large", price_paise: 90_000, stock: largeStock },
  ]);
  return { product, small: sizeIds[0]!, large: sizeIds[1]! };
}

/** The size whose radio the page checked, by id. */
const checkedSize = (body: string) => /<input type="radio"[^>]* name="variant" checked="" value="([^"]+)"/.exec(body)?.[1];

describe("a plant's page at each size, for visitors", () => {
  it("is stored once per ?variant=: each size's stored copy shows that size's price and stock, and a page with no size shows the first", async () => {
    const { product, small, large } = await smallAndLarge(4, 2);
    const pages = { none: `/product/${product.id}`, small: `/product/${product.id}?variant=${small}`, large: `/product/${product.id}?variant=${large}` };
    for (const round of ["miss", "hit"]) {
      for (const [size, path] of Object.entries(pages)) {
        const page = await visit(path);
        expect(page.status, path).toBe(200);
        expect(page.hit, `${size} ${round}`).toBe(round === "hit");
        expect(checkedSize(page.body), `${size} ${round}`).toBe(size === "large" ? large : small);
        expect(page.body, `${size} ${round}`).toContain(size === "large" ? "Available Stock: 2" : "Available Stock: 4");
        expect(page.body, `${size} ${round}`).toContain(size === "large" ? "Rs. 900" : "Rs. 500");
      }
    }
    // A size the plant does not have opens the plant at its first size.
    expect(checkedSize((await visit(`/product/${product.id}?variant=gone`)).body)).toBe(small);
  });

  it("a sale of one size drops the stored page data at its ?variant=, so the live page's re-read is not a copy from before the sale", async () => {
    const { product, large } = await smallAndLarge(4, 2);
    const data = `/product/${product.id}.data?variant=${large}`;
    await visit(data);
    expect((await visit(data)).hit).toBe(true);
    const shopper = await createShopper(shop.app.database.db, shop.app.database.dialect);
    await shop.app.services.cart.addToCart(shopper, { productId: product.id, variantId: large, quantity: 1 });
    await shop.app.services.orders.placeOrder(shopper, checkoutInput("size-page-order"));
    const after = await visit(data);
    expect(after.hit).toBe(false);
    // The data holds every size with its own stock: the large one's is one fewer, the small one's as it was.
    expect(after.body).toMatch(/"Large"/);
    const stocks = await shop.app.database.db.selectFrom("product_variants").select(["id", "stock"]).where("product_id", "=", product.id).orderBy("position").execute();
    expect(stocks.map((row) => row.stock)).toEqual([4, 1]);
  });
});
