import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { couponMessages as m } from "#common/coupons/coupon-messages.ts";
import { ERROR_CODES } from "#common/shared/user-facing-error.ts";
import { createCategory, createProduct, setSelling } from "../../../tests/support/factories.ts";
import { checkoutInput, createShopper } from "../../../tests/support/shoppers.ts";
import { createTestApp, type TestApp } from "../../../tests/support/test-app.ts";
import type { SessionUser } from "../../platform/session-user.ts";

let app: TestApp;
let owner: SessionUser;
beforeEach(async () => {
  app = await createTestApp();
  owner = await createShopper(app.database.db, app.database.dialect, { isAdmin: true });
});
afterEach(async () => {
  await app.cleanup();
});

const shopper = () => createShopper(app.database.db, app.database.dialect);
const makeCoupon = (fields: Record<string, unknown>) => app.services.coupons.createCoupon(owner, { kind: "percent", value: "10", ...fields });
const apply = (user: SessionUser | null, code: string) => app.services.cart.applyCoupon(user, { code });
const refusalOf = (promise: Promise<unknown>) => promise.then(() => "applied", (error: Error) => error.message);

/** A shopper with `quantity` of a new plant at `price_paise` in the cart. */
async function shopperWithPlant(price_paise = 100_000, quantity = 1, category_id?: string) {
  const plant = await createProduct(app.database.db, { price_paise, stock: 100, ...(category_id ? { category_id } : {}) });
  const user = await shopper();
  await app.services.cart.addToCart(user, { productId: plant.id, quantity });
  return { plant, user };
}

describe("the owner's codes", () => {
  it("are made, listed with their uses, paused, resumed and deleted by admins; codes are stored upper-case and unique whatever their case", async () => {
    const made = await makeCoupon({ code: "summer10", maxUses: "5", oncePerCustomer: "on" });
    expect(made).toMatchObject({ code: "SUMMER10", kind: "percent", amount: 10, maxUses: 5, oncePerCustomer: true, paused: false, usedCount: 0, categories: [] });
    await expect(makeCoupon({ code: "Summer10" })).rejects.toMatchObject({ status: 409, message: m.codeTaken });
    expect((await app.services.coupons.setCouponPaused(owner, made.id, { paused: true })).paused).toBe(true);
    expect((await app.services.coupons.listCoupons(owner)).coupons.map((c) => [c.code, c.paused])).toEqual([["SUMMER10", true]]);
    expect((await app.services.coupons.setCouponPaused(owner, made.id, { paused: "false" })).paused).toBe(false);
    await app.services.coupons.deleteCoupon(owner, made.id);
    expect((await app.services.coupons.listCoupons(owner)).coupons).toEqual([]);
    await expect(app.services.coupons.deleteCoupon(owner, made.id)).rejects.toMatchObject({ status: 404, message: m.notFound });
  });

  it("refuses shoppers (403) and visitors (401) every operation", async () => {
    const made = await makeCoupon({ code: "OWNERONLY" });
    const user = await shopper();
    for (const viewer of [user, null]) {
      const status = viewer ? 403 : 401;
      await expect(app.services.coupons.listCoupons(viewer)).rejects.toMatchObject({ status });
      await expect(app.services.coupons.createCoupon(viewer, { code: "MINE", kind: "amount", value: "100" })).rejects.toMatchObject({ status });
      await expect(app.services.coupons.setCouponPaused(viewer, made.id, { paused: true })).rejects.toMatchObject({ status });
      await expect(app.services.coupons.deleteCoupon(viewer, made.id)).rejects.toMatchObject({ status });
      await expect(app.services.coupons.updateCoupon(viewer, made.id, { value: "50" })).rejects.toMatchObject({ status });
      await expect(app.services.coupons.getCouponForEditing(viewer, made.id)).rejects.toMatchObject({ status });
    }
    expect((await app.services.coupons.listCoupons(owner)).coupons).toHaveLength(1);
  });

  it("says what is wrong with each field of a code that cannot be made", async () => {
    const fieldErrorOf = (input: Record<string, unknown>) => makeCoupon(input).then(() => ({}), (error: { fieldErrors?: Record<string, string> }) => error.fieldErrors ?? {});
    expect(await fieldErrorOf({ code: "a b" })).toMatchObject({ code: m.codeInvalid });
    expect(await fieldErrorOf({ code: "PCT", value: "101" })).toMatchObject({ value: m.percentInvalid });
    expect(await fieldErrorOf({ code: "AMT", kind: "amount", value: "0" })).toMatchObject({ value: m.amountInvalid });
    expect(await fieldErrorOf({ code: "KIND", kind: "half" })).toMatchObject({ kind: m.kindInvalid });
    expect(await fieldErrorOf({ code: "MIN", minSubtotal: "lots" })).toMatchObject({ minSubtotal: m.minimumInvalid });
    expect(await fieldErrorOf({ code: "USES", maxUses: "0" })).toMatchObject({ maxUses: m.maxUsesInvalid });
    expect(await fieldErrorOf({ code: "DATES", startsAt: "2030-01-02T10:00", endsAt: "2030-01-01T10:00" })).toMatchObject({ endsAt: m.endsBeforeStart });
    expect(await fieldErrorOf({ code: "WHEN", startsAt: "tomorrow" })).toMatchObject({ startsAt: m.dateInvalid });
    expect(await fieldErrorOf({ code: "CATS", categoryIds: ["no-such-category"] })).toMatchObject({ categoryIds: m.categoryUnknown });
    expect((await app.services.coupons.listCoupons(owner)).coupons).toEqual([]);
  });

  it("places a start and an end typed in the shop's time zone (Asia/Kolkata, UTC+5:30)", async () => {
    const made = await makeCoupon({ code: "DIWALI", startsAt: "2030-10-01T09:00", endsAt: "2030-10-31T23:59" });
    expect([made.startsAt, made.endsAt]).toEqual(["2030-10-01T03:30:00.000Z", "2030-10-31T18:29:00.000Z"]);
  });
});

