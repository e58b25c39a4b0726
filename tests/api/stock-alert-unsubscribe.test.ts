import { describe, expect, it } from "vitest";
import { messages } from "../../common/shared/messages.ts";
import { useAppWithPages } from "../support/app-with-pages.ts";
import { createProductWithSizes } from "../support/factories.ts";
import { OWNER } from "../support/shop-services.ts";
import { createShopper } from "../support/shoppers.ts";
import { extractLinks, type CapturedMail } from "../support/smtp-capture.ts";

// The back-in-stock mail's one-click unsubscribe: the List-Unsubscribe and List-Unsubscribe-Post headers of the mail
// as the SMTP server receives it, and the link they name answering a mail program's POST (RFC 8058) as a mail
// provider sends it, from its own servers, while a GET of it only shows the page's button. The shop runs on https,
// as RFC 8058 wants of the link.

const SHOP = "https://plants.example";
const shop = useAppWithPages({ PUBLIC_URL: SHOP }, { mail: true });
const am = messages.alerts;

const SIZES = [
  { label: "Small", price_paise: 50_000, stock: 3 },
  { label: "Medium", price_paise: 150_000, stock: 0 },
  { label: "Large", price_paise: 380_000, stock: 0 },
];

/** Text as React writes it into the page's HTML. */
const inHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/'/g, "&#x27;").replace(/"/g, "&quot;");

/** The addresses waiting for `variantId`, sorted. */
const waitingFor = async (variantId: string) =>
  (await shop.app.database.db.selectFrom("stock_alerts").select("email").where("variant_id", "=", variantId).execute()).map((row) => row.email).sort();

/** Whom the restocks of `variantId` have mailed so far, sorted: the outbox's rows, queued in the restock's own transaction. */
const mailedFor = async (variantId: string) =>
  (await shop.app.database.db.selectFrom("mail_outbox").select("recipient").where("kind", "=", "stock-alert").where("reference", "=", variantId).execute()).map((row) => row.recipient).sort();

const restock = (productId: string, variantId: string) => shop.app.services.adminCatalog.setVariantStock(OWNER, { productId, variantId }, { stock: 1, stockBefore: 0 });

/**
 * A shopper waiting for the medium and the large size of a plant, and another for the large one; the medium size
 * restocked: the first shopper's back-in-stock mail as delivered, its body's unsubscribe link, and the large size.
 */
async function restockMail() {
  const { db, dialect } = shop.app.database;
  const { product, sizeIds } = await createProductWithSizes(db, SIZES, { name: `Calathea ${Math.random().toString(36).slice(2)}` });
  const [, medium, large] = sizeIds as [string, string, string];
  const asha = await createShopper(db, dialect);
  const ravi = await createShopper(db, dialect);
  for (const variantId of [medium, large]) await shop.app.services.alerts.subscribe(asha, { variantId }, { clientIp: null });
  await shop.app.services.alerts.subscribe(ravi, { variantId: large }, { clientIp: null });
  await restock(product.id, medium);
  const mail: CapturedMail = await shop.capture.waitFor((m) => m.to.includes(asha.email) && m.subject.endsWith("is back in stock"));
  const bodyLinks = extractLinks(mail.text).filter((link) => new URL(link).pathname === "/alerts/unsubscribe");
  expect(new Set(bodyLinks).size).toBe(1);
  return { mail, link: bodyLinks[0]!, productId: product.id, large, asha: asha.email, ravi: ravi.email };
}

/** The POST a mail provider sends to the link of the List-Unsubscribe header: its body only, no cookie, no origin. */
const oneClick = (link: string, headers: Record<string, string> = {}) =>
  shop.app.request(link, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers }, body: "List-Unsubscribe=One-Click" });

