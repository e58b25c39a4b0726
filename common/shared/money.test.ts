import { describe, expect, it } from "vitest";
import { formatPrice, formatPriceExact, parseRupees, sumPaise } from "./money.ts";

describe("formatPrice", () => {
  it("shows whole rupees with Indian digit grouping", () => {
    expect(formatPrice(150000)).toBe("Rs. 1,500");
    expect(formatPrice(50000)).toBe("Rs. 500");
    expect(formatPrice(12345600)).toBe("Rs. 1,23,456");
    expect(formatPrice(0)).toBe("Rs. 0");
  });
  it("shows paise only when there are some", () => {
    expect(formatPrice(149950)).toBe("Rs. 1,499.50");
    expect(formatPrice(5)).toBe("Rs. 0.05");
  });
  it("refuses fractions of a paisa", () => {
    expect(() => formatPrice(1.5)).toThrow(RangeError);
  });
});

describe("formatPriceExact", () => {
  it("always shows two decimals", () => {
    expect(formatPriceExact(2000)).toBe("Rs. 20.00");
    expect(formatPriceExact(150000)).toBe("Rs. 1,500.00");
    expect(formatPriceExact(99)).toBe("Rs. 0.99");
  });
});

describe("parseRupees", () => {
  it("turns typed amounts into paise", () => {
    expect(parseRupees("1500")).toBe(150000);
    expect(parseRupees("1,500")).toBe(150000);
    expect(parseRupees("1499.5")).toBe(149950);
    expect(parseRupees(" 20.00 ")).toBe(2000);
    expect(parseRupees("0.07")).toBe(7);
  });
  it("reads Indian and international digit grouping alike", () => {
    expect(parseRupees("1,00,000")).toBe(10_000_000);
    expect(parseRupees("12,34,567.50")).toBe(123_456_750);
    expect(parseRupees("1,234,567")).toBe(123_456_700);
  });
  it("rejects what is not an amount", () => {
    for (const text of ["", "abc", "-5", "1.234", "1e3", "12..0"]) expect(parseRupees(text)).toBeNull();
  });
  it("rejects a comma that groups no digits the Indian or the international way, such as a decimal comma", () => {
    for (const text of ["10,00", "1,5", "1,0000", ",500", "1,000,00", "1,00,00", "1,,000", "1500,"]) expect(parseRupees(text)).toBeNull();
  });
});

describe("sumPaise", () => {
  it("adds integer amounts exactly", () => {
    expect(sumPaise([10, 20, 30])).toBe(60);
    expect(sumPaise([])).toBe(0);
  });
});
