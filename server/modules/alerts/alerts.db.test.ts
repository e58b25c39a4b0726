import { beforeEach, describe, expect, it } from "vitest";
import { messages } from "#common/shared/messages.ts";
import { createProductWithSizes } from "../../../tests/support/factories.ts";
import { composeAnotherCopy, OWNER } from "../../../tests/support/shop-services.ts";
import { checkoutInput, createShopper } from "../../../tests/support/shoppers.ts";
import { useAppWithMail } from "../../../tests/support/app-with-mail.ts";
import { TEST_ORIGIN, type TestApp } from "../../../tests/support/test-app.ts";
import { dialectUnderTest } from "../../../tests/support/test-database.ts";
import { openDatabase, type Database } from "../../platform/db/client.ts";
import type { SessionUser } from "../../platform/session-user.ts";
import { ALERTS_PER_UNIT, createAlertsService, MAX_ALERTS_PER_PERSON, UNCONFIRMED_TTL_MS } from "./index.ts";

// "Notify me when it's back": who waits for a sold-out size, and the mails a restock sends them through the outbox,
// in the restock's own transaction.

// Each test's shop mails a loopback SMTP server of this file's: the links are read from the mails as delivered.
const shop = useAppWithMail();
let app: TestApp;
beforeEach(() => {
  app = shop.app;
});

const SIZES = [
  { label: "Small · 4\" pot", price_paise: 50_000, stock: 4 },
  { label: "Large · 10\" pot", price_paise: 380_000, stock: 0 },
];

const shopper = (overrides: Partial<SessionUser> = {}) => createShopper(app.database.db, app.database.dialect, overrides);

/**
 * The mails of `kind` queued so far, by recipient (one restock queues its mails in one moment, so the outbox's own
 * order says nothing of who waited longest), their text in clear.
 */
async function mails(kind: string) {
  const rows = await app.database.db.selectFrom("mail_outbox").select(["recipient", "subject"]).where("kind", "=", kind).orderBy("recipient").execute();
  return rows.map((row) => ({ to: row.recipient, subject: row.subject }));
}

/** The text of the mail to `to` whose subject has `subject`, as the SMTP server received it. */
const delivered = async (to: string, subject: string) => (await shop.capture.waitFor((mail) => mail.to.includes(to) && mail.subject.includes(subject))).text;

/** The subscribers' addresses in the same order as `mails` answers them. */
const sorted = (emails: string[]) => [...emails].sort();

const linkIn = (text: string, pathname: string) => {
  const found = text.match(new RegExp(`${TEST_ORIGIN}${pathname}\\?token=[A-Za-z0-9_-]+`));
  if (!found) throw new Error(`no ${pathname} link in: ${text}`);
  return new URL(found[0]).searchParams.get("token")!;
};

const waiting = (variantId: string) =>
  app.database.db.selectFrom("stock_alerts").select(["email", "confirmed_at"]).where("variant_id", "=", variantId).orderBy("created_at").orderBy("id").execute();

/** `count` signed-in shoppers subscribed to the size, in this order (each a moment after the one before). */
async function subscribers(variantId: string, count: number) {
  const people: SessionUser[] = [];
  for (let i = 0; i < count; i++) {
    const person = await shopper({ email: `waiting-${i}-${Math.random().toString(36).slice(2)}@example.com` });
    await app.services.alerts.subscribe(person, { variantId }, { clientIp: null });
    // created_at orders the list: make each strictly later than the one before, whatever the clock's resolution.
    await app.database.db
      .updateTable("stock_alerts")
      .set({ created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString() })
      .where("email", "=", person.email.toLowerCase())
      .execute();
    people.push(person);
  }
  return people.map((person) => person.email.toLowerCase());
}

