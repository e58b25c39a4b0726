import { describe, expect, it } from "vitest";
import { adminMessages } from "./admin-messages.ts";
import { productFormSchema } from "./admin-schemas.ts";

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
