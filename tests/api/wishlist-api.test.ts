import { describe, expect, it } from "vitest";
import { messages } from "#common/shared/messages.ts";
import { createProduct } from "../support/factories.ts";
import { useAppWithPages } from "../support/app-with-pages.ts";
import { insertSessions, SHOP_AUTH_SECRET } from "../support/shop-process.ts";
import { createShopper } from "../support/shoppers.ts";
import { TEST_ORIGIN } from "../support/test-app.ts";

// The wishlist's HTTP contract, and its hearts on pages visitors and signed-in shoppers share (docs/decisions/045):
// each person sees only their own hearts, and no shared or cached render holds anybody's.

const shop = useAppWithPages({ AUTH_SECRET: SHOP_AUTH_SECRET, PAGE_CACHE_SECONDS: "300" });
const SHARED_HIT = "x-shared-page-cache";

/** Names are unique: the tests of this file share one database (and so its caches). */
let count = 0;
const newPlant = (categoryId?: string) => createProduct(shop.app.database.db, { name: `Wished Fern ${++count}`, stock: 5, ...(categoryId ? { category_id: categoryId } : {}) });

async function signedIn() {
  const user = await createShopper(shop.app.database.db, shop.app.database.dialect, { name: `Wisher ${++count}` });
  const [cookie] = await insertSessions(shop.app.database.db, [user.id], SHOP_AUTH_SECRET);
  return { user, cookie: cookie! };
}

const api = (method: string, path: string, cookie?: string) =>
  shop.app.request(`${TEST_ORIGIN}/api/wishlist${path}`, { method, headers: { Origin: TEST_ORIGIN, ...(cookie ? { Cookie: cookie } : {}) } });

async function page(path: string, cookie?: string) {
  const response = await shop.app.request(`${TEST_ORIGIN}${path}`, { headers: cookie ? { Cookie: cookie } : {} });
  return { response, html: await response.text() };
}

const postForm = (fields: Record<string, string>, cookie?: string) =>
  shop.app.request(`${TEST_ORIGIN}/wishlist`, {
    method: "POST",
    headers: { Origin: TEST_ORIGIN, "Content-Type": "application/x-www-form-urlencoded", ...(cookie ? { Cookie: cookie } : {}) },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });

/** How a page's heart for this plant says its state (escaped as React writes an attribute). */
const pressed = (name: string) => `aria-pressed="true" aria-label="${messages.wishlist.remove(name)}"`;
const notPressed = (name: string) => `aria-pressed="false" aria-label="${messages.wishlist.save(name)}"`;
const visitorHeart = (name: string) => `aria-label="${messages.wishlist.logInToSave(name)}"`;

describe("/api/wishlist", () => {
  it("answers 401 to a request without a session, for every route", async () => {
    const plant = await newPlant();
    for (const [method, path] of [["GET", ""], ["PUT", `/${plant.id}`], ["DELETE", `/${plant.id}`]] as const) {
      const response = await api(method, path);
      expect(response.status, `${method} ${path}`).toBe(401);
      expect(await response.json()).toEqual({ message: messages.wishlist.logInFirst });
    }
  });

  it("saves (201, then 200 when saved already), lists with the current price and stock, and removes (200 every time)", async () => {
    const plant = await newPlant();
    const asha = await signedIn();
    expect((await api("PUT", `/${plant.id}`, asha.cookie)).status).toBe(201);
    const again = await api("PUT", `/${plant.id}`, asha.cookie);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ productId: plant.id, saved: true });

    const list = (await (await api("GET", "", asha.cookie)).json()) as { items: Array<{ product: { name: string; stock: number; pricePaise: number }; sizes: number }>; nextCursor: string | null };
    expect(list.items.map((item) => item.product)).toEqual([expect.objectContaining({ name: plant.name, stock: 5, pricePaise: 99_900 })]);
    expect(list.items[0]!.sizes).toBe(1);
    expect(list.nextCursor).toBeNull();

    for (let i = 0; i < 2; i++) {
      const removed = await api("DELETE", `/${plant.id}`, asha.cookie);
      expect(removed.status).toBe(200);
      expect(await removed.json()).toEqual({ productId: plant.id, saved: false });
    }
    expect(((await (await api("GET", "", asha.cookie)).json()) as { items: unknown[] }).items).toEqual([]);
  });

  it("refuses a malformed id or page (400) and a plant that does not exist (404), with a message", async () => {
    const asha = await signedIn();
    const badId = await api("PUT", `/${"x".repeat(65)}`, asha.cookie);
    expect(badId.status).toBe(400);
    expect(await badId.json()).toMatchObject({ message: expect.any(String) });
    const badPage = await api("GET", "?after=yesterday", asha.cookie);
    expect(badPage.status).toBe(400);
    expect(await badPage.json()).toMatchObject({ message: messages.wishlist.notValidPage });
    const badLimit = await api("GET", "?limit=1000", asha.cookie);
    expect(badLimit.status).toBe(400);
    const missing = await api("PUT", "/no-such-plant", asha.cookie);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: messages.product.notFound });
  });

  it("never shows one shopper's list to another", async () => {
    const plant = await newPlant();
    const asha = await signedIn();
    const ravi = await signedIn();
    await api("PUT", `/${plant.id}`, asha.cookie);
    expect(((await (await api("GET", "", ravi.cookie)).json()) as { items: unknown[] }).items).toEqual([]);
    await api("DELETE", `/${plant.id}`, ravi.cookie);
    expect(((await (await api("GET", "", asha.cookie)).json()) as { items: unknown[] }).items).toHaveLength(1);
  });
});

