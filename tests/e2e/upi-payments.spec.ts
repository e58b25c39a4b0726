import { randomUUID } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import jsQR from "jsqr";
import sharp from "sharp";
import type { Page } from "@playwright/test";
import { messages } from "../../common/shared/messages.ts";
import { createProduct } from "../support/factories.ts";
import { allowStatusLogs, expect, test } from "./support/fixtures.ts";
import { signedInShopper } from "./support/live.ts";
import { ADMIN, hydrated, logIn, toast } from "./support/pages.ts";
import { mailWithSubject } from "./support/mail.ts";
import { addToCart, fillShipping, orderIdFromUrl, orderNumberOf } from "./support/shopper.ts";

// Paying by UPI without a gateway, and the rules for Cash on Delivery (docs/decisions/054), in the browser: the
// server runs with SHOP_UPI_ID (playwright.config.ts). The shop's clock is moved through its test-only clock file
// (TEST_CLOCK_FILE) to run an unpaid order's time out without waiting for it.

const origin = () => `http://127.0.0.1:${process.env.E2E_PORT}`;
const authSecret = () => readFileSync(path.join(process.env.E2E_DATA_DIR!, "auth-secret"), "utf8").trim();
const clockFile = path.join(process.env.E2E_DATA_DIR!, "test-clock");
const p = messages.payments;

test.afterEach(() => {
  rmSync(clockFile, { force: true });
});

/** What a phone's camera reads from the QR code on the page: the picture as the browser drew it, decoded. */
async function scanQr(page: Page): Promise<string | undefined> {
  const shot = await page.getByTestId("upi-qr").screenshot();
  const { data, info } = await sharp(shot).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height)?.data;
}

/** A signed-in shopper who places an order for one of `plant` paying by UPI, on the order page after. */
async function placeUpiOrder(page: Page, plantId: string) {
  await addToCart(page, plantId, 1);
  await page.goto("/checkout");
  await fillShipping(page);
  const upi = page.getByRole("radio", { name: messages.checkout.paymentUpi });
  await hydrated(upi);
  await upi.check();
  await page.getByRole("button", { name: messages.checkout.placeOrder }).click();
  await expect(page).toHaveURL(/\/orders\/[\w-]+$/);
  await expect(toast(page, messages.orders.placed)).toBeVisible();
  return orderIdFromUrl(page);
}

