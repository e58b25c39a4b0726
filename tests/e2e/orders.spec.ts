import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { messages } from "../../common/shared/messages.ts";
import { formatPrice, formatPriceExact } from "../../common/shared/money.ts";
import { createProduct } from "../support/factories.ts";
import { deleteProductAsAdmin, emptyCart, orderAs, setStockAsAdmin } from "./support/api.ts";
import { allowStatusLogs, expect, test } from "./support/fixtures.ts";
import { countMailsWithSubject, mailWithSubject } from "./support/mail.ts";
import { ADMIN, hydrated, logIn, logOut, mainNav, submitLogin, toast, urlIs } from "./support/pages.ts";
import {
  addToCart,
  cartCountName,
  cartLink,
  fillShipping,
  orderIdFromUrl,
  orderNumberOf,
  shipping,
  signedInUnverified,
  verifiedShopper,
} from "./support/shopper.ts";

// The cart, checkout and orders end to end: what a shopper buys, what it costs, what the shop sends, what
// the admins do with it, and who may see an order. Two shoppers in all (see verifiedShopper); every test
// makes its own plants, with unique names, so the other spec files never touch them.

/** The flat shipping fee of the e2e server (SHIPPING_FEE_PAISE unset): 'Rs. 20.00', once per order. */
const SHIPPING_PAISE = 2_000;

const plantName = (kind: string) => `${kind} ${randomUUID().slice(0, 8)}`;

const summary = (page: Page) => page.getByRole("region", { name: "Order summary" });

/** The order summary's three rows: items and subtotal, shipping, and the total of the two. */
async function expectSummary(page: Page, itemCount: number, subtotalPaise: number) {
  await expect(summary(page).getByRole("term")).toHaveText([messages.cart.items(itemCount), messages.cart.shipping, messages.cart.total]);
  await expect(summary(page).getByRole("definition")).toHaveText([
    formatPriceExact(subtotalPaise),
    formatPriceExact(SHIPPING_PAISE),
    formatPriceExact(subtotalPaise + SHIPPING_PAISE),
  ]);
}

const cartRow = (page: Page, name: string) => page.getByRole("main").getByRole("listitem", { name, exact: true });
const quantityOf = (page: Page, name: string) => cartRow(page, name).getByLabel(`Quantity of ${name}`, { exact: true });
const statusBadge = (page: Page, status: string) => page.getByRole("main").getByText(status, { exact: true });