describe("editing a code", () => {
  const edit = (id: string, fields: Record<string, unknown>) => app.services.coupons.updateCoupon(owner, id, fields);

  it("changes every term as the creation reads them, replaces its categories, and keeps the fields an edit leaves out", async () => {
    const [ferns, palms, cacti] = [await createCategory(app.database.db), await createCategory(app.database.db), await createCategory(app.database.db)];
    const made = await makeCoupon({ code: "SPRING", value: "10", maxUses: "5", oncePerCustomer: "on", categoryIds: [ferns.id, palms.id] });
    const edited = await edit(made.id, { code: "spring-2", kind: "amount", value: "99.50", minSubtotal: "1,000", startsAt: "2030-10-01T09:00", endsAt: "2030-10-31T23:59", maxUses: "", oncePerCustomer: "false", categoryIds: [cacti.id] });
    expect(edited).toMatchObject({ id: made.id, code: "SPRING-2", kind: "amount", amount: 9950, minSubtotalPaise: 100_000, startsAt: "2030-10-01T03:30:00.000Z", endsAt: "2030-10-31T18:29:00.000Z", maxUses: null, oncePerCustomer: false });
    expect(edited.categories).toEqual([{ id: cacti.id, name: cacti.name }]);
    const links = await app.database.db.selectFrom("coupon_categories").select("category_id").where("coupon_id", "=", made.id).execute();
    expect(links.map((l) => l.category_id)).toEqual([cacti.id]);
    // Only the percentage given: the rest as stored; the edit form shows the stored terms on the shop's clock.
    const again = await edit(made.id, { kind: "percent", value: 30 });
    expect(again).toMatchObject({ code: "SPRING-2", kind: "percent", amount: 30, minSubtotalPaise: 100_000, startsAt: "2030-10-01T03:30:00.000Z", categories: [{ id: cacti.id }] });
    expect((await app.services.coupons.getCouponForEditing(owner, made.id)).form).toEqual({ code: "SPRING-2", kind: "percent", value: "30", minSubtotal: "1000", startsAt: "2030-10-01T09:00", endsAt: "2030-10-31T23:59", maxUses: "", oncePerCustomer: false, categoryIds: [cacti.id] });
  });

  it("says what is wrong with each field as the creation does, refuses another code's text whatever its case, and an unknown code is 404", async () => {
    const made = await makeCoupon({ code: "EDITME" });
    await makeCoupon({ code: "TAKEN" });
    const fieldErrorOf = (input: Record<string, unknown>) => edit(made.id, input).then(() => ({}), (error: { fieldErrors?: Record<string, string> }) => error.fieldErrors ?? {});
    expect(await fieldErrorOf({ code: "a b" })).toEqual({ code: m.codeInvalid });
    expect(await fieldErrorOf({ value: "101" })).toEqual({ value: m.percentInvalid });
    expect(await fieldErrorOf({ kind: "amount", value: "0" })).toEqual({ value: m.amountInvalid });
    expect(await fieldErrorOf({ minSubtotal: "lots" })).toEqual({ minSubtotal: m.minimumInvalid });
    expect(await fieldErrorOf({ maxUses: "0" })).toEqual({ maxUses: m.maxUsesInvalid });
    expect(await fieldErrorOf({ startsAt: "2030-01-02T10:00", endsAt: "2030-01-01T10:00" })).toEqual({ endsAt: m.endsBeforeStart });
    expect(await fieldErrorOf({ categoryIds: ["no-such-category"] })).toEqual({ categoryIds: m.categoryUnknown });
    await expect(edit(made.id, { code: "taken" })).rejects.toMatchObject({ status: 409, message: m.codeTaken, fieldErrors: { code: m.codeTaken } });
    // Its own code in another case is still its own.
    expect((await edit(made.id, { code: "editme" })).code).toBe("EDITME");
    await expect(edit("no-such-coupon", { value: "5" })).rejects.toMatchObject({ status: 404, message: m.notFound });
    await expect(app.services.coupons.updateCoupon(owner, made.id, "value=5")).rejects.toMatchObject({ status: 400 });
    expect((await app.services.coupons.getCouponForEditing(owner, made.id)).coupon).toMatchObject({ code: "EDITME", amount: 10, kind: "percent" });
  });

  it("refuses total uses below the uses counted, saying how many are used, and accepts exactly that many", async () => {
    const made = await makeCoupon({ code: "USED2", maxUses: "5" });
    for (let i = 0; i < 2; i++) {
      const { user } = await shopperWithPlant();
      await apply(user, "USED2");
      await app.services.orders.placeOrder(user, checkoutInput());
    }
    await expect(edit(made.id, { maxUses: "1" })).rejects.toMatchObject({ status: 409, message: m.maxUsesBelowUsed(2), fieldErrors: { maxUses: m.maxUsesBelowUsed(2) } });
    expect(m.maxUsesBelowUsed(2)).toBe("This code has been used 2 times already: total uses cannot be below 2.");
    expect((await app.services.coupons.getCouponForEditing(owner, made.id)).coupon.maxUses).toBe(5);
    expect(await edit(made.id, { maxUses: "2" })).toMatchObject({ maxUses: 2, usedCount: 2 });
    const { user } = await shopperWithPlant();
    expect(await refusalOf(apply(user, "USED2"))).toBe(m.usedUp);
  });

  it("never lets total uses fall below the uses counted while checkouts race the edit: 12 shoppers at once for 10 uses, the owner lowering it to 4 meanwhile", async () => {
    const made = await makeCoupon({ code: "RACEEDIT", value: "20", maxUses: "10" });
    const plant = await createProduct(app.database.db, { price_paise: 50_000, stock: 1000 });
    const shoppers: SessionUser[] = [];
    for (let i = 0; i < 12; i++) {
      const user = await shopper();
      await app.services.cart.addToCart(user, { productId: plant.id });
      await apply(user, "RACEEDIT");
      shoppers.push(user);
    }
    const [editing, ...checkouts] = await Promise.allSettled([edit(made.id, { maxUses: "4" }), ...shoppers.map((user) => app.services.orders.placeOrder(user, checkoutInput()))]);
    // Every refusal is one of the two a person is shown, never an error of the database's check.
    for (const r of checkouts) if (r.status === "rejected") expect(r.reason).toMatchObject({ status: 409, message: m.usedUp });
    const { coupon } = await app.services.coupons.getCouponForEditing(owner, made.id);
    const placed = checkouts.filter((r) => r.status === "fulfilled").length;
    expect(coupon.usedCount).toBe(placed);
    // Whichever came first, the limit in force was kept: 4 uses when the edit won, 10 when enough uses were counted first.
    if (editing.status === "fulfilled") {
      expect([coupon.maxUses, placed]).toEqual([4, 4]);
    } else {
      const refusal = editing.reason as { status: number; message: string };
      const used = Number(/used (\d+) times/.exec(refusal.message)?.[1]);
      expect(used).toBeGreaterThan(4);
      expect(refusal).toMatchObject({ status: 409, message: m.maxUsesBelowUsed(used) });
      expect([coupon.maxUses, placed]).toEqual([10, 10]);
    }
  }, 120_000);

  it("changes the discount of a cart holding the code at its next read, and never an order already placed", async () => {
    const made = await makeCoupon({ code: "GROWING", value: "10" });
    const { user: ordered } = await shopperWithPlant(100_000);
    await apply(ordered, "GROWING");
    const order = await app.services.orders.placeOrder(ordered, checkoutInput());
    const { user: waiting } = await shopperWithPlant(100_000);
    await apply(waiting, "GROWING");
    expect((await app.services.cart.getCart(waiting)).discountPaise).toBe(10_000);

    await edit(made.id, { value: "25" });
    expect(await app.services.cart.getCart(waiting)).toMatchObject({ discountPaise: 25_000, totalPaise: 77_000, coupon: { code: "GROWING", problem: null } });
    expect(await app.services.orders.getOrder(ordered, order.id)).toMatchObject({ couponCode: "GROWING", discountPaise: 10_000, totalPaise: 92_000 });
    // Renamed: the cart shows the new text, the order keeps the one it was placed with.
    await edit(made.id, { code: "GROWN" });
    expect((await app.services.cart.getCart(waiting)).coupon).toMatchObject({ code: "GROWN" });
    expect((await app.services.orders.getOrder(ordered, order.id)).couponCode).toBe("GROWING");
  });
});

