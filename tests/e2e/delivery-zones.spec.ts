import { randomUUID } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { messages } from "../../common/shared/messages.ts";
import { formatPriceExact } from "../../common/shared/money.ts";
import { createProduct } from "../support/factories.ts";
import { allowStatusLogs, expect, test } from "./support/fixtures.ts";
import { signedInShopper } from "./support/live.ts";
import { ADMIN, hydrated, logIn, urlIs } from "./support/pages.ts";
import { addToCart, fillShipping } from "./support/shopper.ts";

// Delivery by PIN code (docs/decisions/053): the owner defines zones in /admin/delivery; the product page's
// 'Check delivery' answers with the zone's fee, Cash on Delivery and the day it arrives by (counted on dispatch days on
// the shop's clock, moved through TEST_CLOCK_FILE as in sale.spec.ts); the checkout charges the PIN code's zone and
// refuses Cash on Delivery above its limit. The zones are removed after each test: the other specs order with the
// shop's default shipping, which holds only while no zone exists.

const m = messages.delivery;
const origin = () => `http://127.0.0.1:${process.env.E2E_PORT}`;
const authSecret = () => readFileSync(path.join(process.env.E2E_DATA_DIR!, "auth-secret"), "utf8").trim();
const clockFile = path.join(process.env.E2E_DATA_DIR!, "test-clock");
/** 10:00 in India on Monday 3 June 2030. */
const setMondayMorning = () => writeFileSync(clockFile, "2030-06-03T04:30:00.000Z");

test.afterEach(async ({ shopDb }) => {
  rmSync(clockFile, { force: true });
  await shopDb.db.deleteFrom("delivery_zones").execute();
  await shopDb.db.deleteFrom("delivery_holidays").execute();
  await shopDb.db.deleteFrom("delivery_closed_weekdays").execute();
});

/** On /admin/delivery: fills the new-zone form and creates the zone. */
async function createZone(page: Page, zone: { name: string; areas: string; fee: string; daysMin: string; daysMax: string; codLimit?: string }) {
  const form = page.getByRole("form", { name: "New zone" });
  await form.getByLabel("Name").fill(zone.name);
  await form.getByLabel(/^PIN codes/).fill(zone.areas);
  await form.getByLabel("Shipping fee (Rs.)").fill(zone.fee);
  await form.getByLabel("Fewest days to deliver").fill(zone.daysMin);
  await form.getByLabel("Most days to deliver").fill(zone.daysMax);
  if (zone.codLimit) await form.getByLabel("Cash on Delivery up to (Rs., optional)").fill(zone.codLimit);
  await form.getByRole("button", { name: "Create zone" }).click();
  await expect(page.getByRole("status").filter({ hasText: m.created(zone.name) })).toBeVisible();
}

/** The owner's two zones: Bengaluru (prefix 560, Rs. 20, 2–3 days) inside Karnataka (56–59, Rs. 80, COD up to Rs. 2,000). */
async function ownerMakesZones(page: Page) {
  await logIn(page, ADMIN);
  await page.goto("/admin");
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Delivery" }).click();
  await expect(page).toHaveURL(urlIs("/admin/delivery"));
  await expect(page.getByRole("heading", { level: 1, name: m.heading })).toBeVisible();
  await createZone(page, { name: "Bengaluru", areas: "560", fee: "20", daysMin: "2", daysMax: "3" });
  await createZone(page, { name: "Karnataka", areas: "560000-599999", fee: "80", daysMin: "3", daysMax: "5", codLimit: "2000" });
  await expect(page.getByRole("row", { name: "Bengaluru" })).toContainText("Rs. 20.00 · 2–3 days · Cash on Delivery");
  await expect(page.getByRole("row", { name: "Karnataka" })).toContainText("Cash on Delivery up to Rs. 2,000.00");
}

/** The product page's check: types the PIN code, presses Check, answers the text shown. */
async function checkDelivery(page: Page, pin: string) {
  const box = page.getByRole("form", { name: m.checkHeading });
  await box.getByLabel(m.pinLabel).fill(pin);
  await box.getByRole("button", { name: m.check }).click();
}

