import { describe, expect, it } from "vitest";
import { nextSaleBoundary, priceAt, type SalePricing } from "./sale-price.ts";

const at = (iso: string) => Date.parse(iso);
const product = (overrides: Partial<SalePricing> = {}): SalePricing => ({
  pricePaise: 75_000,
  compareAtPaise: 100_000,
  saleStartsAt: null,
  saleEndsAt: null,
  ...overrides,
});
const window = { saleStartsAt: "2026-12-01T00:00:00.000Z", saleEndsAt: "2026-12-08T00:00:00.000Z" };

describe("priceAt", () => {
  it("charges the price and shows the compare-at price with a 25% saving when there is no window", () => {
    expect(priceAt(product(), at("2026-11-27T12:00:00Z"))).toEqual({ chargedPaise: 75_000, regularPaise: 100_000, savingPercent: 25, savingPaise: 25_000 });
  });

  it("charges the price alone when there is no compare-at price", () => {
    expect(priceAt(product({ compareAtPaise: null }), 0)).toEqual({ chargedPaise: 75_000, regularPaise: null, savingPercent: null, savingPaise: 0 });
  });

  it("ignores a compare-at price that is not above the price", () => {
    expect(priceAt(product({ compareAtPaise: 75_000 }), 0).regularPaise).toBeNull();
  });

  it("charges and shows the compare-at price alone before the window starts and from the moment it ends", () => {
    for (const now of ["2026-11-30T23:59:59.999Z", "2026-12-08T00:00:00.000Z", "2027-01-01T00:00:00Z"]) {
      expect(priceAt(product(window), at(now))).toEqual({ chargedPaise: 100_000, regularPaise: null, savingPercent: null, savingPaise: 0 });
    }
  });

  it("charges the sale price from the window's first instant to just before its end", () => {
    for (const now of ["2026-12-01T00:00:00.000Z", "2026-12-07T23:59:59.999Z"]) expect(priceAt(product(window), at(now)).chargedPaise).toBe(75_000);
  });

  it("rounds the saving down, so it never promises more than is taken off", () => {
    // 1 − 1,999 / 3,000 = 33.37 %: 'Save 33%'.
    expect(priceAt(product({ pricePaise: 199_900, compareAtPaise: 300_000 }), 0).savingPercent).toBe(33);
    // 1 − 1,000 / 1,999 = 49.97 %: 'Save 49%', not 50.
    expect(priceAt(product({ pricePaise: 100_000, compareAtPaise: 199_900 }), 0).savingPercent).toBe(49);
  });

  it("gives no percent for a saving under 1 %, so nothing reads 'Save 0%', but keeps the saving in paise", () => {
    expect(priceAt(product({ pricePaise: 149_900, compareAtPaise: 150_000 }), 0)).toEqual({ chargedPaise: 149_900, regularPaise: 150_000, savingPercent: null, savingPaise: 100 });
  });
});

describe("nextSaleBoundary", () => {
  it("is the window's start before it, its end during it, and none after it", () => {
    expect(nextSaleBoundary(product(window), at("2026-11-30T00:00:00Z"))).toBe(at(window.saleStartsAt));
    expect(nextSaleBoundary(product(window), at("2026-12-01T00:00:00Z"))).toBe(at(window.saleEndsAt));
    expect(nextSaleBoundary(product(window), at("2026-12-08T00:00:00Z"))).toBeNull();
  });

  it("is none without a compare-at price or without a window", () => {
    expect(nextSaleBoundary(product({ ...window, compareAtPaise: null }), 0)).toBeNull();
    expect(nextSaleBoundary(product(), 0)).toBeNull();
  });
});
