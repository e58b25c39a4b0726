import { describe, expect, it } from "vitest";
import { adminMessages } from "#common/admin/admin-messages.ts";
import { newProductFormSchema, productFormSchema } from "#common/admin/admin-schemas.ts";
import { productInputFromForm } from "./product-form.tsx";

// The product form is checked twice on the same input: in the browser before it is sent, and by the service the
// page's action calls. Both read the posted fields with productInputFromForm.

const m = adminMessages.productForm;

/** The fields an empty form posts: every text field empty, no picture chosen (a picture is a hidden input once uploaded). */
function emptyForm(extra: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const name of ["name", "description", "price", "categoryDescription", "category", "stock"]) form.set(name, "");
  for (const [name, value] of Object.entries(extra)) form.append(name, value);
  return form;
}

const messagesByField = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } | undefined }) => {
  const found: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) found[String(issue.path[0])] ??= issue.message;
  return found;
};

describe("the product form, read as it is posted", () => {
  it("an empty Add Product form gets all six messages at once, the picture's among them", () => {
    expect(messagesByField(newProductFormSchema.safeParse(productInputFromForm(emptyForm())))).toEqual({
      name: m.nameRequired,
      description: m.descriptionRequired,
      price: m.priceRequired,
      stock: m.stockRequired,
      category: m.categoryRequired,
      images: m.imagesRequired,
    });
  });

  it("an emptied Update Product form with its pictures removed gets the five messages of its text fields, none for the pictures", () => {
    expect(messagesByField(productFormSchema.safeParse(productInputFromForm(emptyForm({ stockBefore: "4" }))))).toEqual({
      name: m.nameRequired,
      description: m.descriptionRequired,
      price: m.priceRequired,
      stock: m.stockRequired,
      category: m.categoryRequired,
    });
  });

  it("reads every picture posted under `images`, in order, so the check sees the whole list", () => {
    const form = emptyForm({ images: "image:a" });
    form.append("images", "upload:b");
    expect(productInputFromForm(form).images).toEqual(["image:a", "upload:b"]);
  });
});

describe("the product form's sizes, read as they are posted", () => {
  it("zips the rows' fields back into sizes, in the rows' order, with an empty id for a new size", () => {
    const form = emptyForm();
    form.delete("price");
    form.delete("stock");
    for (const [id, label, sku, price, compareAt, stock, stockBefore] of [
      ["v-large", 'Large · 10" pot', "FIG-L", "3800", "", "5", "5"],
      ["", 'Small · 6" pot', "FIG-S", "900", "1200", "7", ""],
    ] as const) {
      form.append("sizeId", id);
      form.append("sizeLabel", label);
      form.append("sizeSku", sku);
      form.append("sizePrice", price);
      form.append("sizeCompareAt", compareAt);
      form.append("sizeStock", stock);
      form.append("sizeStockBefore", stockBefore);
    }
    const input = productInputFromForm(form);
    expect(input.price).toBeUndefined();
    expect(input.variants).toEqual([
      { id: "v-large", label: 'Large · 10" pot', sku: "FIG-L", price: "3800", compareAt: "", stock: "5", stockBefore: "5" },
      { id: undefined, label: 'Small · 6" pot', sku: "FIG-S", price: "900", compareAt: "1200", stock: "7", stockBefore: undefined },
    ]);
    // Without its one price and stock, the form's only messages are its own text fields'.
    expect(messagesByField(productFormSchema.safeParse(input))).toEqual({ name: m.nameRequired, description: m.descriptionRequired, category: m.categoryRequired });
  });

  it("a form without size rows posts no sizes: the one-size form as it was", () => {
    expect(productInputFromForm(emptyForm()).variants).toBeUndefined();
  });
});