test.describe("orders", () => {
  test("the cart: adding up to the stock, changing quantities, totals with one shipping fee, removing", async ({ page, shopDb, consoleErrors }) => {
    const shopper = await verifiedShopper(page, shopDb, 1);
    await emptyCart(shopper);
    const a = await createProduct(shopDb.db, { name: plantName("Cart Calathea"), price_paise: 45_000, stock: 3 });
    const b = await createProduct(shopDb.db, { name: plantName("Cart Monstera"), price_paise: 120_050, stock: 5 });
    await logIn(page, shopper);

    // On the product page: each press adds one, and the nav's cart icon counts them.
    await page.goto(`/product/${a.id}`);
    await addToCart(page, a.id, 1);
    await expect(toast(page, messages.cart.added)).toBeVisible();
    await expect(mainNav(page).getByRole("link", { name: /Cart, 1 item/ })).toBeVisible();
    await addToCart(page, a.id, 2);
    await addToCart(page, a.id, 3);

    // A fourth would be more than the three in stock.
    const addForm = page.locator("form").filter({ has: page.getByRole("button", { name: messages.product.addToCart }) });
    await page.getByRole("button", { name: messages.product.addToCart }).click();
    const tooMany = `${messages.cart.addPrefix} ${messages.cart.onlyLeft(3)}`;
    await expect(addForm.getByRole("alert")).toHaveText(tooMany);
    await expect(page.getByText(tooMany)).toHaveCount(1);
    await expect(cartLink(page)).toHaveAccessibleName(cartCountName(3));
    const stored = await shopDb.db.selectFrom("cart_items").select(["product_id", "quantity"]).where("user_id", "=", shopper.id).execute();
    expect(stored).toEqual([{ product_id: a.id, quantity: 3 }]);

    await addToCart(page, b.id, 4);

    // The cart lists both with picture, name, price and quantity.
    await cartLink(page).click();
    await expect(page).toHaveURL(urlIs("/cart"));
    for (const [plant, price, quantity] of [[a, "Rs. 450", "3"], [b, "Rs. 1,200.50", "1"]] as const) {
      const row = cartRow(page, plant.name);
      await expect(row.getByRole("link", { name: plant.name, exact: true })).toHaveAttribute("href", `/product/${plant.id}`);
      expect(formatPrice(plant.price_paise)).toBe(price);
      await expect(row.getByText(price, { exact: true })).toBeVisible();
      await expect(quantityOf(page, plant.name)).toHaveText(quantity);
      const picture = row.locator("img");
      await expect(picture).toBeVisible();
      await expect.poll(() => picture.evaluate((img) => (img as HTMLImageElement).naturalWidth), { message: `${plant.name}: the picture loads` }).toBeGreaterThan(0);
    }
    expect(formatPriceExact(SHIPPING_PAISE)).toBe("Rs. 20.00");
    await expectSummary(page, 4, 3 * 45_000 + 120_050);
    await expect(page.getByRole("link", { name: messages.cart.checkOut })).toHaveAttribute("href", "/checkout");

    // '+' stops at the stock; '+' and '−' change the quantity and the totals.
    await hydrated(page.getByRole("button", { name: `One more ${b.name}`, exact: true }));
    await expect(page.getByRole("button", { name: `One more ${a.name}`, exact: true })).toBeDisabled();
    // From the keyboard: the focus stays on '+' while the change is sent, ready for the next press.
    const moreB = page.getByRole("button", { name: `One more ${b.name}`, exact: true });
    await moreB.focus();
    await page.keyboard.press("Enter");
    await expect(quantityOf(page, b.name)).toHaveText("2");
    await expectSummary(page, 5, 3 * 45_000 + 2 * 120_050);
    await expect(moreB).toBeFocused();
    await page.getByRole("button", { name: `One fewer ${a.name}`, exact: true }).click();
    await expect(quantityOf(page, a.name)).toHaveText("2");
    await expectSummary(page, 4, 2 * 45_000 + 2 * 120_050);
    await expect(page.getByRole("button", { name: `One more ${a.name}`, exact: true })).toBeEnabled();
    await expect(cartLink(page)).toHaveAccessibleName(cartCountName(4));

    // Remove takes the whole line.
    await page.getByRole("button", { name: `Remove ${b.name}`, exact: true }).click();
    await expect(cartRow(page, b.name)).toHaveCount(0);
    await expectSummary(page, 2, 2 * 45_000);

    // '−' at one removes the line too; then the cart is empty.
    await page.getByRole("button", { name: `One fewer ${a.name}`, exact: true }).click();
    await expect(quantityOf(page, a.name)).toHaveText("1");
    await expectSummary(page, 1, 45_000);
    await page.getByRole("button", { name: `One fewer ${a.name}`, exact: true }).click();
    await expect(page.getByText(messages.cart.empty, { exact: true })).toBeVisible();
    await expect(page.getByRole("listitem", { name: a.name })).toHaveCount(0);
    await expect(summary(page)).toHaveCount(0);
    await expect(cartLink(page)).toHaveAccessibleName("Cart");
    expect(await shopDb.db.selectFrom("cart_items").select("id").where("user_id", "=", shopper.id).execute()).toEqual([]);
    allowStatusLogs(consoleErrors, 409);
  });

  test("checkout: the order, its e-mails, the stock, the saved details, and cancelling it", async ({ page, shopDb }) => {
    test.setTimeout(60_000);
    const shopper = await verifiedShopper(page, shopDb, 1);
    await emptyCart(shopper);
    const plant = await createProduct(shopDb.db, { name: plantName("Checkout Pothos"), price_paise: 74_950, stock: 6 });
    const details = { phone: `+91 98450 ${String(Date.now()).slice(-5)}`, address: `${Date.now() % 1000} MG Road, Bengaluru 560001` };
    await logIn(page, shopper);

    await addToCart(page, plant.id, 1);
    await addToCart(page, plant.id, 2);
    await cartLink(page).click();
    await page.getByRole("link", { name: messages.cart.checkOut }).click();
    await expect(page).toHaveURL(urlIs("/checkout"));
    await expect(page.getByLabel("Full Name")).toHaveValue(shopper.name);
    await expectSummary(page, 2, 2 * 74_950);
    await fillShipping(page, details);
    await page.getByLabel("Remember these details on my profile").check();
    await expect(page.getByLabel(messages.checkout.paymentCod)).toBeChecked();
    await page.getByRole("button", { name: messages.checkout.placeOrder }).click();

    // The order page.
    await expect(page).toHaveURL(/\/orders\/[\w-]+$/);
    await expect(toast(page, messages.orders.placed)).toBeVisible();
    const orderId = orderIdFromUrl(page);
    const number = await orderNumberOf(shopDb, orderId);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Order ${number}`);
    await expect(statusBadge(page, "pending")).toBeVisible();
    const lines = page.getByRole("table", { name: "Order lines" }).getByRole("row");
    await expect(lines).toHaveCount(2);
    await expect(lines.nth(1).getByRole("cell")).toHaveText([plant.name, "Rs. 749.50", "2", "Rs. 1,499.00"]);
    await expectSummary(page, 2, 2 * 74_950);
    const address = page.getByRole("main").locator("p").filter({ hasText: details.address });
    await expect(address).toContainText(shopper.name);
    await expect(address).toContainText(details.phone);
    await expect(page.getByRole("button", { name: "Cancel order" })).toBeVisible();
    const order = await shopDb.db.selectFrom("orders").selectAll().where("id", "=", orderId).executeTakeFirstOrThrow();
    expect(order).toMatchObject({
      user_id: shopper.id,
      status: "pending",
      subtotal_paise: 149_900,
      shipping_paise: SHIPPING_PAISE,
      total_paise: 149_900 + SHIPPING_PAISE,
      ship_name: shopper.name,
      ship_phone: details.phone,
      ship_address: details.address,
    });
    await expect(cartLink(page)).toHaveAccessibleName("Cart");

    // The confirmation e-mail, to the shopper, with the number and the total.
    const placedMail = await mailWithSubject(shopper.email, `Order ${number} is placed`);
    expect(placedMail.text).toContain(formatPriceExact(149_900 + SHIPPING_PAISE));
    expect(placedMail.text).toContain(`/orders/${orderId}`);

    // Two fewer plants in stock; the details are remembered on the profile.
    await page.goto(`/product/${plant.id}`);
    await expect(page.getByText(messages.product.availableStock(4), { exact: true })).toBeVisible();
    const profile = await shopDb.db.selectFrom("users").select(["phone", "address"]).where("id", "=", shopper.id).executeTakeFirstOrThrow();
    expect(profile).toEqual(details);

    // The orders list, from the nav.
    await mainNav(page).getByRole("link", { name: "Orders", exact: true }).click();
    await expect(page).toHaveURL(urlIs("/orders"));
    await expect(page.getByRole("heading", { level: 1, name: "Your orders" })).toBeVisible();
    const listed = page.getByRole("main").getByRole("listitem").filter({ has: page.getByRole("link", { name: number, exact: true }) });
    await expect(listed).toContainText("pending");
    await expect(listed).toContainText(`2 items · ${formatPriceExact(149_900 + SHIPPING_PAISE)}`);
    await listed.getByRole("link", { name: number, exact: true }).click();
    await expect(page).toHaveURL(urlIs(`/orders/${orderId}`));

    // Cancelled, once confirmed: the stock comes back and the shopper is told.
    await page.getByRole("button", { name: "Cancel order" }).click();
    await expect(page.getByText(messages.orders.confirmCancel)).toBeVisible();
    await expect(statusBadge(page, "pending")).toBeVisible();
    await page.getByRole("button", { name: "Yes, cancel this order" }).click();
    await expect(toast(page, messages.orders.cancelled)).toBeVisible();
    await expect(statusBadge(page, "cancelled")).toBeVisible();
    await expect(page.getByRole("button", { name: "Cancel order" })).toHaveCount(0);
    expect(await shopDb.db.selectFrom("orders").select("status").where("id", "=", orderId).executeTakeFirstOrThrow()).toEqual({ status: "cancelled" });
    await page.goto(`/product/${plant.id}`);
    await expect(page.getByText(messages.product.availableStock(6), { exact: true })).toBeVisible();
    const cancelledMail = await mailWithSubject(shopper.email, `Order ${number} is cancelled`);
    expect(cancelledMail.text).toContain(number);
  });

  test("a plant that ran short since it went into the cart stops the order, and nothing is ordered", async ({ page, shopDb, consoleErrors }) => {
    const shopper = await verifiedShopper(page, shopDb, 1);
    await emptyCart(shopper);
    const plant = await createProduct(shopDb.db, { name: plantName("Short Fiddle Leaf"), price_paise: 89_900, stock: 2 });
    const ordersBefore = await shopDb.db.selectFrom("orders").select("id").where("user_id", "=", shopper.id).execute();
    await logIn(page, shopper);
    await addToCart(page, plant.id, 1);
    await addToCart(page, plant.id, 2);

    await page.goto("/checkout");
    await fillShipping(page);
    // Meanwhile only one is left: the owner, in a session of their own, sets the stock to what is on the shelf.
    await setStockAsAdmin(plant.id, 1);
    await page.getByRole("button", { name: messages.checkout.placeOrder }).click();

    await expect(page.getByRole("alert")).toHaveText(messages.checkout.shortage(plant.name, 1));
    await expect(page).toHaveURL(urlIs("/checkout"));
    const ordersAfter = await shopDb.db.selectFrom("orders").select("id").where("user_id", "=", shopper.id).execute();
    expect(ordersAfter).toEqual(ordersBefore);
    expect(await shopDb.db.selectFrom("order_lines").select("id").where("product_id", "=", plant.id).execute()).toEqual([]);
    expect(await shopDb.db.selectFrom("products").select("stock").where("id", "=", plant.id).executeTakeFirstOrThrow()).toEqual({ stock: 1 });

    // The line stays in the cart, marked as not available in that quantity, and not counted: with nothing
    // else in the cart there is nothing to order, no summary, no Check Out, and no count on the cart icon.
    await page.goto("/cart");
    await expect(quantityOf(page, plant.name)).toHaveText("2");
    await expect(cartRow(page, plant.name)).toContainText(messages.cart.onlyLeft(1));
    await expect(page.getByRole("main").getByRole("status")).toHaveText(messages.cart.nothingToOrder);
    await expect(summary(page)).toHaveCount(0);
    await expect(page.getByRole("link", { name: messages.cart.checkOut })).toHaveCount(0);
    await expect(cartLink(page)).toHaveAccessibleName("Cart");
    allowStatusLogs(consoleErrors, 409);
  });

  test("an order sent twice is placed once", async ({ page, shopDb, baseURL }) => {
    const shopper = await verifiedShopper(page, shopDb, 1);
    await emptyCart(shopper);
    const plant = await createProduct(shopDb.db, { name: plantName("Twice Peace Lily"), price_paise: 55_000, stock: 5 });
    await logIn(page, shopper);
    await addToCart(page, plant.id, 1);

    await page.goto("/checkout");
    const form = page.locator("#checkout-form");
    await hydrated(form);
    await fillShipping(page);
    const idempotencyKey = await form.locator('input[name="idempotencyKey"]').inputValue();
    expect(idempotencyKey).not.toBe("");

    // The form sent twice at the same moment, with the page's cookies, as a double click on a slow connection
    // or a retry would send it (in the page itself, React Router folds two quick submits into one request).
    const sendForm = () =>
      page.request.post("/checkout", {
        form: { idempotencyKey, name: shopper.name, ...shipping, payment: "cod" },
        headers: { Origin: baseURL! },
        maxRedirects: 0,
      });
    const answers = await Promise.all([sendForm(), sendForm()]);
    expect(answers.map((answer) => answer.status())).toEqual([302, 302]);
    const orderPath = answers[0]!.headers()["location"];
    expect(orderPath).toMatch(/^\/orders\/[\w-]+$/);
    expect(answers[1]!.headers()["location"]).toBe(orderPath);

    // Place Order on the page is the third try with that key: it shows the same order.
    await page.getByRole("button", { name: messages.checkout.placeOrder }).click();
    await expect(page).toHaveURL(urlIs(orderPath!));
    await expect(toast(page, messages.orders.placed)).toBeVisible();
    const orderId = orderIdFromUrl(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Order ${await orderNumberOf(shopDb, orderId)}`);

    const orders = await shopDb.db.selectFrom("orders").select(["id"]).where("user_id", "=", shopper.id).where("idempotency_key", "=", idempotencyKey).execute();
    expect(orders).toEqual([{ id: orderId }]);
    const linesOfPlant = await shopDb.db.selectFrom("order_lines").select(["order_id", "quantity"]).where("product_id", "=", plant.id).execute();
    expect(linesOfPlant).toEqual([{ order_id: orderId, quantity: 1 }]);
    expect(await shopDb.db.selectFrom("products").select("stock").where("id", "=", plant.id).executeTakeFirstOrThrow()).toEqual({ stock: 4 });
    const number = await orderNumberOf(shopDb, orderId);
    await mailWithSubject(shopper.email, `Order ${number} is placed`);
    // A duplicate confirmation would be queued by the requests above; the cancellation mail is queued after all
    // of them, so once it has arrived a duplicate would have too.
    await page.getByRole("button", { name: "Cancel order" }).click();
    await page.getByRole("button", { name: "Yes, cancel this order" }).click();
    await expect(toast(page, messages.orders.cancelled)).toBeVisible();
    await mailWithSubject(shopper.email, `Order ${number} is cancelled`);
    expect(countMailsWithSubject(shopper.email, `Order ${number} is placed`)).toBe(1);
  });

  test("an admin moves an order along to shipped; the customer is told; only admins manage orders", async ({ page, shopDb, consoleErrors }) => {
    test.setTimeout(60_000);
    const shopper = await verifiedShopper(page, shopDb, 1);
    await emptyCart(shopper);
    const plant = await createProduct(shopDb.db, { name: plantName("Admin Rubber Plant"), price_paise: 64_900, stock: 4 });
    await logIn(page, shopper);
    await addToCart(page, plant.id, 1);
    await page.goto("/checkout");
    await fillShipping(page);
    await page.getByRole("button", { name: messages.checkout.placeOrder }).click();
    await expect(toast(page, messages.orders.placed)).toBeVisible();
    const orderId = orderIdFromUrl(page);
    const number = await orderNumberOf(shopDb, orderId);
    await logOut(page);

    // The admin finds it among the pending orders.
    await logIn(page, ADMIN);
    await mainNav(page).getByRole("link", { name: "Admin", exact: true }).click();
    await expect(page).toHaveURL(urlIs("/admin"));
    await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Orders" }).click();
    await expect(page).toHaveURL(urlIs("/admin/orders"));
    await page.getByLabel("Status").selectOption("pending");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(urlIs("/admin/orders?status=pending"));
    const rows = page.getByRole("table").getByRole("row").filter({ has: page.getByRole("cell") });
    const row = rows.filter({ has: page.getByRole("link", { name: number, exact: true }) });
    await expect(row).toHaveCount(1);
    await expect(row.getByRole("cell").nth(1)).toHaveText(`${shopper.name} · ${shopper.email}`);
    await expect(rows.filter({ hasNotText: "pending" })).toHaveCount(0);
    await page.getByRole("link", { name: number, exact: true }).click();
    await expect(page).toHaveURL(urlIs(`/admin/orders/${orderId}`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Order ${number}`);
    await expect(statusBadge(page, "pending")).toBeVisible();
    await expect(page.getByRole("table", { name: "Order lines" }).getByRole("row").nth(1).getByRole("cell").first()).toHaveText(plant.name);
    await expect(page.getByText(`Customer: ${shopper.name} · ${shopper.email}`)).toBeVisible();
    await expect(page.getByRole("link", { name: shopper.email })).toHaveAttribute("href", `mailto:${shopper.email}`);

    // The shopper's own page of the order offers the admin no 'Cancel order': admins act from here.
    await page.goto(`/orders/${orderId}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Order ${number}`);
    await expect(statusBadge(page, "pending")).toBeVisible();
    await expect(page.getByRole("button", { name: "Cancel order" })).toHaveCount(0);
    await page.getByRole("link", { name: "Manage this order" }).click();
    await expect(page).toHaveURL(urlIs(`/admin/orders/${orderId}`));

    await page.getByRole("button", { name: "Mark processing" }).click();
    await expect(statusBadge(page, "processing")).toBeVisible();
    await page.getByRole("button", { name: "Mark shipped" }).click();
    await expect(statusBadge(page, "shipped")).toBeVisible();
    await expect(page.getByRole("button", { name: "Mark delivered" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Cancel order" })).toHaveCount(0);
    expect(await shopDb.db.selectFrom("orders").select("status").where("id", "=", orderId).executeTakeFirstOrThrow()).toEqual({ status: "shipped" });
    const shippedMail = await mailWithSubject(shopper.email, `Order ${number} has shipped`);
    expect(shippedMail.text).toContain(plant.name);
    await logOut(page);

    // The customer sees it shipped, and can no longer cancel it.
    await logIn(page, shopper);
    await page.goto(`/orders/${orderId}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Order ${number}`);
    await expect(statusBadge(page, "shipped")).toBeVisible();
    await expect(page.getByRole("button", { name: "Cancel order" })).toHaveCount(0);

    // Not an admin: 403.
    await expect(mainNav(page).getByRole("link", { name: "Admin", exact: true })).toHaveCount(0);
    const forbidden = await page.goto("/admin/orders");
    expect(forbidden?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: messages.auth.forbidden })).toBeVisible();
    await expect(page.getByRole("link", { name: number })).toHaveCount(0);
    expect((await page.request.get(`/admin/orders/${orderId}`)).status()).toBe(403);

    // A visitor logs in first.
    await page.goto("/");
    await logOut(page);
    await page.goto("/admin/orders");
    await expect(page).toHaveURL(urlIs(`/login?redirectTo=${encodeURIComponent("/admin/orders")}`));
    allowStatusLogs(consoleErrors, 403);
  });

  test("nobody sees or cancels another shopper's order", async ({ page, shopDb, baseURL, consoleErrors }) => {
    test.setTimeout(60_000);
    const owner = await verifiedShopper(page, shopDb, 1);
    const other = await verifiedShopper(page, shopDb, 2);
    // The owner's order, placed through the cart and orders API (the browser stays a visitor's).
    const plant = await createProduct(shopDb.db, { name: plantName("Private Areca Palm"), price_paise: 30_000, stock: 2 });
    const plantNameOrdered = plant.name;
    const { id: orderId, number } = await orderAs(owner, [plant.id], { phone: shipping.phone, address: "3 Secret Garden Lane, Mysuru 570001" });

    // A visitor is sent to log in; the other shopper then finds no such order.
    await page.goto(`/orders/${orderId}`);
    await expect(page).toHaveURL(urlIs(`/login?redirectTo=${encodeURIComponent(`/orders/${orderId}`)}`));
    await submitLogin(page, other);
    await expect(page).toHaveURL(urlIs(`/orders/${orderId}`));
    await expect(page.getByRole("heading", { level: 1, name: messages.orders.notFound })).toBeVisible();
    await expect(page.getByRole("main")).not.toContainText(plantNameOrdered);

    const direct = await page.goto(`/orders/${orderId}`);
    expect(direct?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: messages.orders.notFound })).toBeVisible();
    const html = await (await page.request.get(`/orders/${orderId}`)).text();
    for (const secret of [plantNameOrdered, "3 Secret Garden Lane", number]) expect(html).not.toContain(secret);

    // Nor can they cancel it, with the confirmation the page's second press sends (without it the action only
    // asks again and never reaches cancelOrder).
    const confirmCancel = () => page.request.post(`/orders/${orderId}`, { form: { confirm: "yes" }, headers: { Origin: baseURL! }, maxRedirects: 0 });
    const refused = await confirmCancel();
    expect(refused.status()).toBe(404);
    expect(await refused.text()).not.toContain(plantNameOrdered);
    expect(await shopDb.db.selectFrom("orders").select("status").where("id", "=", orderId).executeTakeFirstOrThrow()).toEqual({ status: "pending" });

    // Their own list is empty.
    await mainNav(page).getByRole("link", { name: "Orders", exact: true }).click();
    await expect(page).toHaveURL(urlIs("/orders"));
    await expect(page.getByText(messages.orders.none, { exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: number })).toHaveCount(0);

    // The owner does see it, and the very same request cancels it for them (so the refusals above were about
    // who asked, not about the request).
    await logOut(page);
    await logIn(page, owner);
    await page.goto(`/orders/${orderId}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Order ${number}`);
    await expect(page.getByRole("main")).toContainText(plantNameOrdered);
    expect((await confirmCancel()).status()).toBe(302);
    expect(await shopDb.db.selectFrom("orders").select("status").where("id", "=", orderId).executeTakeFirstOrThrow()).toEqual({ status: "cancelled" });
    allowStatusLogs(consoleErrors, 404);
  });

  test("checkout names the plants that cannot be ordered, and offers Place Order only once the cart is fixed", async ({ page, shopDb }) => {
    const shopper = await verifiedShopper(page, shopDb, 1);
    await emptyCart(shopper);
    const fern = await createProduct(shopDb.db, { name: plantName("Orderable Fern"), price_paise: 35_000, stock: 3 });
    const soldOut = await createProduct(shopDb.db, { name: plantName("Sold Out Orchid"), stock: 2 });
    const gone = await createProduct(shopDb.db, { name: plantName("Withdrawn Cycad"), stock: 2 });
    await logIn(page, shopper);
    await addToCart(page, fern.id, 1);
    await addToCart(page, soldOut.id, 2);
    await addToCart(page, gone.id, 3);
    // Off the cycad's page first: an open product page hears its plant deleted and reloads into the 404.
    await page.goto("/cart");
    // Since then the orchids sold out and the owner took the cycad out of the shop.
    await setStockAsAdmin(soldOut.id, 0);
    await deleteProductAsAdmin(gone.id);

    await page.goto("/checkout");
    const notice = page.getByRole("alert");
    await expect(notice.getByText(messages.checkout.cannotOrderYet)).toBeVisible();
    await expect(notice.getByRole("listitem")).toHaveText([messages.checkout.shortage(soldOut.name, 0), messages.checkout.noLongerSold]);
    await expect(page.getByRole("button", { name: messages.checkout.placeOrder })).toHaveCount(0);
    // What can be ordered is summed up as usual, with one shipping fee; the cart icon counts the same.
    await expectSummary(page, 1, 35_000);
    await expect(cartLink(page)).toHaveAccessibleName(cartCountName(1));

    await notice.getByRole("link", { name: messages.checkout.fixCart }).click();
    await expect(page).toHaveURL(urlIs("/cart"));
    await expect(cartRow(page, soldOut.name)).toContainText(messages.cart.unavailable);
    await expect(cartRow(page, messages.cart.productGone)).toContainText(messages.cart.unavailable);
    await hydrated(page.getByRole("button", { name: `Remove ${soldOut.name}`, exact: true }));
    await page.getByRole("button", { name: `Remove ${soldOut.name}`, exact: true }).click();
    await expect(cartRow(page, soldOut.name)).toHaveCount(0);
    await page.getByRole("button", { name: `Remove ${messages.cart.productGone}`, exact: true }).click();
    await expect(cartRow(page, messages.cart.productGone)).toHaveCount(0);

    await page.getByRole("link", { name: messages.cart.checkOut }).click();
    await expect(page).toHaveURL(urlIs("/checkout"));
    await expect(page.getByRole("button", { name: messages.checkout.placeOrder })).toBeVisible();
    await expect(page.getByRole("alert")).toHaveCount(0);
    await expectSummary(page, 1, 35_000);
  });

  test("a shopper whose e-mail is not verified is told so at checkout, with the way to have the mail sent again", async ({ page, shopDb }) => {
    const plant = await createProduct(shopDb.db, { name: plantName("Unverified Jade"), stock: 2 });
    const shopper = await signedInUnverified(page, shopDb);
    // Unverified, they may still fill their cart: the product page's button, as they would.
    await addToCart(page, plant.id, 1);

    await page.goto("/checkout");
    await expect(page.getByRole("heading", { level: 1, name: messages.checkout.heading })).toBeVisible();
    await expect(page.getByRole("alert")).toHaveText(messages.checkout.verifyFirst);
    await expect(page.getByRole("button", { name: messages.checkout.placeOrder })).toHaveCount(0);
    const resend = page.getByRole("link", { name: messages.auth.resendVerification });
    await expect(resend).toHaveAttribute("href", "/verify");
    await resend.click();
    await expect(page).toHaveURL(urlIs("/verify"));
    await expect(page.getByRole("heading", { name: messages.auth.verificationSent })).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveValue(shopper.email);
    await expect(page.getByRole("button", { name: messages.auth.resendVerification })).toBeVisible();
  });

  test("the order history is linked from the profile and from the small-screen menu", async ({ page, shopDb }) => {
    const shopper = await verifiedShopper(page, shopDb, 2);
    await logIn(page, shopper);
    await page.goto(`/profile/${shopper.id}`);
    await page.getByRole("main").getByRole("link", { name: "Your orders" }).click();
    await expect(page).toHaveURL(urlIs("/orders"));
    await expect(page.getByRole("heading", { level: 1, name: "Your orders" })).toBeVisible();

    await page.goto("/");
    await page.setViewportSize({ width: 375, height: 800 });
    await hydrated(page.getByRole("button", { name: "Open menu" }));
    await page.getByRole("button", { name: "Open menu" }).click();
    const menu = page.getByRole("dialog", { name: "Menu" });
    await menu.getByRole("link", { name: "Orders", exact: true }).click();
    await expect(page).toHaveURL(urlIs("/orders"));
    await expect(menu).toBeHidden();
    await expect(page.getByRole("heading", { level: 1, name: "Your orders" })).toBeVisible();
  });
});