describe("the owner's list", () => {
  /** Every page from the first, following nextCursor. */
  async function allPages() {
    const pages = [await app.services.coupons.listCoupons(owner)];
    while (pages.at(-1)!.nextCursor) pages.push(await app.services.coupons.listCoupons(owner, { after: pages.at(-1)!.nextCursor }));
    return pages;
  }

  it("is paged newest first, 50 a page, Next and Previous by cursor, with no code shown twice or missed at the page boundaries", async () => {
    for (let i = 0; i < 100; i++) await makeCoupon({ code: `PAGED${String(i).padStart(3, "0")}` });
    const newestFirst = (await app.database.db.selectFrom("coupons").select("code").orderBy("created_at", "desc").orderBy("id", "desc").execute()).map((r) => r.code);

    // Exactly two pages: the second says there is none after it.
    let pages = await allPages();
    expect(pages.map((p) => p.coupons.length)).toEqual([50, 50]);
    expect(pages.map((p) => [p.previousCursor === null, p.nextCursor === null])).toEqual([[true, false], [false, true]]);
    expect(pages.flatMap((p) => p.coupons.map((c) => c.code))).toEqual(newestFirst);

    // One more: three pages, the newest first on page one, the oldest alone on page three.
    await makeCoupon({ code: "NEWEST" });
    pages = await allPages();
    expect(pages.map((p) => p.coupons.length)).toEqual([50, 50, 1]);
    expect(pages[0]!.coupons[0]!.code).toBe("NEWEST");
    expect(pages[2]!.coupons.map((c) => c.code)).toEqual([newestFirst.at(-1)]);
    // Previous from the last page is the middle page again, and from there the first.
    const middle = await app.services.coupons.listCoupons(owner, { before: pages[2]!.previousCursor });
    expect(middle.coupons.map((c) => c.code)).toEqual(pages[1]!.coupons.map((c) => c.code));
    const first = await app.services.coupons.listCoupons(owner, { before: middle.previousCursor });
    expect(first.coupons.map((c) => c.code)).toEqual(pages[0]!.coupons.map((c) => c.code));
    expect(first.previousCursor).toBeNull();
    expect(first.nextCursor).not.toBeNull();
  }, 60_000);

  it("answers a made-up cursor with 400 and its message, and reads an empty one as the first page", async () => {
    await makeCoupon({ code: "ONLYONE" });
    expect((await app.services.coupons.listCoupons(owner, { after: "", before: "" })).coupons.map((c) => c.code)).toEqual(["ONLYONE"]);
    for (const after of ["not-a-cursor", Buffer.from(JSON.stringify(["2030-02-30T00:00:00.000Z", "x"])).toString("base64url"), "a b"]) {
      await expect(app.services.coupons.listCoupons(owner, { after })).rejects.toMatchObject({ status: 400, message: m.cursorInvalid });
    }
  });
});