describe("subscribing", () => {
  it("subscribes a signed-in shopper at once, answers a second ask as the first, and sends no confirmation", async () => {
    const { sizeIds } = await createProductWithSizes(app.database.db, SIZES);
    const person = await shopper();
    expect(await app.services.alerts.subscribe(person, { variantId: sizeIds[1] }, { clientIp: "10.0.0.1" })).toEqual({ state: "subscribed" });
    expect(await app.services.alerts.subscribe(person, { variantId: sizeIds[1] }, { clientIp: "10.0.0.1" })).toEqual({ state: "subscribed" });
    expect((await waiting(sizeIds[1]!)).map((row) => [row.email, row.confirmed_at !== null])).toEqual([[person.email.toLowerCase(), true]]);
    expect(await mails("stock-alert-confirmation")).toEqual([]);
  });

  it("mails a visitor a confirmation link, and only its press makes the alert wait", async () => {
    const { product, sizeIds } = await createProductWithSizes(app.database.db, SIZES, { name: "Fiddle Leaf Fig" });
    expect(await app.services.alerts.subscribe(null, { variantId: sizeIds[1], email: "Visitor@Example.com" }, { clientIp: "10.0.0.2" })).toEqual({ state: "confirmationSent" });
    const [confirmation] = await mails("stock-alert-confirmation");
    expect(confirmation).toMatchObject({ to: "visitor@example.com", subject: 'Confirm your back-in-stock alert for Fiddle Leaf Fig (Large · 10" pot)' });
    expect((await waiting(sizeIds[1]!))[0]?.confirmed_at).toBeNull();

    const token = linkIn(await delivered("visitor@example.com", "Confirm"), "/alerts/confirm");
    expect(await app.services.alerts.readConfirmLink({ token })).toEqual({ state: "valid", plant: 'Fiddle Leaf Fig (Large · 10" pot)' });
    expect(await app.services.alerts.confirm({ token })).toEqual({ productId: product.id, variantId: sizeIds[1], plant: 'Fiddle Leaf Fig (Large · 10" pot)' });
    expect((await waiting(sizeIds[1]!))[0]?.confirmed_at).not.toBeNull();
    // The token is stored only as a digest, and used up once followed.
    expect(await app.services.alerts.readConfirmLink({ token })).toEqual({ state: "invalid" });
    await expect(app.services.alerts.confirm({ token })).rejects.toThrow(messages.alerts.linkInvalid);
  });

  it("refuses a size in stock, a size that does not exist, and a visitor without a valid address", async () => {
    const { sizeIds } = await createProductWithSizes(app.database.db, SIZES);
    await expect(app.services.alerts.subscribe(null, { variantId: sizeIds[0], email: "a@example.com" }, { clientIp: "10.0.0.3" })).rejects.toThrow(messages.alerts.inStockNow);
    await expect(app.services.alerts.subscribe(null, { variantId: "no-such-size", email: "a@example.com" }, { clientIp: "10.0.0.3" })).rejects.toMatchObject({ status: 404 });
    await expect(app.services.alerts.subscribe(null, { variantId: sizeIds[1], email: "not an address" }, { clientIp: "10.0.0.3" })).rejects.toMatchObject({
      status: 400,
      fieldErrors: { email: messages.validation.invalidEmail },
    });
    await expect(app.services.alerts.subscribe(null, { variantId: sizeIds[1] }, { clientIp: "10.0.0.3" })).rejects.toMatchObject({ status: 400 });
  });

  it(`holds at most ${MAX_ALERTS_PER_PERSON} waiting alerts per person`, async () => {
    const person = await shopper();
    const sizes = [];
    for (let i = 0; i <= MAX_ALERTS_PER_PERSON; i++) sizes.push((await createProductWithSizes(app.database.db, [{ label: "", price_paise: 10_000, stock: 0 }])).sizeIds[0]!);
    for (const variantId of sizes.slice(0, MAX_ALERTS_PER_PERSON)) await app.services.alerts.subscribe(person, { variantId }, { clientIp: null });
    await expect(app.services.alerts.subscribe(person, { variantId: sizes.at(-1) }, { clientIp: null })).rejects.toThrow(messages.alerts.tooMany(MAX_ALERTS_PER_PERSON));
    // Asking again for one already held is still answered.
    expect(await app.services.alerts.subscribe(person, { variantId: sizes[0] }, { clientIp: null })).toEqual({ state: "subscribed" });
  });

  it("limits the confirmation mails one address can be sent, whatever network asks", async () => {
    const { sizeIds } = await createProductWithSizes(app.database.db, SIZES);
    for (let i = 0; i < 3; i++) await app.services.alerts.subscribe(null, { variantId: sizeIds[1], email: "target@example.com" }, { clientIp: `10.1.0.${i}` });
    await expect(app.services.alerts.subscribe(null, { variantId: sizeIds[1], email: "target@example.com" }, { clientIp: "10.1.0.9" })).rejects.toMatchObject({ status: 429 });
    expect(await mails("stock-alert-confirmation")).toHaveLength(3);
  });
});

describe("forgetting unconfirmed addresses", () => {
  it("forgets an address not confirmed within a week and refuses its link as expired, and keeps the confirmed", async () => {
    const { sizeIds } = await createProductWithSizes(app.database.db, SIZES);
    let clock = Date.now();
    const alerts = createAlertsService(app.database, {
      outbox: app.infrastructure.outbox,
      sealer: app.infrastructure.sealer,
      rateLimiter: app.infrastructure.rateLimiter,
      shopName: "Plant Shop",
      publicUrl: new URL(TEST_ORIGIN),
      now: () => clock,
    });
    await alerts.subscribe(null, { variantId: sizeIds[1], email: "late@example.com" }, { clientIp: "10.2.0.1" });
    await alerts.subscribe(null, { variantId: sizeIds[1], email: "never@example.com" }, { clientIp: "10.2.0.1" });
    const person = await shopper();
    await alerts.subscribe(person, { variantId: sizeIds[1] }, { clientIp: null });
    const late = linkIn(await delivered("late@example.com", "Confirm"), "/alerts/confirm");

    clock += UNCONFIRMED_TTL_MS - 60_000;
    expect(await alerts.forgetUnconfirmed()).toBe(0);
    clock += 120_000;
    expect(await alerts.readConfirmLink({ token: late })).toEqual({ state: "expired" });
    await expect(alerts.confirm({ token: late })).rejects.toThrow(messages.alerts.linkExpired);
    expect(await alerts.forgetUnconfirmed()).toBe(2);
    expect((await waiting(sizeIds[1]!)).map((row) => row.email)).toEqual([person.email.toLowerCase()]);
  });
});

