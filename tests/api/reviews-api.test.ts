import { describe, expect, it } from "vitest";
import { messages } from "../../common/shared/messages.ts";
import { createProduct } from "../support/factories.ts";
import { useAppWithPages } from "../support/app-with-pages.ts";
import { insertSessions, SHOP_AUTH_SECRET } from "../support/shop-process.ts";
import { createShopper } from "../support/shoppers.ts";
import { TEST_ORIGIN } from "../support/test-app.ts";

const r = messages.reviews;
// A known secret, so that a test can sign in people it wrote into the database (insertSessions).
const shop = useAppWithPages({ AUTH_SECRET: SHOP_AUTH_SECRET });

async function person(name: string, isAdmin = false) {
  const user = await createShopper(shop.app.database.db, shop.app.database.dialect, { name, isAdmin });
  const [cookie] = await insertSessions(shop.app.database.db, [user.id]);
  return { user, cookie: cookie! };
}

const send = (method: string, path: string, cookie: string | null, body?: unknown) =>
  shop.app.request(path, {
    method,
    headers: { Origin: TEST_ORIGIN, ...(cookie ? { Cookie: cookie } : {}), ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });

describe("the reviews API", () => {
  it("answers a visitor's write with 401 and the 'Failed to add review:' prefix, and lets anyone read", async () => {
    const plant = await createProduct(shop.app.database.db);
    const put = await send("PUT", `/api/products/${plant.id}/reviews/mine`, null, { text: "Nice", rating: 5 });
    expect(put.status).toBe(401);
    expect((await put.json()).message).toBe(`${r.addPrefix} ${r.logInFirst}`);
    expect((await send("DELETE", `/api/products/${plant.id}/reviews/mine`, null)).status).toBe(401);
    const list = await send("GET", `/api/products/${plant.id}/reviews`, null);
    expect(list.status).toBe(200);
    expect(await list.json()).toEqual({ items: [], nextCursor: null });
  });

  it("adds with 201, replaces with 200, and refuses an incomplete review with 400 and 'Please provide a review and a rating.'", async () => {
    const plant = await createProduct(shop.app.database.db);
    const asha = await person("Asha Kulkarni");
    const added = await send("PUT", `/api/products/${plant.id}/reviews/mine`, asha.cookie, { text: "Lovely", rating: 4 });
    expect(added.status).toBe(201);
    expect(await added.json()).toMatchObject({ text: "Lovely", rating: 4, authorName: "Asha Kulkarni" });
    const replaced = await send("PUT", `/api/products/${plant.id}/reviews/mine`, asha.cookie, { text: "Lovelier", rating: 5 });
    expect(replaced.status).toBe(200);
    const incomplete = await send("PUT", `/api/products/${plant.id}/reviews/mine`, asha.cookie, { text: "", rating: 0 });
    expect(incomplete.status).toBe(400);
    expect(await incomplete.json()).toMatchObject({ message: `${r.addPrefix} ${r.incomplete}`, fieldErrors: { text: r.incomplete, rating: r.incomplete } });
    const notJson = await send("PUT", `/api/products/${plant.id}/reviews/mine`, asha.cookie, "{not json");
    expect(notJson.status).toBe(400);
    expect((await notJson.json()).message).toMatch(/^Failed to add review: /);
    const mine = await (await send("GET", `/api/products/${plant.id}/reviews/mine`, asha.cookie)).json();
    expect(mine.review).toMatchObject({ text: "Lovelier", rating: 5 });
    const product = await (await send("GET", `/api/products/${plant.id}`, null)).json();
    expect(product).toMatchObject({ reviewCount: 1, averageRating: 5 });
  });

  it("does not let another shopper delete my review (403), lets me, and lets an admin delete anyone's", async () => {
    const plant = await createProduct(shop.app.database.db);
    const asha = await person("Asha");
    const ravi = await person("Ravi");
    const admin = await person("Owner", true);
    const ashas = await (await send("PUT", `/api/products/${plant.id}/reviews/mine`, asha.cookie, { text: "Mine", rating: 5 })).json();
    const ravis = await (await send("PUT", `/api/products/${plant.id}/reviews/mine`, ravi.cookie, { text: "His", rating: 1 })).json();

    const refused = await send("DELETE", `/api/products/${plant.id}/reviews/${ashas.id}`, ravi.cookie);
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toBe(`${r.deletePrefix} ${r.notYours}`);
    expect((await send("DELETE", `/api/products/${plant.id}/reviews/${ashas.id}`, null)).status).toBe(401);

    expect((await send("DELETE", `/api/products/${plant.id}/reviews/${ravis.id}`, admin.cookie)).status).toBe(204);
    expect((await send("DELETE", `/api/products/${plant.id}/reviews/mine`, asha.cookie)).status).toBe(204);
    expect((await send("DELETE", `/api/products/${plant.id}/reviews/mine`, asha.cookie)).status).toBe(404);
    expect((await (await send("GET", `/api/products/${plant.id}/reviews`, null)).json()).items).toEqual([]);
  });

  it("answers an unknown product or a malformed page key with 4xx and the fetch prefix", async () => {
    const missing = await send("GET", "/api/products/no-such-plant/reviews", null);
    expect(missing.status).toBe(404);
    expect((await missing.json()).message).toBe(`${r.fetchPrefix} ${messages.product.notFound}`);
    const plant = await createProduct(shop.app.database.db);
    const badKey = await send("GET", `/api/products/${plant.id}/reviews?after=%3Cscript%3E`, null);
    expect(badKey.status).toBe(400);
    expect((await badKey.json()).message).toMatch(/^Failed to fetch reviews: /);
  });
});

describe("the product page", () => {
  it("states its price in the structured data as schema.org writes it ('1499.50'), and its edit form shows it as an admin types it", async () => {
    const plant = await createProduct(shop.app.database.db, { price_paise: 149_950 });
    const page = await (await shop.app.request(`/product/${plant.id}`)).text();
    const structured = /<script type="application\/ld\+json">([^<]*)<\/script>/.exec(page)?.[1];
    expect(structured, "the page carries structured data").toBeDefined();
    expect(JSON.parse(structured!).offers).toMatchObject({ priceCurrency: "INR", price: "1499.50" });

    const whole = await createProduct(shop.app.database.db, { price_paise: 150_000 });
    const admin = await person("Owner", true);
    for (const [product, typed] of [[plant, "1499.50"], [whole, "1500"]] as const) {
      const form = await shop.app.request(`/product/${product.id}/edit`, { headers: { Cookie: admin.cookie } });
      expect(form.status).toBe(200);
      expect(/<input[^>]*name="price"[^>]*>/.exec(await form.text())?.[0]).toContain(`value="${typed}"`);
    }
  });

  it("shows HTML in a review's text as text, escaped, never as markup", async () => {
    const plant = await createProduct(shop.app.database.db);
    const mallory = await person("<b>Mallory</b>");
    const text = `<img src=x onerror="alert(1)"><script>alert("xss")</script>`;
    expect((await send("PUT", `/api/products/${plant.id}/reviews/mine`, mallory.cookie, { text, rating: 3 })).status).toBe(201);

    const api = await (await send("GET", `/api/products/${plant.id}/reviews`, null)).json();
    expect(api.items[0].text).toBe(text);
    const page = await shop.app.request(`/product/${plant.id}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&lt;script&gt;alert(&quot;xss&quot;)&lt;/script&gt;");
    expect(html).toContain("&lt;b&gt;Mallory&lt;/b&gt;");
    expect(html).not.toContain("<img src=x");
    expect(html).not.toContain('<script>alert("xss")');
    expect(html).not.toContain("<b>Mallory</b>");
  });

  it("saves a review posted by the page's form without JavaScript, and sends a visitor's post to log in", async () => {
    const plant = await createProduct(shop.app.database.db);
    const asha = await person("Asha");
    const form = (fields: Record<string, string>, cookie?: string) =>
      shop.app.request(`${TEST_ORIGIN}/product/${plant.id}`, {
        method: "POST",
        headers: { Origin: TEST_ORIGIN, "Content-Type": "application/x-www-form-urlencoded", ...(cookie ? { Cookie: cookie } : {}) },
        body: new URLSearchParams(fields).toString(),
      });
    const visitor = await form({ intent: "review-save", text: "Hi", rating: "5" });
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toMatch(/^\/login\?redirectTo=/);

    const incomplete = await form({ intent: "review-save", text: "Hi" }, asha.cookie);
    expect(incomplete.status).toBe(400);
    expect(await incomplete.text()).toContain(r.incomplete);

    const saved = await form({ intent: "review-save", text: "Grows fast", rating: "4" }, asha.cookie);
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain("Grows fast");
    expect((await shop.app.services.reviews.listReviews(plant.id, {})).items).toMatchObject([{ text: "Grows fast", rating: 4 }]);
  });
});

describe("a reviewer's rename", () => {
  const rename = (who: Awaited<ReturnType<typeof person>>, name: string) =>
    send("PATCH", `/api/profiles/${who.user.id}`, who.cookie, { name, username: who.user.username.replaceAll("-", "_"), phone: "+91 98765 43210", address: "12 Garden Road" });
  const anonymous = async (path: string) => {
    const response = await shop.app.request(`${TEST_ORIGIN}${path}`);
    return { cache: response.headers.get("x-page-cache") ?? response.headers.get("x-api-cache"), text: await response.text() };
  };

  it("shows the new name at once on the cached product page and the cached reviews JSON of what they reviewed", async () => {
    const plant = await createProduct(shop.app.database.db);
    const asha = await person("Asha Kulkarni");
    expect((await send("PUT", `/api/products/${plant.id}/reviews/mine`, asha.cookie, { text: "Thriving", rating: 5 })).status).toBe(201);
    for (const path of [`/product/${plant.id}`, `/api/products/${plant.id}/reviews`]) {
      expect((await anonymous(path)).text).toContain("Asha Kulkarni");
      expect(await anonymous(path)).toMatchObject({ cache: "hit", text: expect.stringContaining("Asha Kulkarni") });
    }

    expect((await rename(asha, "Asha Rao")).status).toBe(200);

    for (const path of [`/product/${plant.id}`, `/api/products/${plant.id}/reviews`]) {
      const seen = await anonymous(path);
      expect(seen.text).toContain("Asha Rao");
      expect(seen.text).not.toContain("Asha Kulkarni");
    }
  });

  it("drops every cached page when the renamed person reviewed more products than are announced one by one", async () => {
    const ravi = await person("Ravi Menon");
    const plants = [];
    for (let i = 0; i < 101; i++) {
      const plant = await createProduct(shop.app.database.db);
      await shop.app.services.reviews.saveMyReview(ravi.user, plant.id, { text: "Good", rating: 4 });
      plants.push(plant);
    }
    const last = `/product/${plants.at(-1)!.id}`;
    await anonymous(last);
    expect(await anonymous(last)).toMatchObject({ cache: "hit", text: expect.stringContaining("Ravi Menon") });

    expect((await rename(ravi, "Ravi M.")).status).toBe(200);

    const seen = await anonymous(last);
    expect(seen.text).toContain("Ravi M.");
    expect(seen.text).not.toContain("Ravi Menon");
  });
});
