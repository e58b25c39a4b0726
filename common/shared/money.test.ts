import { describe, expect, it } from "vitest";
import { formatPrice, formatPriceExact, paiseFromRupees, paiseToDecimal, paiseToRupeesInput, parseRupees, sumPaise } from "./money.ts";

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

describe("paiseToDecimal", () => {
  it("writes two decimals with a dot and no grouping or label, as schema.org's price wants", () => {
    expect(paiseToDecimal(152000)).toBe("1520.00");
    expect(paiseToDecimal(250000)).toBe("2500.00");
    expect(paiseToDecimal(12345678)).toBe("123456.78");
    expect(paiseToDecimal(149950)).toBe("1499.50");
    expect(paiseToDecimal(5)).toBe("0.05");
    expect(paiseToDecimal(0)).toBe("0.00");
  });
  it("gives the same text as dividing by a hundred and fixing two decimals, for every amount up to Rs. 1,000", () => {
    const differing: number[] = [];
    for (let paise = 0; paise <= 100_000; paise++) if (paiseToDecimal(paise) !== (paise / 100).toFixed(2)) differing.push(paise);
    expect(differing).toEqual([]);
  });
  it("refuses fractions of a paisa", () => {
    expect(() => paiseToDecimal(10.5)).toThrow(RangeError);
  });
});

describe("paiseToRupeesInput", () => {
  it("writes whole rupees as plain digits and paise after a dot, as the product form takes them", () => {
    expect(paiseToRupeesInput(150000)).toBe("1500");
    expect(paiseToRupeesInput(149950)).toBe("1499.50");
    expect(paiseToRupeesInput(100000000)).toBe("1000000");
    expect(paiseToRupeesInput(7)).toBe("0.07");
    expect(paiseToRupeesInput(0)).toBe("0");
  });
  it("is read back by parseRupees to the same paise", () => {
    for (const paise of [0, 1, 99, 100, 149950, 150000, 1_000_000_000]) expect(parseRupees(paiseToRupeesInput(paise))).toBe(paise);
  });
  it("refuses a negative amount or a fraction of a paisa", () => {
    expect(() => paiseToRupeesInput(-100)).toThrow(RangeError);
    expect(() => paiseToRupeesInput(1.5)).toThrow(RangeError);
  });
});

describe("paiseFromRupees", () => {
  it("turns whole rupees into paise", () => {
    expect(paiseFromRupees(1500)).toBe(150000);
    expect(paiseFromRupees(0)).toBe(0);
  });
  it("refuses a fraction of a rupee and an amount whose paise would not be exact", () => {
    expect(() => paiseFromRupees(1.5)).toThrow(RangeError);
    expect(() => paiseFromRupees(Number.MAX_SAFE_INTEGER)).toThrow(RangeError);
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