describe("the back-in-stock mail's headers", () => {
  it("name the body's unsubscribe link, token and all, as an https List-Unsubscribe offered for one click", async () => {
    const { mail, link } = await restockMail();
    expect(link).toMatch(new RegExp(`^${SHOP}/alerts/unsubscribe\\?token=[A-Za-z0-9_-]+$`));
    expect(mail.headers["list-unsubscribe"]).toBe(`<${link}>`);
    expect(mail.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
  });

  it("are not on the confirmation mail a visitor's ask sends: there is no alert yet to stop", async () => {
    const { sizeIds } = await createProductWithSizes(shop.app.database.db, SIZES);
    await shop.app.services.alerts.subscribe(null, { variantId: sizeIds[1], email: "asking.visitor@example.com" }, { clientIp: "10.9.0.1" });
    const mail = await shop.capture.waitFor((m) => m.to.includes("asking.visitor@example.com") && m.subject.startsWith("Confirm your back-in-stock alert"));
    expect(mail.headers["list-unsubscribe"]).toBeUndefined();
    expect(mail.headers["list-unsubscribe-post"]).toBeUndefined();
  });
});

describe("the one-click unsubscribe link", () => {
  it("takes a POST of List-Unsubscribe=One-Click with no cookie and no origin: 200, and the next restock mails nobody for the address", async () => {
    const { link, productId, large, asha, ravi } = await restockMail();
    const answer = await oneClick(link);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe(am.unsubscribed);
    // Every alert of the address is gone, the other shopper's stays.
    expect(await waitingFor(large)).toEqual([ravi]);

    await restock(productId, large);
    expect(await mailedFor(large)).toEqual([ravi]);
    expect(await mailedFor(large)).not.toContain(asha);
    // Following the link again changes nothing and still answers 200: a provider may retry.
    expect((await oneClick(link)).status).toBe(200);
  });

  it("takes it from a webmail's page as well, naming another origin, cross-site, while such a POST to any other page is still refused", async () => {
    const { link, large, ravi } = await restockMail();
    const crossSite = { Origin: "https://webmail.example", "Sec-Fetch-Site": "cross-site" };
    expect((await oneClick(link, crossSite)).status).toBe(200);
    expect(await waitingFor(large)).toEqual([ravi]);

    // The exception is the link alone: the page's own form (its token in the body) and any other page stay same-origin only.
    const pageForm = await shop.app.request(`${SHOP}/alerts/unsubscribe`, {
      method: "POST",
      headers: { ...crossSite, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: new URL(link).searchParams.get("token")! }).toString(),
    });
    expect(pageForm.status).toBe(403);
    expect((await oneClick(`${SHOP}/alerts/confirm?token=${new URL(link).searchParams.get("token")}`, crossSite)).status).toBe(403);
  });

  it("only shows the page's button on a GET (a link scanner's) and unsubscribes nobody", async () => {
    const { link, large, asha, ravi } = await restockMail();
    const page = await shop.app.request(link);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(inHtml(am.unsubscribeIntro(asha)));
    expect(html).toContain(`>${am.unsubscribe}<`);
    // The button posts its token in the form to the bare path, which goes on to the page's action.
    expect(html).toContain(`action="/alerts/unsubscribe"`);
    expect(await waitingFor(large)).toEqual([asha, ravi].sort());
  });

  it("answers a made-up or altered token 404 with its message and an empty one 400, and unsubscribes nobody", async () => {
    const { link, large, asha, ravi } = await restockMail();
    const token = new URL(link).searchParams.get("token")!;
    const altered = `${token.slice(0, 20)}${token[20] === "A" ? "B" : "A"}${token.slice(21)}`;
    for (const forged of ["made-up", altered]) {
      const answer = await oneClick(`${SHOP}/alerts/unsubscribe?token=${forged}`);
      expect(answer.status).toBe(404);
      expect(((await answer.json()) as { message: string }).message).toBe(am.linkInvalid);
    }
    expect((await oneClick(`${SHOP}/alerts/unsubscribe?token=`)).status).toBe(400);
    expect(await waitingFor(large)).toEqual([asha, ravi].sort());
  });
});