test("the owner makes zones; the product page answers for a PIN code inline and without JavaScript, and a holiday moves the day", async ({ page, browser, shopDb, consoleErrors }) => {
  test.setTimeout(60_000);
  setMondayMorning();
  const plant = await createProduct(shopDb.db, { name: `Zone Fern ${randomUUID().slice(0, 8)}`, price_paise: 45_000, stock: 5 });
  await ownerMakesZones(page);

  // A bad entry is refused, named.
  const form = page.getByRole("form", { name: "New zone" });
  await form.getByLabel("Name").fill("Typo");
  await form.getByLabel(/^PIN codes/).fill("560, 56A");
  await form.getByLabel("Shipping fee (Rs.)").fill("20");
  await form.getByRole("button", { name: "Create zone" }).click();
  await expect(page.getByRole("form", { name: "New zone" }).getByLabel(/^PIN codes/)).toHaveAccessibleDescription(m.areaInvalid("56A"));
  allowStatusLogs(consoleErrors, 400);

  // With JavaScript: answered on the page, which stays.
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(`/product/${plant.id}`);
  await hydrated(visitor.getByRole("form", { name: m.checkHeading }).getByRole("button", { name: m.check }));
  const answer = visitor.getByTestId("delivery-answer");
  await checkDelivery(visitor, "560001");
  await expect(answer).toHaveText("Delivers to 560001 by Thu, 6 Jun · Shipping Rs. 20.00 · Cash on Delivery available");
  await checkDelivery(visitor, "580001");
  await expect(answer).toHaveText("Delivers to 580001 by Sat, 8 Jun · Shipping Rs. 80.00 · Cash on Delivery up to Rs. 2,000.00");
  await checkDelivery(visitor, "799001");
  await expect(answer).toHaveText(m.notDelivered("799001"));
  await checkDelivery(visitor, "05600");
  await expect(visitor.getByRole("form", { name: m.checkHeading }).getByLabel(m.pinLabel)).toHaveAccessibleDescription(m.pinInvalid);
  await expect(visitor).toHaveURL(urlIs(`/product/${plant.id}`));

  // Wednesday 5 June a holiday: three dispatch days from Monday end on Friday.
  await page.getByLabel("Holidays (dates like 2026-12-25, one a line)").fill("2030-06-05");
  await page.getByRole("button", { name: "Save dispatch days" }).click();
  await expect(page.getByRole("status").filter({ hasText: m.daysSaved })).toBeVisible();
  await checkDelivery(visitor, "560001");
  await expect(answer).toHaveText("Delivers to 560001 by Fri, 7 Jun · Shipping Rs. 20.00 · Cash on Delivery available");

  // Without JavaScript: the same form leads to the answer as a page, with the way back to the plant.
  const plain = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
  await plain.goto(`/product/${plant.id}`);
  await checkDelivery(plain, "580001");
  await expect(plain).toHaveURL(/\/delivery-check\?/);
  await expect(plain.getByTestId("delivery-answer")).toHaveText("Delivers to 580001 by Sun, 9 Jun · Shipping Rs. 80.00 · Cash on Delivery up to Rs. 2,000.00");
  await checkDelivery(plain, "799001");
  await expect(plain.getByTestId("delivery-answer")).toHaveText(m.notDelivered("799001"));
  await plain.getByRole("link", { name: m.backToPlant("the plant") }).click();
  await expect(plain).toHaveURL(urlIs(`/product/${plant.id}`));
});

