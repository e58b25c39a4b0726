import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { messages } from "#common/shared/messages.ts";
import { ERROR_CODES } from "#common/shared/user-facing-error.ts";
import { createProduct } from "../../../tests/support/factories.ts";
import { checkoutInput, createShopper } from "../../../tests/support/shoppers.ts";
import { createTestApp, type TestApp } from "../../../tests/support/test-app.ts";
import { setTestClock } from "../../platform/clock.ts";
import type { SessionUser } from "../../platform/session-user.ts";
import { deliveryZoneFor } from "./index.ts";

const m = messages.delivery;
/** 10:00 in India on Monday 30 November 2026. */
const MONDAY_MORNING = Date.parse("2026-11-30T04:30:00Z");

let app: TestApp;
let owner: SessionUser;
beforeEach(async () => {
  app = await createTestApp({ SHIPPING_FEE_PAISE: "2000", FREE_SHIPPING_ABOVE_PAISE: "150000" });
  owner = await createShopper(app.database.db, app.database.dialect, { isAdmin: true });
});
afterEach(async () => {
  setTestClock(Date.now());
  await app.cleanup();
});

const delivery = () => app.services.delivery;
const makeZone = (fields: Record<string, string>) => delivery().createZone(owner, { fee: "20", daysMin: "2", daysMax: "4", codAllowed: "on", ...fields });
const shop = { shippingFeePaise: 2000, freeShippingAbovePaise: 150_000 };
const zoneNameOf = async (pin: string) => (await deliveryZoneFor(app.database.db, pin, shop))?.name ?? null;

/** A verified shopper with `quantity` of a new plant at `price_paise` in the cart. */
async function shopperWithPlant(price_paise: number, quantity = 1) {
  const plant = await createProduct(app.database.db, { price_paise, stock: 100 });
  const user = await createShopper(app.database.db, app.database.dialect);
  await app.services.cart.addToCart(user, { productId: plant.id, quantity });
  return user;
}
const order = (user: SessionUser, pin: string, extra: Record<string, unknown> = {}) => app.services.orders.placeOrder(user, { ...checkoutInput(), pin, ...extra });

describe("a PIN code's zone", () => {
  it("is the zone whose entry covering it covers the fewest PIN codes: a single code before a range, a range before a prefix, outside every zone none", async () => {
    await makeZone({ name: "Karnataka", areas: "560000-599999" });
    await makeZone({ name: "Bengaluru", areas: "560" });
    await makeZone({ name: "Koramangala", areas: "560034" });
    await makeZone({ name: "Mumbai", areas: "400001-400104, 4002" });
    expect(await zoneNameOf("560034")).toBe("Koramangala");
    expect(await zoneNameOf("560001")).toBe("Bengaluru");
    expect(await zoneNameOf("580001")).toBe("Karnataka");
    expect(await zoneNameOf("400104")).toBe("Mumbai");
    expect(await zoneNameOf("400250")).toBe("Mumbai");
    expect(await zoneNameOf("400105")).toBeNull();
    expect(await zoneNameOf("799001")).toBeNull();
    // An edit changes what it covers; a deletion gives the codes back to the wider zone.
    const koramangala = (await delivery().listZones(owner)).find((z) => z.name === "Koramangala")!;
    await delivery().updateZone(owner, koramangala.id, { name: "Koramangala", areas: "560035", fee: "10", daysMin: "1", daysMax: "2" });
    expect(await zoneNameOf("560034")).toBe("Bengaluru");
    expect(await zoneNameOf("560035")).toBe("Koramangala");
    await delivery().deleteZone(owner, koramangala.id);
    expect(await zoneNameOf("560035")).toBe("Bengaluru");
  });

  it("with no zone defined is 'All of India' at the flat fee and its free-shipping threshold, Cash on Delivery without limit", async () => {
    expect(await deliveryZoneFor(app.database.db, "799001", shop)).toEqual({
      id: null,
      name: m.allOfIndia,
      areas: ["100000-999999"],
      feePaise: 2000,
      freeAbovePaise: 150_000,
      daysMin: 3,
      daysMax: 7,
      codAllowed: true,
      codLimitPaise: null,
    });
    // The cart as it was before zones: the summary's shipping and threshold equal the order's.
    const user = await shopperWithPlant(100_000);
    const cart = await app.services.cart.getCart(user);
    const placed = await order(user, "799001", { shippingPaise: cart.shippingPaise });
    expect([cart.shippingPaise, placed.shippingPaise, placed.totalPaise]).toEqual([2000, 2000, 102_000]);
    const free = await shopperWithPlant(150_000);
    expect((await order(free, "110001")).shippingPaise).toBe(0);
  });
});

