import { describe, expect, it } from "vitest";
import { createCouponSchema } from "./coupon-schemas.ts";

describe("createCouponSchema", () => {
  it("reads the owner's form as posted, its empty optional fields as not given", () => {
    const form = { intent: "create", code: "fern-10", kind: "amount", value: "99.50", minSubtotal: "", startsAt: "", endsAt: "", maxUses: "" };
    expect(createCouponSchema.parse(form)).toEqual({ code: "FERN-10", kind: "amount", amount: 9950, oncePerCustomer: false, categoryIds: [] });
  });

  it("reads a filled form: rupees as paise, a whole percentage, a checkbox and one or many categories", () => {
    const parsed = createCouponSchema.parse({ code: "x10", kind: "percent", value: "10", minSubtotal: "1,500", maxUses: "25", oncePerCustomer: "on", categoryIds: "cat-1", startsAt: "2030-01-01T10:00" });
    expect(parsed).toMatchObject({ amount: 10, minSubtotal: 150_000, maxUses: 25, oncePerCustomer: true, categoryIds: ["cat-1"], startsAt: "2030-01-01T10:00" });
  });
});
