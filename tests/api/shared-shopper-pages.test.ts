import http from "node:http";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { messages } from "#common/shared/messages.ts";
import { createProduct } from "../support/factories.ts";
import { useAppWithPages } from "../support/app-with-pages.ts";
import { insertSessions, SHOP_AUTH_SECRET } from "../support/shop-process.ts";
import { createShopper } from "../support/shoppers.ts";
import { TEST_ORIGIN } from "../support/test-app.ts";

// Signed-in shoppers' catalogue pages from one shared render (docs/decisions/045): each answer carries the asking
// person's parts and nobody else's, exactly as a page rendered for them would; the owner's pages are theirs alone.

// The cache on, and a known secret, so that a test can sign in people it wrote into the database (insertSessions).
const shop = useAppWithPages({ AUTH_SECRET: SHOP_AUTH_SECRET, PAGE_CACHE_SECONDS: "300" });
const SHARED_HIT = "x-shared-page-cache";

/** Names are unique: the tests of this file share one database (and so one cache). */
let count = 0;
const newPlant = () => createProduct(shop.app.database.db, { name: `Shared Fern ${++count}`, stock: 5 });

async function signedIn(overrides: { name?: string; isAdmin?: boolean } = {}) {
  const user = await createShopper(shop.app.database.db, shop.app.database.dialect, { name: `Person ${++count}`, ...overrides });
  const [cookie] = await insertSessions(shop.app.database.db, [user.id], SHOP_AUTH_SECRET);
  return { user, cookie: cookie! };
}

async function get(path: string, cookie?: string) {
  const response = await shop.app.request(`${TEST_ORIGIN}${path}`, { headers: cookie ? { Cookie: cookie } : {} });
  return { response, html: await response.text() };
}

/** The top bar, and the page's main content, as the HTML has them. */
const header = (html: string) => /<header[\s\S]*?<\/header>/.exec(html)?.[0] ?? "no header";
const main = (html: string) => /<main[\s\S]*?<\/main>/.exec(html)?.[0] ?? "no main";
/** A cookie no shared page may ignore: the page is rendered for the person, as before. */
const OTHER_COOKIE = "plant-shop.flash=x";

