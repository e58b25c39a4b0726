import { describe, expect, it } from "vitest";
import { discountPaise, shippingFor } from "./discount.ts";

describe("discountPaise", () => {
  it("rounds a percentage of the eligible subtotal half-up to the paisa", () => {
    expect(discountPaise({ kind: "percent", amount: 15 }, 333)).toBe(50); // 49.95 → 50
    expect(discountPaise({ kind: "percent", amount: 15 }, 330)).toBe(50); // 49.5 → 50
    expect(discountPaise({ kind: "percent", amount: 15 }, 329)).toBe(49); // 49.35 → 49
    expect(discountPaise({ kind: "percent", amount: 10 }, 45_000)).toBe(4_500);
  });

  it("never exceeds what it applies to and is nothing when nothing applies", () => {
    expect(discountPaise({ kind: "amount", amount: 50_000 }, 12_000)).toBe(12_000);
    expect(discountPaise({ kind: "percent", amount: 100 }, 12_345)).toBe(12_345);
    expect(discountPaise({ kind: "amount", amount: 500 }, 0)).toBe(0);
  });

  it("is exact beyond the safe range of paise × percent", () => {
    expect(discountPaise({ kind: "percent", amount: 50 }, 2 ** 52 + 1)).toBe(2 ** 51 + 1);
  });
});

describe("shippingFor", () => {
  it("is free at or above the threshold and says how much more below it; never free without one", () => {
    expect(shippingFor(2000, 50_000, 50_000)).toEqual({ shippingPaise: 0, freeShippingMorePaise: null });
    expect(shippingFor(2000, 49_999, 50_000)).toEqual({ shippingPaise: 2000, freeShippingMorePaise: 1 });
    expect(shippingFor(2000, 10_000_000, null)).toEqual({ shippingPaise: 2000, freeShippingMorePaise: null });
  });
});