test.describe("paying by UPI", () => {
  test("a UPI order from its QR code to paid: the code scans to the exact payment link, the shopper gives the reference, the owner marks it paid", async ({ page, browser, shopDb, consoleErrors }) => {
    test.setTimeout(60_000);
    const plant = await createProduct(shopDb.db, { name: `UPI Calathea ${randomUUID().slice(0, 8)}`, price_paise: 54_900, stock: 4 });
    const shopper = await signedInShopper(page.context(), shopDb, origin(), authSecret(), { name: "Asha Kulkarni" });
    const orderId = await placeUpiOrder(page, plant.id);
    const number = await orderNumberOf(shopDb, orderId);

    // Awaiting its payment, the plant held for it.
    await expect(page.getByText("awaiting payment", { exact: true })).toBeVisible();
    const pay = page.getByRole("region", { name: p.heading });
    await expect(pay).toContainText("Pay Rs. 569.00 by UPI by");
    const link = `upi://pay?pa=greenleaf%40okaxis&pn=Green%20Leaf%20Nursery&am=569.00&cu=INR&tr=${number}&tn=Plant%20Shop%20order%20${number}`;
    await expect(pay.getByRole("link", { name: p.payWithApp, includeHidden: true })).toHaveAttribute("href", link);
    expect(await scanQr(page)).toBe(link);
    expect((await shopDb.db.selectFrom("products").select("stock").where("id", "=", plant.id).executeTakeFirstOrThrow()).stock).toBe(3);

    // A reference that is not one is refused at its field; the right one is taken.
    const reference = pay.getByLabel(p.referenceLabel);
    await reference.fill("12345");
    await pay.getByRole("button", { name: p.referenceSend }).click();
    await expect(reference).toHaveAccessibleDescription("Enter the 12-digit UPI reference (UTR) from your UPI app.");
    // Answered 400, which the browser logs as an error.
    allowStatusLogs(consoleErrors, 400);
    await reference.fill("412345678901");
    await pay.getByRole("button", { name: p.referenceSend }).click();
    await expect(pay.getByRole("status")).toHaveText(p.referenceSaved);

    // The owner finds it among the orders awaiting payment, with the reference, and marks it paid.
    const context = await browser.newContext();
    try {
      const owner = await context.newPage();
      await logIn(owner, ADMIN);
      await owner.goto("/admin/orders?status=awaiting_payment");
      const row = owner.getByRole("row").filter({ hasText: number });
      await expect(row).toContainText("UTR 412345678901");
      await row.getByRole("link", { name: number }).click();
      await expect(owner.getByText(p.referenceGiven("412345678901"))).toBeVisible();
      await owner.getByRole("button", { name: p.markPaid }).click();
      await expect(owner.getByText("pending", { exact: true })).toBeVisible();
    } finally {
      await context.close();
    }

    // The shopper is told, and their order shows it paid, with nothing left to pay.
    await mailWithSubject(shopper.email, `Payment received for order ${number}`);
    await page.reload();
    await expect(page.getByText("pending", { exact: true })).toBeVisible();
    await expect(page.getByText(`${messages.checkout.paymentUpi} · ${p.states.paid}`)).toBeVisible();
    await expect(page.getByRole("region", { name: p.heading })).toHaveCount(0);
  });

  test("an unpaid UPI order is cancelled by the shop once its time is up (the clock moved, not waited): its stock back and the shopper mailed", async ({ page, shopDb }) => {
    test.setTimeout(60_000);
    const plant = await createProduct(shopDb.db, { name: `UPI Pothos ${randomUUID().slice(0, 8)}`, price_paise: 29_900, stock: 2 });
    const shopper = await signedInShopper(page.context(), shopDb, origin(), authSecret(), { name: "Ravi Menon" });
    const orderId = await placeUpiOrder(page, plant.id);
    const number = await orderNumberOf(shopDb, orderId);
    const stock = () => shopDb.db.selectFrom("products").select("stock").where("id", "=", plant.id).executeTakeFirstOrThrow().then((row) => row.stock);
    expect(await stock()).toBe(1);

    // Thirty-one minutes on: the shop cancels it by itself.
    writeFileSync(clockFile, new Date(Date.now() + 31 * 60_000).toISOString());
    await mailWithSubject(shopper.email, `Order ${number} is cancelled: payment not received`);
    await page.reload();
    await expect(page.getByText("cancelled", { exact: true })).toBeVisible();
    await expect(page.getByText(`${messages.checkout.paymentUpi} · ${p.states.failed}`)).toBeVisible();
    await expect(page.getByRole("region", { name: p.heading })).toHaveCount(0);
    expect(await stock()).toBe(2);
  });
});

test.describe("rules for Cash on Delivery", () => {
  test("the owner marks a COD parcel refused on delivery and turns COD off for its shopper; their checkout then offers only UPI, saying why", async ({ page, browser, shopDb }) => {
    test.setTimeout(60_000);
    const plant = await createProduct(shopDb.db, { name: `COD Ficus ${randomUUID().slice(0, 8)}`, price_paise: 39_900, stock: 5 });
    await signedInShopper(page.context(), shopDb, origin(), authSecret(), { name: "Kiran Rao" });
    await addToCart(page, plant.id, 1);
    await page.goto("/checkout");
    await fillShipping(page);
    await expect(page.getByRole("radio", { name: messages.checkout.paymentCod })).toBeChecked();
    await page.getByRole("button", { name: messages.checkout.placeOrder }).click();
    await expect(page).toHaveURL(/\/orders\/[\w-]+$/);
    const orderId = orderIdFromUrl(page);

    const context = await browser.newContext();
    try {
      const owner = await context.newPage();
      await logIn(owner, ADMIN);
      await owner.goto(`/admin/orders/${orderId}`);
      for (const step of ["Mark processing", "Mark shipped", p.markRefused]) {
        await owner.getByRole("button", { name: step }).click();
        await expect(owner.getByRole("button", { name: step })).toHaveCount(0);
      }
      await expect(owner.getByText("refused on delivery", { exact: true })).toBeVisible();
      await expect(owner.getByText(p.refusedParcels(1))).toBeVisible();
      await owner.getByRole("button", { name: p.turnCodOff }).click();
      await expect(owner.getByText(p.codOffForShopper)).toBeVisible();
    } finally {
      await context.close();
    }

    await addToCart(page, plant.id, 1);
    await page.goto("/checkout");
    await expect(page.getByRole("radio", { name: messages.checkout.paymentCod })).toBeDisabled();
    await expect(page.getByText(messages.checkout.payByUpiInstead(messages.checkout.codBlocked))).toBeVisible();
    await expect(page.getByRole("radio", { name: messages.checkout.paymentUpi })).toBeChecked();
  });
});