describe("pages shared by signed-in shoppers", () => {
  it("answers two shoppers from one render, each with only their own name, profile link and cart count, and a visitor with none", async () => {
    const plant = await newPlant();
    const asha = await signedIn({ name: "Asha Shared" });
    const ravi = await signedIn({ name: "Ravi Shared" });
    await shop.app.services.cart.addToCart(asha.user, { productId: plant.id, quantity: 2 });

    const first = await get("/shop", asha.cookie);
    const second = await get("/shop", ravi.cookie);
    const visitor = await get("/shop");

    expect(first.response.headers.get(SHARED_HIT)).toBeNull();
    expect(second.response.headers.get(SHARED_HIT)).toBe("hit");
    for (const { response } of [first, second]) expect(response.headers.get("cache-control")).toBe("private, no-store");

    expect(first.html).toContain(`href="/profile/${asha.user.id}"`);
    expect(first.html).toContain('title="Asha Shared"');
    expect(first.html).toContain('aria-label="Cart, 2 items"');
    expect(first.html).not.toContain("Ravi Shared");
    expect(first.html).not.toContain(ravi.user.id);

    expect(second.html).toContain(`href="/profile/${ravi.user.id}"`);
    expect(second.html).toContain('title="Ravi Shared"');
    expect(second.html).toContain('aria-label="Cart"');
    expect(second.html).not.toContain("Asha Shared");
    expect(second.html).not.toContain(asha.user.id);

    for (const person of [asha, ravi]) {
      expect(visitor.html).not.toContain(person.user.name);
      expect(visitor.html).not.toContain(person.user.id);
    }
    expect(visitor.html).toContain(">Login");
    expect(visitor.html).not.toContain("personal-data");
  });

  it("sends each part, the saved plant's heart among them, and the data the browser hydrates them from, exactly as a page rendered for the person has them", async () => {
    const plant = await newPlant();
    const person = await signedIn({ name: `O'Brien <Shared> & Co` });
    await shop.app.services.cart.addToCart(person.user, { productId: plant.id });
    await shop.app.services.wishlist.save(person.user, plant.id);
    for (const path of ["/", "/shop?q=fern", `/product/${plant.id}`, `/category/${plant.category_id}`]) {
      await get(path, person.cookie);
      const shared = await get(path, person.cookie);
      const ownRender = await get(path, `${person.cookie}; ${OTHER_COOKIE}`);
      expect(shared.response.headers.get(SHARED_HIT), path).toBe("hit");
      expect(ownRender.response.headers.get(SHARED_HIT), path).toBeNull();
      expect(header(shared.html), path).toBe(header(ownRender.html));
      expect(main(shared.html), path).toBe(main(ownRender.html));
      expect(shared.html).toContain('title="O&#x27;Brien &lt;Shared&gt; &amp; Co"');
      const data = /<script type="application\/json" id="personal-data">([^<]*)<\/script>/.exec(shared.html)?.[1];
      expect(JSON.parse(data ?? "null")).toEqual({
        user: { id: person.user.id, name: person.user.name, isAdmin: false, avatarUrl: `/avatars/initials.svg?name=${encodeURIComponent(person.user.name)}` },
        cartCount: 1,
        saved: [plant.id],
      });
      expect(shared.html, path).toContain(`aria-pressed="true" aria-label="${messages.wishlist.remove(plant.name)}"`);
    }
  });

  it("shows a cart change on the shopper's next page while the shared page stays cached", async () => {
    const plant = await newPlant();
    const person = await signedIn();
    await get("/shop", person.cookie);
    await shop.app.services.cart.addToCart(person.user, { productId: plant.id, quantity: 3 });
    const after = await get("/shop", person.cookie);
    expect(after.response.headers.get(SHARED_HIT)).toBe("hit");
    expect(after.html).toContain('aria-label="Cart, 3 items"');
  });

  it("renders the owner's pages for the owner every time and keeps none of them", async () => {
    const owner = await signedIn({ isAdmin: true });
    const shopper = await signedIn();
    await get("/shop", shopper.cookie);
    const first = await get("/shop", owner.cookie);
    const second = await get("/shop", owner.cookie);
    for (const { response, html } of [first, second]) {
      expect(response.headers.get(SHARED_HIT)).toBeNull();
      expect(html).toContain('href="/admin"');
      expect(html).not.toContain("personal-data");
      expect(html).not.toContain(shopper.user.id);
    }
    const again = await get("/shop", shopper.cookie);
    expect(again.response.headers.get(SHARED_HIT)).toBe("hit");
    expect(again.html).not.toContain('href="/admin"');
    expect(again.html).not.toContain(owner.user.id);
  });

  it("renders a product page for a shopper who reviewed the product, with their review in the form, and keeps it from the others", async () => {
    const plant = await newPlant();
    const reviewer = await signedIn();
    const other = await signedIn();
    await shop.app.services.reviews.saveMyReview(reviewer.user, plant.id, { text: "Grew two new fronds in a week.", rating: 5 });
    await get(`/product/${plant.id}`, other.cookie);
    const mine = await get(`/product/${plant.id}`, reviewer.cookie);
    expect(mine.response.headers.get(SHARED_HIT)).toBeNull();
    expect(mine.html).not.toContain("personal-data");
    expect(mine.html).toMatch(/<textarea[^>]*>Grew two new fronds in a week\.<\/textarea>/);
    const theirs = await get(`/product/${plant.id}`, other.cookie);
    expect(theirs.response.headers.get(SHARED_HIT)).toBe("hit");
    expect(theirs.html).not.toMatch(/<textarea[^>]*>Grew two new fronds/);
  });

  it("renders a page for the person when the request carries a cookie the page reads (a flash), and keeps it from the others", async () => {
    const person = await signedIn();
    const other = await signedIn();
    const withFlash = await get("/", `${person.cookie}; ${OTHER_COOKIE}`);
    expect(withFlash.response.headers.get(SHARED_HIT)).toBeNull();
    expect(withFlash.html).not.toContain("personal-data");
    const shared = await get("/", other.cookie);
    expect(shared.html).not.toContain(person.user.id);
  });

  it("answers a kept shared page from the server's front with the headers and bytes the app sent for the person, and a request id of its own", async () => {
    const plant = await newPlant();
    const person = await signedIn({ name: "Front Door" });
    await shop.app.services.cart.addToCart(person.user, { productId: plant.id });
    const served = await shop.app.listen();
    // The first request goes through the app, which renders and keeps the page with the headers it sent.
    const first = await fetch(`${served}/shop`, { headers: { Cookie: person.cookie } });
    const firstHtml = await first.text();
    const front = await fetch(`${served}/shop`, { headers: { Cookie: person.cookie } });
    const html = await front.text();
    expect(first.headers.get(SHARED_HIT)).toBeNull();
    expect(front.headers.get(SHARED_HIT)).toBe("hit");
    const sent = (response: Response) => [...response.headers].filter(([name]) => !/^(x-request-id|date|x-shared-page-cache|content-length|transfer-encoding)$/.test(name));
    expect(sent(front)).toEqual(sent(first));
    expect(front.headers.get("cache-control")).toBe("private, no-store");
    expect(front.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
    expect(html).toBe(firstHtml);
    expect(html).toContain('aria-label="Cart, 1 item"');
    expect(html).toContain('title="Front Door"');
  });

  it("answers a kept shared page from the front in gzip spliced from the kept pieces, in brotli to a client taking only brotli, each decoding to the person's page", async () => {
    const plant = await newPlant();
    const person = await signedIn({ name: "Spliced Gzip" });
    await shop.app.services.cart.addToCart(person.user, { productId: plant.id, quantity: 3 });
    const served = await shop.app.listen();
    /** The raw answer, undecoded (fetch would decode it and choose the Accept-Encoding itself). */
    const raw = (acceptEncoding: string) =>
      new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http
          .get(`${served}/shop`, { headers: { Cookie: person.cookie, "Accept-Encoding": acceptEncoding } }, (response) => {
            const chunks: Buffer[] = [];
            response.on("data", (chunk: Buffer) => chunks.push(chunk));
            response.on("end", () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
          })
          .on("error", reject);
      });
    const plain = await raw("identity"); // through the app: renders and keeps the shared page
    const again = await raw("identity");
    const gzip = await raw("gzip, deflate, br, zstd");
    const brotli = await raw("br");
    expect(again.headers[SHARED_HIT]).toBe("hit");
    expect(again.headers["content-encoding"]).toBeUndefined();
    expect(gzip.headers[SHARED_HIT]).toBe("hit");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(Number(gzip.headers["content-length"])).toBe(gzip.body.byteLength);
    expect(gzip.body.byteLength).toBeLessThan(again.body.byteLength / 2);
    expect(zlib.gunzipSync(gzip.body).toString()).toBe(again.body.toString());
    expect(brotli.headers["content-encoding"]).toBe("br");
    expect(zlib.brotliDecompressSync(brotli.body).toString()).toBe(again.body.toString());
    expect(again.body.toString()).toBe(plain.body.toString());
    expect(again.body.toString()).toContain('aria-label="Cart, 3 items"');
    expect(again.body.toString()).toContain('title="Spliced Gzip"');
  });

  it("leaves a session due to slide to the app, which slides it and still answers from the shared render", async () => {
    const person = await signedIn();
    const served = await shop.app.listen();
    await fetch(`${served}/`, { headers: { Cookie: person.cookie } });
    // Five days of its seven idle ones left: Better Auth's daily slide is due.
    const fiveDays = new Date(Date.now() + 5 * 24 * 60 * 60 * 1000).toISOString();
    await shop.app.database.db.updateTable("sessions").set({ expiresAt: fiveDays }).where("userId", "=", person.user.id).execute();
    const slid = await fetch(`${served}/`, { headers: { Cookie: person.cookie } });
    expect(slid.headers.getSetCookie().some((cookie) => cookie.startsWith("plant-shop.session_token="))).toBe(true);
    expect(slid.headers.get(SHARED_HIT)).toBe("hit");
    expect(await slid.text()).toContain(`href="/profile/${person.user.id}"`);
  });

  it("gives a signed-out session the visitor's page and ends its cookie, also when the shared page is kept", async () => {
    const person = await signedIn();
    const served = await shop.app.listen();
    await fetch(`${served}/shop`, { headers: { Cookie: person.cookie } });
    await shop.app.database.db.deleteFrom("sessions").where("userId", "=", person.user.id).execute();
    const after = await fetch(`${served}/shop`, { headers: { Cookie: person.cookie } });
    const html = await after.text();
    expect(after.headers.get(SHARED_HIT)).toBeNull();
    expect(html).toContain(">Login");
    expect(html).not.toContain(person.user.id);
    expect(after.headers.getSetCookie().some((cookie) => /^plant-shop\.session_token=;.*Max-Age=0/i.test(cookie))).toBe(true);
  });
});
