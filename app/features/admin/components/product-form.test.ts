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
