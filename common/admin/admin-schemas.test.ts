import { describe, expect, it } from "vitest";
import { adminMessages } from "./admin-messages.ts";
import { productFormSchema, stockUpdateSchema } from "./admin-schemas.ts";

const m = adminMessages.productForm;
const form = { name: "Snake Plant", description: "Hardy.", price: "450", stock: "3", category: "Indoor" };
const problems = (input: unknown) => productFormSchema.safeParse(input).error?.issues.map(({ path, message }) => ({ path, message }));

describe("productFormSchema", () => {
  it("names the product form's own rule for a picture that is not one of the form's, and for a long category description", () => {
    expect(problems({ ...form, images: ["upload:ok", "elsewhere:x"] })).toEqual([{ path: ["images", 1], message: m.notAPicture }]);
    expect(problems({ ...form, categoryImage: "upload:ok", categoryDescription: "d".repeat(501) })).toEqual([
      { path: ["categoryDescription"], message: m.categoryDescriptionTooLong(500) },
    ]);
    expect(problems({ ...form, categoryImage: "upload:ok", categoryDescription: "d".repeat(500) })).toBeUndefined();
  });
});

describe("productFormSchema: price", () => {
  it("reads a JSON number price as the same amount typed in rupees", () => {
    expect(productFormSchema.parse({ ...form, price: 1499.5 }).price).toBe(149_950);
    expect(productFormSchema.parse({ ...form, price: 450 }).price).toBe(45_000);
  });
  it("refuses a price of 0 with its own message, typed or sent as a number", () => {
    for (const price of ["0", "0.00", 0]) expect(problems({ ...form, price })).toEqual([{ path: ["price"], message: m.priceZero }]);
  });
  it("refuses a decimal comma ('10,00') instead of reading it as a thousand rupees", () => {
    expect(problems({ ...form, price: "10,00" })).toEqual([{ path: ["price"], message: m.priceInvalid }]);
  });
  it("refuses a JSON number with a float's tail rather than rounding it", () => {
    expect(problems({ ...form, price: 0.1 + 0.2 })).toEqual([{ path: ["price"], message: m.priceInvalid }]);
  });
});

describe("stock limit", () => {
  it("lets a form keep a stock above the limit that cancelled orders brought back, and refuses setting one", () => {
    expect(productFormSchema.parse({ ...form, stock: "1000005", stockBefore: "1000005" }).stock).toBe(1_000_005);
    expect(problems({ ...form, stock: "1000006", stockBefore: "1000005" })).toEqual([{ path: ["stock"], message: m.stockTooLarge(1_000_000) }]);
    expect(problems({ ...form, stock: "1000001" })).toEqual([{ path: ["stock"], message: m.stockTooLarge(1_000_000) }]);
    expect(stockUpdateSchema.parse({ stock: 2_000_000, stockBefore: 2_000_000 }).stock).toBe(2_000_000);
    expect(stockUpdateSchema.safeParse({ stock: 2_000_000, stockBefore: 5 }).error?.issues.map((issue) => issue.message)).toEqual([m.stockTooLarge(1_000_000)]);
  });
});