describe("applying a code in the cart", () => {
  it("shows a Discount in the summary and takes it off the total; removing the code takes it away", async () => {
    await makeCoupon({ code: "TENOFF", kind: "amount", value: "100" });
    const { user } = await shopperWithPlant(100_000);
    await apply(user, "tenoff");
    expect(await app.services.cart.getCart(user)).toMatchObject({ subtotalPaise: 100_000, discountPaise: 10_000, shippingPaise: 2000, totalPaise: 92_000, coupon: { code: "TENOFF", problem: null } });
    await app.services.cart.removeCoupon(user);
    expect(await app.services.cart.getCart(user)).toMatchObject({ discountPaise: 0, totalPaise: 102_000, coupon: null });
  });

  it("refuses each reason with its own message", async () => {
    const category = await createCategory(app.database.db);
    await makeCoupon({ code: "PAUSED" }).then((c) => app.services.coupons.setCouponPaused(owner, c.id, { paused: true }));
    await makeCoupon({ code: "OLD", endsAt: "2001-01-01T00:00" });
    await makeCoupon({ code: "LATER", startsAt: "2099-01-01T10:00" });
    await makeCoupon({ code: "BIGCART", minSubtotal: "1500" });
    await makeCoupon({ code: "ONEUSE", maxUses: "1" });
    await makeCoupon({ code: "ONCEEACH", oncePerCustomer: true });
    await makeCoupon({ code: "OTHERCAT", categoryIds: [category.id] });

    const { user } = await shopperWithPlant(100_000);
    expect(await refusalOf(apply(user, "NOSUCH"))).toBe(m.unknown);
    expect(await refusalOf(apply(user, "paused"))).toBe(m.unknown);
    expect(await refusalOf(apply(user, "OLD"))).toBe(m.expired);
    expect(await refusalOf(apply(user, "LATER"))).toBe(m.notYetValid("1 Jan 2099, 10:00 am"));
    expect(await refusalOf(apply(user, "BIGCART"))).toBe("Add Rs. 500.00 more to your cart to use that discount code.");
    expect(await refusalOf(apply(user, "OTHERCAT"))).toBe(m.nothingApplies);
    expect(await refusalOf(apply(null, "ONEUSE"))).toBe(m.loginToApply);
    expect(await refusalOf(apply(user, ""))).toBe(m.codeRequired);

    // Used up by another shopper's order; used already by this shopper.
    const { user: first } = await shopperWithPlant(100_000);
    await apply(first, "ONEUSE");
    await apply(first, "ONCEEACH");
    expect(await refusalOf(apply(first, "ONEUSE"))).toBe("applied");
    await app.services.cart.removeCoupon(first);
    await apply(first, "ONEUSE");
    await app.services.orders.placeOrder(first, checkoutInput());
    expect(await refusalOf(apply(user, "ONEUSE"))).toBe(m.usedUp);
    const { user: again } = await shopperWithPlant(100_000);
    await apply(again, "ONCEEACH");
    await app.services.orders.placeOrder(again, checkoutInput());
    await app.services.cart.addToCart(again, { productId: (await createProduct(app.database.db)).id });
    expect(await refusalOf(apply(again, "ONCEEACH"))).toBe(m.alreadyUsed);
    expect((await app.services.cart.getCart(user)).coupon).toBeNull();
  });

  it("takes a category-limited code off those lines only, never the whole cart", async () => {
    const ferns = await createCategory(app.database.db);
    await makeCoupon({ code: "FERNS50", value: "50", categoryIds: [ferns.id] });
    const { user } = await shopperWithPlant(30_000, 1);
    const fern = await createProduct(app.database.db, { price_paise: 10_001, stock: 5, category_id: ferns.id });
    await app.services.cart.addToCart(user, { productId: fern.id, quantity: 2 });
    await apply(user, "FERNS50");
    // 50% of the ferns' Rs. 200.02 only (Rs. 100.01), not of the whole Rs. 500.02.
    expect(await app.services.cart.getCart(user)).toMatchObject({ subtotalPaise: 50_002, discountPaise: 10_001, totalPaise: 50_002 - 10_001 + 2000 });
    const order = await app.services.orders.placeOrder(user, checkoutInput());
    expect(order).toMatchObject({ couponCode: "FERNS50", discountPaise: 10_001, totalPaise: 50_002 - 10_001 + 2000 });
  });

  it("takes a code limited to two categories off both categories' lines, not a third's, in the cart and the order alike", async () => {
    const [ferns, palms, cacti] = [await createCategory(app.database.db), await createCategory(app.database.db), await createCategory(app.database.db)];
    await makeCoupon({ code: "GREEN10", value: "10", categoryIds: [ferns.id, palms.id] });
    const user = await shopper();
    for (const [category, price] of [[ferns, 10_000], [palms, 20_000], [cacti, 40_000]] as const) {
      const plant = await createProduct(app.database.db, { price_paise: price, stock: 5, category_id: category.id });
      await app.services.cart.addToCart(user, { productId: plant.id });
    }
    await apply(user, "GREEN10");
    // 10% of the fern's and the palm's Rs. 300.00 (Rs. 30.00), nothing of the cactus's Rs. 400.00.
    expect(await app.services.cart.getCart(user)).toMatchObject({ subtotalPaise: 70_000, discountPaise: 3000, totalPaise: 70_000 - 3000 + 2000 });
    expect(await app.services.orders.placeOrder(user, checkoutInput())).toMatchObject({ couponCode: "GREEN10", discountPaise: 3000, totalPaise: 70_000 - 3000 + 2000 });
  });

  it("answers an apply with the same cart a read of it gives afterwards: lines, discount, shipping, total and fingerprint", async () => {
    await makeCoupon({ code: "SAME10", value: "10" });
    const { user } = await shopperWithPlant(45_000, 2);
    const answered = await apply(user, "SAME10");
    expect(answered).toMatchObject({ discountPaise: 9000, coupon: { code: "SAME10", problem: null } });
    expect(answered).toEqual(await app.services.cart.getCart(user));
  });

  it("rounds a percentage of the eligible subtotal half-up to the paisa, the same in the cart and the order", async () => {
    await makeCoupon({ code: "FIFTEEN", value: "15" });
    const { user } = await shopperWithPlant(333, 1); // 15% of Rs. 3.33 is 49.95 paise
    await apply(user, "FIFTEEN");
    expect((await app.services.cart.getCart(user)).discountPaise).toBe(50);
    expect((await app.services.orders.placeOrder(user, checkoutInput())).discountPaise).toBe(50);
  });

  it("never takes off more than the cart holds: a total is never below the shipping", async () => {
    await makeCoupon({ code: "HUGE", kind: "amount", value: "5000" });
    const { user } = await shopperWithPlant(12_000);
    await apply(user, "HUGE");
    expect(await app.services.cart.getCart(user)).toMatchObject({ discountPaise: 12_000, totalPaise: 2000 });
    expect(await app.services.orders.placeOrder(user, checkoutInput())).toMatchObject({ subtotalPaise: 12_000, discountPaise: 12_000, shippingPaise: 2000, totalPaise: 2000 });
  });

  it("shows a code that stopped applying with its reason, and the checkout refuses the order until it is removed", async () => {
    await makeCoupon({ code: "MIN500", kind: "amount", value: "50", minSubtotal: "500" });
    const { user, plant } = await shopperWithPlant(60_000);
    await apply(user, "MIN500");
    const line = (await app.services.cart.getCart(user)).lines[0]!;
    await setSelling(app.database.db, plant.id, { price_paise: 40_000 });
    expect(await app.services.cart.getCart(user)).toMatchObject({ discountPaise: 0, coupon: { code: "MIN500", problem: "Add Rs. 100.00 more to your cart to use that discount code." } });
    await expect(app.services.orders.placeOrder(user, checkoutInput())).rejects.toMatchObject({ status: 409, message: "Add Rs. 100.00 more to your cart to use that discount code." });
    await app.services.cart.removeCoupon(user);
    expect((await app.services.orders.placeOrder(user, checkoutInput())).lines[0]!.quantity).toBe(line.quantity);
  });

  it("counts every try against the guessing limit: 40 an hour per account, then a clear refusal", async () => {
    const { user } = await shopperWithPlant();
    for (let i = 0; i < 40; i++) expect(await refusalOf(apply(user, `GUESS${i}`))).toBe(m.unknown);
    await expect(apply(user, "GUESS40")).rejects.toMatchObject({ status: 429, message: expect.stringContaining(m.tooManyGuesses) });
    // Another account is not held back.
    const { user: other } = await shopperWithPlant();
    expect(await refusalOf(apply(other, "GUESS0"))).toBe(m.unknown);
  });
});

