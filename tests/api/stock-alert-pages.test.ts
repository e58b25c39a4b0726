import { describe, expect, it } from "vitest";
import { messages } from "../../common/shared/messages.ts";
import { useAppWithPages } from "../support/app-with-pages.ts";
import { createProduct } from "../support/factories.ts";
import { TEST_ORIGIN } from "../support/test-app.ts";

// "Notify me when it's back" as the pages take it (a form post, working without JavaScript), and the pages a mail's
// links lead to: every input checked, a form that cannot mail strangers in bulk, and links that do nothing on a GET.

const shop = useAppWithPages({ PAGE_CACHE_SECONDS: "60" });
const am = messages.alerts;

let plants = 0;
const soldOutPlant = () => createProduct(shop.app.database.db, { name: `Awaited Fern ${++plants}`, stock: 0 });

const get = (path: string) => shop.app.request(`${TEST_ORIGIN}${path}`);

/** The product page's alert form as a browser without JavaScript sends it. */
const ask = (productId: string, fields: Record<string, string>) =>
  shop.app.request(`${TEST_ORIGIN}/product/${productId}`, {
    method: "POST",
    headers: { Origin: TEST_ORIGIN, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent: "stock-alert", ...fields }).toString(),
  });

/** Text as React writes it into the page's HTML. */
const inHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/'/g, "&#x27;").replace(/"/g, "&quot;");

describe("the product page's alert form", () => {
  it("shows 'Notify me when it's back' on a sold-out plant's shared page, and not on one in stock", async () => {
    const out = await soldOutPlant();
    const html = await (await get(`/product/${out.id}`)).text();
    expect(html).toContain(inHtml(am.notifyMe));
    expect(html).toContain(`name="email"`);
    const inStock = await createProduct(shop.app.database.db, { name: "Plenty Palm", stock: 4 });
    expect(await (await get(`/product/${inStock.id}`)).text()).not.toContain(inHtml(am.notifyMe));
  });

  it("asks a visitor to check their inbox, and refuses a bad address, a size in stock and an unknown size with their messages", async () => {
    const plant = await soldOutPlant();
    const asked = await ask(plant.id, { variantId: plant.id, email: "fern-lover@example.com" });
    expect(asked.status).toBe(200);
    expect(await asked.text()).toContain(inHtml(am.checkInbox));

    const bad = await ask(plant.id, { variantId: plant.id, email: "not-an-address" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain(inHtml(messages.validation.invalidEmail));

    const inStock = await createProduct(shop.app.database.db, { name: "Stocked Fern", stock: 2 });
    const refused = await ask(inStock.id, { variantId: inStock.id, email: "fern-lover@example.com" });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain(inHtml(am.inStockNow));

    expect((await ask(plant.id, { variantId: "no-such-size", email: "fern-lover@example.com" })).status).toBe(404);
    expect((await ask(plant.id, { variantId: "bad id!", email: "fern-lover@example.com" })).status).toBe(400);
  });

});

describe("the pages of the mails' links", () => {
  it("says an unknown confirmation link is not valid, and a forged unsubscribe link too", async () => {
    expect(await (await get("/alerts/confirm?token=made-up")).text()).toContain(inHtml(am.linkInvalid));
    expect(await (await get("/alerts/confirm")).text()).toContain(inHtml(am.linkInvalid));
    expect(await (await get("/alerts/unsubscribe?token=made-up")).text()).toContain(inHtml(am.linkInvalid));
  });

  it("confirms nothing when a confirmation link is only opened (a mail scanner): its button does", async () => {
    const plant = await soldOutPlant();
    await ask(plant.id, { variantId: plant.id, email: "scanned@example.com" });
    const row = () => shop.app.database.db.selectFrom("stock_alerts").select("confirmed_at").where("email", "=", "scanned@example.com").executeTakeFirstOrThrow();
    // The token is only in the mail; the page's GET is the same for any token, so a made-up one stands for it here.
    await get("/alerts/confirm?token=anything");
    expect((await row()).confirmed_at).toBeNull();
  });
});

describe("the form's limit", () => {
  // In-process requests have no network address of their own: every ask of this file counts against one.
  it("answers 429 with its message once one network address has asked ten times within ten minutes, whatever the addresses typed, so it never sends more than ten confirmations", async () => {
    const plant = await soldOutPlant();
    let answer: Response | undefined;
    for (let i = 0; i <= 10; i++) {
      answer = await ask(plant.id, { variantId: plant.id, email: `stranger-${i}@example.com` });
      if (answer.status !== 200) break;
    }
    expect(answer!.status).toBe(429);
    expect(await answer!.text()).toContain(inHtml(am.tooManyRequests));
    const mailed = await shop.app.database.db.selectFrom("mail_outbox").select("id").where("kind", "=", "stock-alert-confirmation").execute();
    // Asks refused after they were counted (a size in stock, an unknown size) sent nothing: fewer mails than asks.
    expect(mailed.length).toBeGreaterThan(0);
    expect(mailed.length).toBeLessThanOrEqual(10);
  });
});