describe("the owner's zones and dispatch days", () => {
  it("refuse shoppers (403) and visitors (401) every operation", async () => {
    const zone = await makeZone({ name: "Bengaluru", areas: "560" });
    const user = await createShopper(app.database.db, app.database.dialect);
    for (const viewer of [user, null]) {
      const status = viewer ? 403 : 401;
      await expect(delivery().listZones(viewer)).rejects.toMatchObject({ status });
      await expect(delivery().createZone(viewer, { name: "Mine", areas: "1", fee: "0", daysMin: "1", daysMax: "1" })).rejects.toMatchObject({ status });
      await expect(delivery().updateZone(viewer, zone.id, { name: "Mine", areas: "1", fee: "0", daysMin: "1", daysMax: "1" })).rejects.toMatchObject({ status });
      await expect(delivery().deleteZone(viewer, zone.id)).rejects.toMatchObject({ status });
      await expect(delivery().getZoneForEditing(viewer, zone.id)).rejects.toMatchObject({ status });
      await expect(delivery().getDispatchDays(viewer)).rejects.toMatchObject({ status });
      await expect(delivery().setDispatchDays(viewer, { closedWeekdays: ["0"], holidays: "" })).rejects.toMatchObject({ status });
    }
    expect((await delivery().listZones(owner)).map((z) => [z.name, z.feePaise])).toEqual([["Bengaluru", 2000]]);
  });

  it("say which entry is wrong, and keep zone names unique", async () => {
    await expect(makeZone({ name: "Bad", areas: "560,\n5600011, 400104-400001" })).rejects.toMatchObject({
      status: 400,
      fieldErrors: { areas: `${m.areaInvalid("5600011")}. ${m.areaBackwards("400104-400001")}` },
    });
    await makeZone({ name: "Bengaluru", areas: "560" });
    await expect(makeZone({ name: "Bengaluru", areas: "561" })).rejects.toMatchObject({ status: 409, message: m.nameTaken });
    await expect(delivery().setDispatchDays(owner, { holidays: "2026-12-25\n2026-02-30" })).rejects.toMatchObject({ status: 400, fieldErrors: { holidays: m.holidayInvalid("2026-02-30") } });
  });
});

describe("checking delivery to a PIN code", () => {
  it("answers in words with the day it arrives by, counted on dispatch days from today on the shop's clock, skipping a closed weekday and a holiday", async () => {
    setTestClock(MONDAY_MORNING);
    await makeZone({ name: "Bengaluru", areas: "560", fee: "20", daysMax: "3" });
    await makeZone({ name: "Karnataka", areas: "56,57,58,59", fee: "80", codLimit: "2000" });
    expect((await delivery().checkDelivery({ pin: "560001" })).text).toBe("Delivers to 560001 by Thu, 3 Dec · Shipping Rs. 20.00 · Cash on Delivery available");
    expect((await delivery().checkDelivery({ pin: " 580001 " })).text).toBe("Delivers to 580001 by Fri, 4 Dec · Shipping Rs. 80.00 · Cash on Delivery up to Rs. 2,000.00");
    expect(await delivery().checkDelivery({ pin: "799001" })).toEqual({ pin: "799001", delivers: false, text: "We don't deliver to 799001 yet." });
    // Tuesdays closed and Wednesday 2 December a holiday: three dispatch days are Thu 3, Fri 4, Sat 5.
    await delivery().setDispatchDays(owner, { closedWeekdays: "2", holidays: "2026-12-02" });
    expect((await delivery().checkDelivery({ pin: "560001" })).text).toContain("by Sat, 5 Dec");
    expect(await delivery().getDispatchDays(owner)).toEqual({ closedWeekdays: [2], holidays: ["2026-12-02"] });
  });

  it("refuses what is not a PIN code with a clear message", async () => {
    for (const pin of ["", "056001", "56001", "5600011", "56000a"]) {
      await expect(delivery().checkDelivery({ pin })).rejects.toMatchObject({ status: 400, fieldErrors: { pin: pin ? m.pinInvalid : m.pinRequired } });
    }
  });
});

