import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { messages } from "../../common/shared/messages.ts";
import { createProduct } from "../support/factories.ts";
import { expect, test } from "./support/fixtures.ts";
import { signedInShopper } from "./support/live.ts";
import { ADMIN, hydrated, logIn, mainNav, toast } from "./support/pages.ts";
import { addToCart, fillShipping, orderIdFromUrl, orderNumberOf } from "./support/shopper.ts";

// A gift order end to end (docs/decisions/052): the shopper ticks 'This is a gift' at checkout and hides the
// prices; the owner prints a packing slip with the message and no price.

const origin = () => `http://127.0.0.1:${process.env.E2E_PORT}`;
const authSecret = () => readFileSync(path.join(process.env.E2E_DATA_DIR!, "auth-secret"), "utf8").trim();

test.describe("gift orders", () => {
  test("a shopper places a gift with hidden prices at checkout, and the owner's packing slip has the message and no price", async ({ page, browser, shopDb }) => {
    test.setTimeout(60_000);
    const plant = await createProduct(shopDb.db, { name: `Gift Anthurium ${randomUUID().slice(0, 8)}`, price_paise: 64_900, stock: 3 });
    await signedInShopper(page.context(), shopDb, origin(), authSecret(), { name: "Asha Kulkarni" });
    await addToCart(page, plant.id, 1);
    await page.goto("/checkout");
    await fillShipping(page, { phone: "+91 98450 12345", address: "7 Residency Road, Bengaluru 560025" });

    // The gift's fields show once the box is ticked; without a name or phone the order is refused at those fields.
    const isGift = page.getByLabel(messages.checkout.isGift);
    await hydrated(isGift);
    const recipientName = page.getByLabel(messages.checkout.giftName);
    await expect(recipientName).toBeHidden();
    await isGift.check();
    await expect(recipientName).toBeVisible();
    await page.getByRole("button", { name: messages.checkout.placeOrder }).click();
    await expect(recipientName).toHaveAccessibleDescription(messages.checkout.giftNameRequired);
    await expect(page.getByLabel(messages.checkout.giftPhone)).toHaveAccessibleDescription(messages.checkout.giftPhoneRequired);

    await recipientName.fill("Meera Iyer");
    await page.getByLabel(messages.checkout.giftPhone).fill("+91 99887 76655");
    await page.getByLabel(messages.checkout.giftMessage).fill("Happy birthday, Meera! Water me weekly.");
    await page.getByLabel(messages.checkout.hidePrices).check();
    await page.getByRole("button", { name: messages.checkout.placeOrder }).click();

    // The buyer's order page shows the gift.
    await expect(page).toHaveURL(/\/orders\/[\w-]+$/);
    await expect(toast(page, messages.orders.placed)).toBeVisible();
    const orderId = orderIdFromUrl(page);
    const gift = page.getByRole("region", { name: messages.gifts.giftFor("Meera Iyer", "+91 99887 76655") });
    await expect(gift).toContainText("Happy birthday, Meera! Water me weekly.");
    await expect(gift).toContainText(messages.gifts.pricesHidden);
    expect(await shopDb.db.selectFrom("order_gifts").select(["recipient_name", "hide_prices"]).where("order_id", "=", orderId).executeTakeFirst()).toEqual({
      recipient_name: "Meera Iyer",
      hide_prices: 1,
    });

    // The owner opens the packing slip from the order's page.
    const context = await browser.newContext();
    try {
      const owner = await context.newPage();
      await logIn(owner, ADMIN);
      await owner.goto(`/admin/orders/${orderId}`);
      await owner.getByRole("link", { name: messages.gifts.printSlip }).click();
      await expect(owner).toHaveURL(new RegExp(`/admin/orders/${orderId}/packing-slip$`));
      const slip = owner.getByRole("main");
      await expect(slip.getByRole("heading", { level: 1 })).toHaveText(`${messages.gifts.slipHeading} · Order ${await orderNumberOf(shopDb, orderId)}`);
      await expect(slip).toContainText("Happy birthday, Meera! Water me weekly.");
      await expect(slip).toContainText("Meera Iyer");
      await expect(slip).toContainText("7 Residency Road, Bengaluru 560025");
      await expect(slip.getByRole("row").nth(1).getByRole("cell")).toHaveText([plant.name, "1"]);
      await expect(slip).not.toContainText("Rs.");
      await expect(slip.getByRole("button", { name: messages.gifts.print })).toBeVisible();

      // Printed: no navigation, no Print button.
      await owner.emulateMedia({ media: "print" });
      await expect(mainNav(owner)).toBeHidden();
      await expect(slip.getByRole("button", { name: messages.gifts.print })).toBeHidden();
      await expect(slip).toContainText("Happy birthday, Meera! Water me weekly.");
    } finally {
      await context.close();
    }
  });
});
