import { describe, expect, it } from "vitest";
import { auditedShop } from "../../../tests/support/audited-shop.ts";
import { createProduct } from "../../../tests/support/factories.ts";
import { createShopper } from "../../../tests/support/shoppers.ts";

const shop = auditedShop();
const { activity } = shop;

describe("the audit trail", () => {
  it("records a stock change once, with who, the product and only the changed field before and after", async () => {
    const plant = await createProduct(shop.app.database.db, { stock: 5 });
    await shop.app.services.adminCatalog.setStock(shop.owner, { productId: plant.id }, { stock: "3" });
    const { items } = await activity();
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ actor: { id: shop.owner.id, name: shop.owner.name, email: shop.owner.email }, thing: { kind: "product", id: plant.id } });
    expect(Object.values(items[0]!.changes)).toEqual([{ before: 5, after: 3 }]);
    expect(items[0]!.summary).toContain("5 → 3");
  });

  it("records a coupon made, paused and deleted once each, and nothing for a code refused as taken", async () => {
    const made = await shop.app.services.coupons.createCoupon(shop.owner, { code: "SPRING", kind: "percent", value: "10" });
    await expect(shop.app.services.coupons.createCoupon(shop.owner, { code: "spring", kind: "percent", value: "20" })).rejects.toMatchObject({ status: 409 });
    await shop.app.services.coupons.setCouponPaused(shop.owner, made.id, { paused: true });
    await shop.app.services.coupons.deleteCoupon(shop.owner, made.id);
    const { items } = await activity({ kind: "coupon", thing: made.id });
    expect(items.map((i) => i.summary)).toEqual(["Deleted coupon SPRING", "Coupon SPRING paused", "Added coupon SPRING"]);
    expect(items[1]!.changes).toEqual({ paused: { before: false, after: true } });
  });

  it("records a delivery zone edited with only its changed fields, and nothing for an edit refused as invalid", async () => {
    const zone = await shop.app.services.delivery.createZone(shop.owner, { name: "Karnataka", areas: "56", fee: "80", daysMin: "3", daysMax: "5" });
    await expect(shop.app.services.delivery.updateZone(shop.owner, zone.id, { name: "Karnataka", areas: "5x", fee: "80", daysMin: "3", daysMax: "5" })).rejects.toMatchObject({ status: 400 });
    await shop.app.services.delivery.updateZone(shop.owner, zone.id, { name: "Karnataka", areas: "56", fee: "90", daysMin: "3", daysMax: "5" });
    const { items } = await activity({ kind: "delivery" });
    expect(items).toHaveLength(2);
    expect(items[0]!.changes).toEqual({ feePaise: { before: 8000, after: 9000 } });
  });

  it("records the admin role granted by the admin command once, with no account or address, and nothing when it was already held", async () => {
    const shopper = await createShopper(shop.app.database.db, shop.app.database.dialect);
    await shop.app.services.accounts.setAdmin(shopper.email, true);
    await shop.app.services.accounts.setAdmin(shopper.email, true);
    const { items } = await activity({ kind: "account" });
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ actor: { id: null, name: "admin command", email: null }, clientIp: null, thing: { id: shopper.id }, changes: { role: { before: "user", after: "admin" } } });
  });

  it("refuses a shopper (403) and a visitor (401)", async () => {
    const shopper = await createShopper(shop.app.database.db, shop.app.database.dialect);
    await expect(shop.app.services.audit.listActivity(shopper, {})).rejects.toMatchObject({ status: 403 });
    await expect(shop.app.services.audit.listActivity(null, {})).rejects.toMatchObject({ status: 401 });
  });

  it("pages by key through every record exactly once, newest first, and refuses a made-up cursor", async () => {
    const plant = await createProduct(shop.app.database.db, { stock: 0 });
    for (let stock = 1; stock <= 120; stock++) await shop.app.services.adminCatalog.setStock(shop.owner, { productId: plant.id }, { stock: String(stock) });
    const seen: string[] = [];
    let after: string | null = "";
    while (after !== null) {
      const page: Awaited<ReturnType<typeof activity>> = await activity(after ? { after, thing: plant.id } : { thing: plant.id });
      seen.push(...page.items.map((i) => i.id));
      after = page.next;
    }
    expect(seen).toHaveLength(120);
    expect(new Set(seen).size).toBe(120);
    expect(seen.map(Number)).toEqual([...seen.map(Number)].sort((a, b) => b - a));
    await expect(activity({ after: "x'; drop" })).rejects.toMatchObject({ status: 400 });
  });
});