test("checkout charges the PIN code's zone, says where it does not deliver, and refuses Cash on Delivery over the zone's limit before Place Order and at the server, offering UPI instead", async ({ page, browser, shopDb }) => {
  test.setTimeout(60_000);
  await ownerMakesZones(page);
  const plant = await createProduct(shopDb.db, { name: `Zone Palm ${randomUUID().slice(0, 8)}`, price_paise: 150_000, stock: 5 });
  const shopper = await (await browser.newContext()).newPage();
  await signedInShopper(shopper.context(), shopDb, origin(), authSecret(), { name: "Asha Kulkarni" });

  // The PIN code checked on the product page is the checkout's.
  await shopper.goto(`/product/${plant.id}`);
  await hydrated(shopper.getByRole("form", { name: m.checkHeading }).getByRole("button", { name: m.check }));
  await checkDelivery(shopper, "580001");
  await expect(shopper.getByTestId("delivery-answer")).toContainText("Shipping Rs. 80.00");
  await addToCart(shopper, plant.id, 1);
  await addToCart(shopper, plant.id, 2);
  await shopper.goto("/checkout");
  await expect(shopper.getByLabel(m.pinLabel)).toHaveValue("580001");
  const summary = shopper.getByRole("region", { name: "Order summary" });
  await expect(summary.getByRole("definition")).toHaveText([formatPriceExact(300_000), formatPriceExact(8_000), formatPriceExact(308_000)]);
  await expect(shopper.getByTestId("checkout-delivery")).toContainText("Cash on Delivery up to Rs. 2,000.00");
  // Over the zone's Cash on Delivery limit: said before Place Order, and UPI (the e2e shop takes it) offered instead.
  const overLimit = messages.checkout.payByUpiInstead(m.codOverLimit("Rs. 2,000.00"));
  await expect(shopper.getByTestId("cod-refusal")).toHaveText(overLimit);
  await expect(shopper.getByRole("radio", { name: messages.checkout.paymentCod })).toBeDisabled();
  await expect(shopper.getByRole("radio", { name: messages.checkout.paymentUpi })).toBeChecked();

  // Outside every zone: said at the PIN code, before Place Order.
  await fillShipping(shopper, { phone: "+91 98450 12345", address: "1 Hill Road, Aizawl", pin: "799001" });
  await expect(shopper.getByLabel(m.pinLabel)).toHaveAccessibleDescription(m.notDelivered("799001"));

  // Over the Cash on Delivery limit and sent as Cash on Delivery all the same (a page from before the owner lowered the
  // limit): the server refuses, saying why and offering UPI; nothing is ordered.
  await fillShipping(shopper, { phone: "+91 98450 12345", address: "2 Market Road, Hubballi", pin: "580001" });
  const cod = shopper.getByRole("radio", { name: messages.checkout.paymentCod });
  await expect(cod).toBeDisabled();
  await cod.evaluate((radio: HTMLInputElement) => {
    radio.disabled = false;
    radio.checked = true;
  });
  await shopper.getByRole("button", { name: messages.checkout.placeOrder }).click();
  await expect(shopper.getByRole("alert").filter({ hasText: overLimit })).toBeVisible();
  await expect(shopper).toHaveURL(/\/checkout/);
  await expect.poll(async () => (await shopDb.db.selectFrom("orders").select("id").where("ship_pin", "=", "580001").execute()).length).toBe(0);

  // In Bengaluru: Rs. 20 shipping, Cash on Delivery without limit; the order is placed with its PIN code.
  await fillShipping(shopper, { phone: "+91 98450 12345", address: "14 Lalbagh Road, Bengaluru", pin: "560004" });
  await expect(summary.getByRole("definition")).toHaveText([formatPriceExact(300_000), formatPriceExact(2_000), formatPriceExact(302_000)]);
  await expect(shopper.getByTestId("cod-refusal")).toHaveCount(0);
  await shopper.getByRole("button", { name: messages.checkout.placeOrder }).click();
  await expect(shopper).toHaveURL(/\/orders\/[\w-]+$/);
  const orderId = new URL(shopper.url()).pathname.split("/").at(-1)!;
  const stored = await shopDb.db.selectFrom("orders").select(["ship_pin", "shipping_paise", "total_paise"]).where("id", "=", orderId).executeTakeFirstOrThrow();
  expect({ ...stored, shipping_paise: Number(stored.shipping_paise), total_paise: Number(stored.total_paise) }).toEqual({ ship_pin: "560004", shipping_paise: 2_000, total_paise: 302_000 });
});