describe("the checkout", () => {
  beforeEach(async () => {
    await makeZone({ name: "Bengaluru", areas: "560", fee: "20" });
    await makeZone({ name: "Karnataka", areas: "560000-599999", fee: "80", freeAbove: "1500", codLimit: "2000" });
    await makeZone({ name: "No cash", areas: "110", fee: "50", codAllowed: "" });
  });

  it("charges the shipping of the PIN code's zone, free above that zone's threshold, and stores the PIN code with the order", async () => {
    const bengaluru = await order(await shopperWithPlant(100_000), "560001");
    expect([bengaluru.shippingPaise, bengaluru.totalPaise]).toEqual([2000, 102_000]);
    const karnataka = await order(await shopperWithPlant(100_000), "580001");
    expect([karnataka.shippingPaise, karnataka.totalPaise]).toEqual([8000, 108_000]);
    const freeUser = await shopperWithPlant(80_000, 2);
    // The summary the page shows for that zone agrees with the order.
    const summary = await app.services.cart.getCart(freeUser, { feePaise: 8000, freeAbovePaise: 150_000 });
    const free = await order(freeUser, "580001", { shippingPaise: summary.shippingPaise, cartFingerprint: summary.fingerprint });
    expect([summary.shippingPaise, free.shippingPaise]).toEqual([0, 0]);
    const stored = await app.database.db.selectFrom("orders").select("ship_pin").where("id", "=", karnataka.id).executeTakeFirstOrThrow();
    expect(stored.ship_pin).toBe("580001");
  });

  it("refuses a PIN code outside every zone, and shipping other than the page showed, before anything is ordered", async () => {
    const user = await shopperWithPlant(100_000);
    await expect(order(user, "799001")).rejects.toMatchObject({ status: 409, fieldErrors: { pin: m.notDelivered("799001") } });
    await expect(order(user, "580001", { shippingPaise: "2000" })).rejects.toMatchObject({ status: 409, code: ERROR_CODES.cartChanged, message: m.shippingChanged("580001", "Rs. 80.00") });
    expect(await app.database.db.selectFrom("orders").select("id").execute()).toEqual([]);
  });

  it("refuses Cash on Delivery where the zone does not take it and above its limit, saying why", async () => {
    await expect(order(await shopperWithPlant(100_000), "110001")).rejects.toMatchObject({ status: 409, message: "Cash on Delivery is not available for 110001.", fieldErrors: { payment: m.codRefusedHere("110001") } });
    // Rs. 1,000 + Rs. 80 shipping is under the Rs. 2,000 limit, and so is Rs. 2,000 (shipping free above Rs. 1,500); Rs. 2,010 is over.
    expect((await order(await shopperWithPlant(100_000), "580001")).totalPaise).toBe(108_000);
    expect((await order(await shopperWithPlant(200_000), "580001")).totalPaise).toBe(200_000);
    await expect(order(await shopperWithPlant(201_000), "580001")).rejects.toMatchObject({ status: 409, message: "Cash on Delivery is available up to Rs. 2,000.00 in this area." });
  });

  it("requires a PIN code and checks it", async () => {
    const user = await shopperWithPlant(100_000);
    const { pin: _left, ...withoutPin } = checkoutInput();
    await expect(app.services.orders.placeOrder(user, withoutPin)).rejects.toMatchObject({ status: 400, fieldErrors: { pin: m.pinRequired } });
    await expect(order(user, "05600")).rejects.toMatchObject({ status: 400, fieldErrors: { pin: m.pinInvalid } });
  });

  it("saves the PIN code with the delivery details on the profile when asked", async () => {
    const user = await shopperWithPlant(100_000);
    await order(user, "560001", { saveToProfile: "on" });
    const profile = await app.services.profiles.getProfile(user, user.id);
    expect(profile).toMatchObject({ pin: "560001" });
  });
});