describe("a restock", () => {
  it(`mails at most ${ALERTS_PER_UNIT} subscribers per unit back, oldest first, each with a link to the size and an unsubscribe link, and keeps the rest subscribed`, async () => {
    const { product, sizeIds } = await createProductWithSizes(app.database.db, SIZES, { name: "Monstera" });
    const emails = await subscribers(sizeIds[1]!, 8);
    // An unconfirmed visitor is never mailed the alert.
    await app.services.alerts.subscribe(null, { variantId: sizeIds[1], email: "unconfirmed@example.com" }, { clientIp: "10.3.0.1" });

    await app.services.adminCatalog.setVariantStock(OWNER, { productId: product.id, variantId: sizeIds[1] }, { stock: 2, stockBefore: 0 });
    const sent = await mails("stock-alert");
    expect(sent.map((mail) => mail.to)).toEqual(sorted(emails.slice(0, 2 * ALERTS_PER_UNIT)));
    const first = sent.find((mail) => mail.to === emails[0])!;
    expect(first.subject).toBe('Monstera (Large · 10" pot) is back in stock');
    const text = await delivered(emails[0]!, "is back in stock");
    expect(text).toContain(`${TEST_ORIGIN}/product/${product.id}?variant=${sizeIds[1]}`);
    expect((await waiting(sizeIds[1]!)).map((row) => row.email)).toEqual([...emails.slice(2 * ALERTS_PER_UNIT), "unconfirmed@example.com"]);

    // More stock on a size in stock is no restock; the next sell-out and restock reaches the rest.
    await app.services.adminCatalog.setVariantStock(OWNER, { productId: product.id, variantId: sizeIds[1] }, { stock: 5 });
    expect(await mails("stock-alert")).toHaveLength(2 * ALERTS_PER_UNIT);
    await app.services.adminCatalog.setVariantStock(OWNER, { productId: product.id, variantId: sizeIds[1] }, { stock: 0 });
    await app.services.adminCatalog.setVariantStock(OWNER, { productId: product.id, variantId: sizeIds[1] }, { stock: 10 });
    expect((await mails("stock-alert")).map((mail) => mail.to)).toEqual(sorted(emails));

    // The unsubscribe link stops every alert of its address.
    const other = (await createProductWithSizes(app.database.db, SIZES)).sizeIds[1]!;
    const oldest = await app.database.db.selectFrom("users").select("id").where("email", "=", emails[0]!).executeTakeFirstOrThrow();
    await app.services.alerts.subscribe(await shopperById(oldest.id), { variantId: other }, { clientIp: null });
    const token = linkIn(text, "/alerts/unsubscribe");
    expect(app.services.alerts.unsubscribeAddress({ token })).toBe(emails[0]);
    expect(await app.services.alerts.unsubscribe({ token })).toEqual({ removed: 1 });
    expect(await waiting(other)).toEqual([]);
    expect(() => app.services.alerts.unsubscribeAddress({ token: "forged" })).toThrow(messages.alerts.linkInvalid);
  });

  it("is made by the owner's product form too, and by a cancelled order giving back a sold-out size's units", async () => {
    const { product, sizeIds } = await createProductWithSizes(app.database.db, [{ label: "", price_paise: 90_000, stock: 2 }]);
    const buyer = await shopper();
    await app.services.cart.addToCart(buyer, { productId: product.id, quantity: 2 });
    const order = await app.services.orders.placeOrder(buyer, checkoutInput());
    const emails = await subscribers(sizeIds[0]!, 8);

    await app.services.orders.cancelOrder(buyer, order.id);
    expect((await mails("stock-alert")).map((mail) => mail.to)).toEqual(sorted(emails.slice(0, 2 * ALERTS_PER_UNIT)));

    await app.services.adminCatalog.setStock(OWNER, { productId: product.id }, { stock: 0 });
    const form = await app.services.adminCatalog.getProductForEdit(OWNER, { productId: product.id });
    await app.services.adminCatalog.updateProduct(
      OWNER,
      { productId: product.id },
      { name: form.name, description: form.description, category: form.categoryName, images: [], price: "900", stock: "1", stockBefore: "0" },
    );
    expect((await mails("stock-alert")).map((mail) => mail.to)).toEqual(sorted(emails.slice(0, 2 * ALERTS_PER_UNIT + ALERTS_PER_UNIT)));
  });
});