describe("checking out with a code", () => {
  it("stores the code and the discount on the order, total = subtotal − discount + shipping, counts the use and clears the code from the cart", async () => {
    const made = await makeCoupon({ code: "WELCOME", kind: "amount", value: "150.50" });
    const { user } = await shopperWithPlant(100_000, 2);
    await apply(user, "WELCOME");
    const shown = await app.services.cart.getCart(user);
    const order = await app.services.orders.placeOrder(user, { ...checkoutInput(), cartFingerprint: shown.fingerprint });
    expect(order).toMatchObject({ subtotalPaise: 200_000, discountPaise: 15_050, couponCode: "WELCOME", shippingPaise: 2000, totalPaise: 200_000 - 15_050 + 2000 });
    expect(await app.services.orders.getOrder(user, order.id)).toMatchObject({ discountPaise: 15_050, couponCode: "WELCOME", totalPaise: shown.totalPaise });
    expect((await app.services.coupons.listCoupons(owner)).coupons.find((c) => c.id === made.id)?.usedCount).toBe(1);
    await app.services.cart.addToCart(user, { productId: (await createProduct(app.database.db)).id });
    expect((await app.services.cart.getCart(user)).coupon).toBeNull();
  });

  it("refuses (CART_CHANGED) an order whose page showed the cart before the code was applied: never a total other than the one shown", async () => {
    await makeCoupon({ code: "LATE", kind: "amount", value: "10" });
    const { user } = await shopperWithPlant(100_000);
    const before = await app.services.cart.getCart(user);
    await apply(user, "LATE");
    await expect(app.services.orders.placeOrder(user, { ...checkoutInput(), cartFingerprint: before.fingerprint })).rejects.toMatchObject({ status: 409, code: ERROR_CODES.cartChanged });
  });

  it("never uses a code more often than its limit: 50 shoppers at once for 10 uses make exactly 10 orders carrying it", async () => {
    const made = await makeCoupon({ code: "RACE10", value: "20", maxUses: "10" });
    const plant = await createProduct(app.database.db, { price_paise: 50_000, stock: 1000 });
    const shoppers: SessionUser[] = [];
    for (let i = 0; i < 50; i++) {
      const user = await shopper();
      await app.services.cart.addToCart(user, { productId: plant.id });
      await apply(user, "RACE10");
      shoppers.push(user);
    }
    const results = await Promise.allSettled(shoppers.map((user) => app.services.orders.placeOrder(user, checkoutInput())));
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const r of refused) expect(r.reason).toMatchObject({ status: 409, message: m.usedUp });
    const carrying = await app.database.db.selectFrom("orders").select("discount_paise").where("coupon_code", "=", "RACE10").execute();
    expect(carrying.map((o) => Number(o.discount_paise))).toEqual(Array(10).fill(10_000));
    expect((await app.services.coupons.listCoupons(owner)).coupons.find((c) => c.id === made.id)?.usedCount).toBe(10);
    // One use row per order carrying the code, none for a refused checkout (its order's writes rolled back with it).
    expect(await app.database.db.selectFrom("coupon_uses").select("order_id").where("coupon_id", "=", made.id).execute()).toHaveLength(10);
    // The refused shoppers' carts and codes are as they were.
    expect((await app.services.cart.getCart(shoppers.find((_, i) => results[i]!.status === "rejected")!)).coupon).toMatchObject({ code: "RACE10", problem: m.usedUp });
  }, 120_000);

  it("gives a use back when its order is cancelled, and lets a once-per-customer shopper use the code again", async () => {
    const made = await makeCoupon({ code: "ONCE", maxUses: "1", oncePerCustomer: true });
    const { user, plant } = await shopperWithPlant(100_000);
    await apply(user, "ONCE");
    const order = await app.services.orders.placeOrder(user, checkoutInput());
    await app.services.cart.addToCart(user, { productId: plant.id });
    expect(await refusalOf(apply(user, "ONCE"))).toBe(m.usedUp);
    await app.services.orders.cancelOrder(user, order.id);
    expect((await app.services.coupons.listCoupons(owner)).coupons.find((c) => c.id === made.id)?.usedCount).toBe(0);
    await apply(user, "ONCE");
    expect(await app.services.orders.placeOrder(user, checkoutInput())).toMatchObject({ couponCode: "ONCE", discountPaise: 10_000 });
  });
});