describe("hearts on shared pages", () => {
  it("fills each shopper's own heart into the one product page every shopper shares, and shows a visitor the login heart", async () => {
    const plant = await newPlant();
    const asha = await signedIn();
    const ravi = await signedIn();
    await api("PUT", `/${plant.id}`, asha.cookie);
    const path = `/product/${plant.id}`;

    // Ravi first: his render is the one every shopper shares, hearts marked, nobody's filled in it.
    const ravisFirst = await page(path, ravi.cookie);
    const ashas = await page(path, asha.cookie);
    const ravisSecond = await page(path, ravi.cookie);
    const visitors = await page(path);

    expect(ravisFirst.html).toContain(notPressed(plant.name));
    expect(ravisSecond.response.headers.get(SHARED_HIT)).toBe("hit");
    expect(ravisSecond.html).toContain(notPressed(plant.name));
    expect(ravisSecond.html).not.toContain(pressed(plant.name));
    // Asha gets the same kept render, her heart filled in for her alone.
    expect(ashas.response.headers.get(SHARED_HIT)).toBe("hit");
    expect(ashas.html).toContain(pressed(plant.name));
    expect(ashas.html).not.toContain(notPressed(plant.name));
    expect(ashas.response.headers.get("cache-control")).toBe("private, no-store");
    // The visitor's heart asks them to log in and come back here.
    expect(visitors.html).toContain(visitorHeart(plant.name));
    expect(visitors.html).toContain('action="/login" method="get"');
    expect(visitors.html).toContain(`name="redirectTo" value="${path}"`);
    expect(visitors.html).not.toContain("aria-pressed");
  });

  it("fills only the cards of the plants this shopper saved on a shared grid page, and none on another shopper's or a visitor's", async () => {
    const saved = await newPlant();
    const other = await newPlant(saved.category_id);
    const asha = await signedIn();
    const ravi = await signedIn();
    await api("PUT", `/${saved.id}`, asha.cookie);
    const path = `/category/${saved.category_id}`;
    await page(path, ravi.cookie);
    const ravis = await page(path, ravi.cookie);
    const ashas = await page(path, asha.cookie);
    const visitors = await page(path);

    expect(ravis.response.headers.get(SHARED_HIT)).toBe("hit");
    expect(ravis.html).toContain(notPressed(saved.name));
    expect(ravis.html).toContain(notPressed(other.name));
    expect(ravis.html).not.toContain('aria-pressed="true"');
    expect(ashas.response.headers.get(SHARED_HIT)).toBe("hit");
    expect(ashas.html).toContain(pressed(saved.name));
    expect(ashas.html).toContain(notPressed(other.name));
    expect(visitors.html).toContain(visitorHeart(saved.name));
    expect(visitors.html).not.toContain("aria-pressed");

    // Removed, her heart on the same kept render is empty again.
    await api("DELETE", `/${saved.id}`, asha.cookie);
    const afterRemoving = await page(path, asha.cookie);
    expect(afterRemoving.response.headers.get(SHARED_HIT)).toBe("hit");
    expect(afterRemoving.html).toContain(notPressed(saved.name));
  });

  it("fills a shopper's hearts into a shared page answered before the app, as the app itself filled them", async () => {
    const saved = await newPlant();
    const asha = await signedIn();
    await api("PUT", `/${saved.id}`, asha.cookie);
    const served = await shop.app.listen();
    const path = `${served}/category/${saved.category_id}`;
    const throughApp = await fetch(path, { headers: { Cookie: asha.cookie } });
    const appHtml = await throughApp.text();
    const fromFront = await fetch(path, { headers: { Cookie: asha.cookie } });
    const frontHtml = await fromFront.text();
    expect(fromFront.headers.get(SHARED_HIT)).toBe("hit");
    expect(frontHtml).toContain(pressed(saved.name));
    expect(frontHtml).toBe(appHtml);
  });

  it("saves and removes from a heart's form without JavaScript, sending the browser back to the page it was on", async () => {
    const plant = await newPlant();
    const asha = await signedIn();
    const returnTo = `/product/${plant.id}`;
    const saving = await postForm({ intent: "wishlist-save", productId: plant.id, returnTo }, asha.cookie);
    expect(saving.status).toBe(302);
    expect(saving.headers.get("location")).toBe(returnTo);
    expect(await shop.app.services.wishlist.isSaved(asha.user, plant.id)).toBe(true);
    const removing = await postForm({ intent: "wishlist-remove", productId: plant.id, returnTo: "//evil.example/x" }, asha.cookie);
    expect(removing.headers.get("location")).toBe("/wishlist");
    expect(await shop.app.services.wishlist.isSaved(asha.user, plant.id)).toBe(false);

    // A visitor's post (a session that ended) saves nothing and is sent to log in, then back to the page.
    const visitor = await postForm({ intent: "wishlist-save", productId: plant.id, returnTo });
    expect(visitor.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent(returnTo)}`);
  });
});