async function shopperById(id: string): Promise<SessionUser> {
  const row = await app.database.db.selectFrom("users").select(["id", "name", "email", "username"]).where("id", "=", id).executeTakeFirstOrThrow();
  return { id: row.id, name: row.name, email: row.email, username: row.username ?? "", image: null, emailVerified: true, isAdmin: false };
}

describe("a restock from the sizes of the owner's product form", () => {
  it("mails the subscribers of the size whose stock the form brings back, and none of a size it leaves sold out", async () => {
    const { product, sizeIds } = await createProductWithSizes(app.database.db, [...SIZES, { label: "Huge", price_paise: 900_000, stock: 0 }]);
    const large = await subscribers(sizeIds[1]!, 4);
    const huge = await subscribers(sizeIds[2]!, 2);
    const form = await app.services.adminCatalog.getProductForEdit(OWNER, { productId: product.id });
    const variants = form.variants.map((size) => ({
      id: size.id,
      label: size.label,
      sku: size.sku,
      price: String(size.pricePaise / 100),
      stock: String(size.id === sizeIds[1] ? 1 : size.stock),
      stockBefore: String(size.stock),
    }));
    await app.services.adminCatalog.updateProduct(OWNER, { productId: product.id }, { name: form.name, description: form.description, category: form.categoryName, images: [], variants });
    expect((await mails("stock-alert")).map((mail) => mail.to)).toEqual(sorted(large.slice(0, ALERTS_PER_UNIT)));
    expect((await waiting(sizeIds[2]!)).map((row) => row.email)).toEqual(huge);
  });
});

describe("two server copies on one database", () => {
  /**
   * A second copy of the shop's services on the same database: on PostgreSQL with a pool of its own, as another
   * server process would have. SQLite is owned by one process (the data folder's lock), so there the copy shares the
   * connection and its write transactions take turns with the first copy's.
   */
  async function secondCopy() {
    let own: Database | undefined;
    if (dialectUnderTest === "postgres") {
      own = openDatabase({ databaseUrl: app.database.postgresUrl!, poolSize: 10 });
    }
    const copy = await composeAnotherCopy(own ?? app.database, TEST_ORIGIN);
    return {
      services: copy.services,
      async close() {
        await copy.close();
        await own?.destroy();
      },
    };
  }

  it("mails each subscriber once when both copies restock the same sold-out size at the same moment, round after round", async () => {
    const { product, sizeIds } = await createProductWithSizes(app.database.db, SIZES);
    const variantId = sizeIds[1]!;
    const emails = await subscribers(variantId, 40);
    const copy = await secondCopy();
    try {
      const ids = { productId: product.id, variantId };
      for (let round = 1; round <= 4; round++) {
        // Both ask for 2 units with no stock before them: one of them finds 0 and restocks, the other finds 2.
        await Promise.all([app.services.adminCatalog.setVariantStock(OWNER, ids, { stock: 2 }), copy.services.adminCatalog.setVariantStock(OWNER, ids, { stock: 2 })]);
        const sent = (await mails("stock-alert")).map((mail) => mail.to);
        expect(sent).toEqual(sorted(emails.slice(0, round * 2 * ALERTS_PER_UNIT)));
        await app.services.adminCatalog.setVariantStock(OWNER, ids, { stock: 0 });
      }
    } finally {
      await copy.close();
    }
  });

  it("mails at most the factor times the units that came back when a cancellation and the owner's edit race on two copies", async () => {
    const { product, sizeIds } = await createProductWithSizes(app.database.db, [{ label: "", price_paise: 90_000, stock: 1 }]);
    const buyer = await shopper();
    await app.services.cart.addToCart(buyer, { productId: product.id, quantity: 1 });
    const order = await app.services.orders.placeOrder(buyer, checkoutInput());
    const emails = await subscribers(sizeIds[0]!, 12);
    const copy = await secondCopy();
    try {
      await Promise.all([app.services.orders.cancelOrder(buyer, order.id), copy.services.adminCatalog.setStock(OWNER, { productId: product.id }, { stock: 3 })]);
      const sent = (await mails("stock-alert")).map((mail) => mail.to);
      // Whichever came first made the one restock: 1 unit (3 mails) or 3 units (9 mails); never both, never twice.
      expect([ALERTS_PER_UNIT, 3 * ALERTS_PER_UNIT]).toContain(sent.length);
      expect(sent).toEqual(sorted(emails.slice(0, sent.length)));
    } finally {
      await copy.close();
    }
  });
});