describe("free shipping above FREE_SHIPPING_ABOVE_PAISE", () => {
  it("ships free at or above the threshold (after the discount) and says how much more below it; the order keeps no shipping", async () => {
    await app.cleanup();
    app = await createTestApp({ FREE_SHIPPING_ABOVE_PAISE: "50000" });
    owner = await createShopper(app.database.db, app.database.dialect, { isAdmin: true });
    const { user: below } = await shopperWithPlant(18_000);
    expect(await app.services.cart.getCart(below)).toMatchObject({ shippingPaise: 2000, freeShippingMorePaise: 32_000, totalPaise: 20_000 });
    const { user: at } = await shopperWithPlant(50_000);
    expect(await app.services.cart.getCart(at)).toMatchObject({ shippingPaise: 0, freeShippingMorePaise: null, totalPaise: 50_000 });
    expect(await app.services.orders.placeOrder(at, checkoutInput())).toMatchObject({ shippingPaise: 0, totalPaise: 50_000 });
    // A discount that takes the subtotal below the threshold brings the fee back.
    await makeCoupon({ code: "ONEOFF", kind: "amount", value: "1" });
    const { user: discounted } = await shopperWithPlant(50_000);
    await apply(discounted, "ONEOFF");
    expect(await app.services.cart.getCart(discounted)).toMatchObject({ discountPaise: 100, shippingPaise: 2000, freeShippingMorePaise: 100, totalPaise: 51_900 });
  });
});
