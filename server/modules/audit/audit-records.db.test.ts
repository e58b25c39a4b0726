import { describe, expect, it } from "vitest";
import { formatPriceExact } from "#common/shared/money.ts";
import { auditedShop } from "../../../tests/support/audited-shop.ts";
import { createCategory, createProduct } from "../../../tests/support/factories.ts";
import { checkoutInput, createShopper } from "../../../tests/support/shoppers.ts";

// One admin change, one record with what it changed; a change that is refused leaves none (the record is written in
// the change's own transaction). A UPI ID makes checkout offer UPI, whose orders await a payment the owner marks paid.

const shop = auditedShop({ SHOP_UPI_ID: "greenleaf@okaxis" });
const { activity } = shop;

/** A shopper's order of one new plant, paid by Cash on Delivery (pending) or UPI (awaiting its payment). */
async function placedOrder(payment: "cod" | "upi" = "cod") {
  const plant = await createProduct(shop.app.database.db, { stock: 5 });
  const shopper = await createShopper(shop.app.database.db, shop.app.database.dialect);
  await shop.app.services.cart.addToCart(shopper, { productId: plant.id, quantity: 1 });
  const order = await shop.app.services.orders.placeOrder(shopper, { ...checkoutInput(), payment });
  return { order, shopper };
}

describe("the audit records of admin changes", () => {
  it("records an order's status change once, pending → processing, and nothing for a move the order does not allow", async () => {
    const { order } = await placedOrder();
    await expect(shop.app.services.orders.setStatus(shop.owner, order.id, { status: "delivered" })).rejects.toMatchObject({ status: 409 });
    await shop.app.services.orders.setStatus(shop.owner, order.id, { status: "processing" });
    const { items } = await activity({ kind: "order", thing: order.id });
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ actor: { id: shop.owner.id }, changes: { status: { before: "pending", after: "processing" } } });
  });

  it("records a UPI payment marked paid once, awaiting_payment → pending, and nothing when it is marked paid again", async () => {
    const { order } = await placedOrder("upi");
    await shop.app.services.orders.setStatus(shop.owner, order.id, { status: "pending" });
    await expect(shop.app.services.orders.setStatus(shop.owner, order.id, { status: "pending" })).rejects.toMatchObject({ status: 409 });
    const { items } = await activity({ kind: "order", thing: order.id });
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ summary: `Payment of order ${order.number} marked paid`, changes: { status: { before: "awaiting_payment", after: "pending" } } });
  });

  it("records Cash on Delivery turned off for a customer once, false → true, and nothing when a shopper tries or when it is already off", async () => {
    const { order, shopper } = await placedOrder();
    await expect(shop.app.services.orders.setCodBlocked(shopper, order.id, { blocked: true })).rejects.toMatchObject({ status: 403 });
    await shop.app.services.orders.setCodBlocked(shop.owner, order.id, { blocked: true });
    await shop.app.services.orders.setCodBlocked(shop.owner, order.id, { blocked: true });
    const { items } = await activity({ kind: "customer" });
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ thing: { id: shopper.id }, changes: { codBlocked: { before: false, after: true } } });
  });

  it("records a category renamed once, old name → new name, and nothing for a rename refused as a name already taken", async () => {
    const shelf = await createCategory(shop.app.database.db, { name: "Shelf Plants" });
    await createCategory(shop.app.database.db, { name: "Hanging Plants" });
    await expect(shop.app.services.adminCatalog.renameCategory(shop.owner, { categoryId: shelf.id }, { name: "Hanging Plants" })).rejects.toMatchObject({ status: 409 });
    await shop.app.services.adminCatalog.renameCategory(shop.owner, { categoryId: shelf.id }, { name: "Desk Plants" });
    const { items } = await activity({ kind: "category" });
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ thing: { id: shelf.id, label: "Desk Plants" }, changes: { name: { before: "Shelf Plants", after: "Desk Plants" } } });
  });

  it("records a price changed through the product form once, with only the price before → after, and nothing for a form refused as invalid", async () => {
    const plant = await createProduct(shop.app.database.db, { price_paise: 49_900 });
    const edit = await shop.app.services.adminCatalog.getProductForEdit(shop.owner, { productId: plant.id });
    const form = (price: string) => ({
      name: edit.name,
      description: edit.description,
      price,
      stock: String(edit.stock),
      category: edit.categoryName,
      images: edit.images.map((image) => `image:${image.id}`),
    });
    await expect(shop.app.services.adminCatalog.updateProduct(shop.owner, { productId: plant.id }, form("-5"))).rejects.toMatchObject({ status: 400 });
    await shop.app.services.adminCatalog.updateProduct(shop.owner, { productId: plant.id }, form("449"));
    const { items } = await activity({ kind: "product", thing: plant.id });
    expect(items).toHaveLength(1);
    expect(Object.values(items[0]!.changes)).toEqual([{ before: 49_900, after: 44_900 }]);
    expect(items[0]!.summary).toBe(`Price of ${plant.name} ${formatPriceExact(49_900)} → ${formatPriceExact(44_900)}`);
  });

  it("records a product deleted once, with its name before and nothing after, and nothing for a shopper's refused deletion", async () => {
    const plant = await createProduct(shop.app.database.db);
    const shopper = await createShopper(shop.app.database.db, shop.app.database.dialect);
    await expect(shop.app.services.adminCatalog.deleteProduct(shopper, { productId: plant.id })).rejects.toMatchObject({ status: 403 });
    await shop.app.services.adminCatalog.deleteProduct(shop.owner, { productId: plant.id });
    const { items } = await activity({ kind: "product", thing: plant.id });
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ summary: `Deleted product ${plant.name}`, changes: { name: { before: plant.name, after: null } } });
  });
});
