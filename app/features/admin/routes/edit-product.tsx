import { redirect, type ShouldRevalidateFunctionArgs } from "react-router";
import { adminMessages } from "#common/admin/admin-messages.ts";
import { paiseToRupeesInput } from "#common/shared/money.ts";
import { AdminNav } from "../components/admin-nav.tsx";
import { ImagesField } from "../components/images-field.tsx";
import { ProductForm, productInputFromForm } from "../components/product-form.tsx";
import { readForm } from "../../../shared/lib/forms.ts";
import { actionResult, loadOr404, loadOrRefuse } from "../../../shared/lib/service-errors.ts";
import { requireAdmin } from "../../../shared/lib/session.ts";
import { privatePageMeta } from "../../../shared/lib/seo.ts";
import type { Route } from "./+types/edit-product";

export const meta: Route.MetaFunction = ({ matches }) => privatePageMeta(matches, adminMessages.productForm.updateHeading);

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const admin = requireAdmin(context, request);
  const [product, categoryNames] = await Promise.all([
    loadOr404(() => context.services.adminCatalog.getProductForEdit(admin, params)),
    loadOrRefuse(() => context.services.adminCatalog.categoryNames(admin)),
  ]);
  return { product, categoryNames };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const admin = requireAdmin(context, request);
  const input = productInputFromForm(await readForm(request));
  const result = await actionResult(() => context.services.adminCatalog.updateProduct(admin, params, input));
  if ("ok" in result && result.ok) return redirect(`/product/${result.productId}`);
  return result;
}

/**
 * A save refused as a conflict (the stock moved meanwhile) reloads the product too, which React Router skips after
 * a 4xx by default: the form's stockBefore must become the stock now for the next save to go through.
 */
export function shouldRevalidate({ actionStatus, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return actionStatus === 409 || defaultShouldRevalidate;
}

export default function EditProduct({ loaderData, actionData }: Route.ComponentProps) {
  const { product, categoryNames } = loaderData;
  return (
    <section className="container-page py-10">
      <AdminNav />
      <ProductForm
        key={product.id}
        heading={adminMessages.productForm.updateHeading}
        creating={false}
        values={{
          name: product.name,
          description: product.description,
          price: paiseToRupeesInput(product.pricePaise),
          stock: String(product.stock),
          category: product.categoryName,
          compareAt: product.compareAtPaise === null ? "" : paiseToRupeesInput(product.compareAtPaise),
          saleStartsAt: product.saleStartsAt ?? "",
          saleEndsAt: product.saleEndsAt ?? "",
          care: product.care,
        }}
        categoryNames={categoryNames}
        stockBefore={product.stock}
        sizes={product.variants.map((size) => ({
          id: size.id,
          label: size.label,
          sku: size.sku,
          price: paiseToRupeesInput(size.pricePaise),
          compareAt: size.compareAtPaise === null ? "" : paiseToRupeesInput(size.compareAtPaise),
          stock: size.stock,
          image: size.imageId ?? "",
        }))}
        pictures={product.images.map((image, index) => ({ id: image.id, name: `Picture ${index + 1}` }))}
        failure={actionData && !actionData.ok ? actionData : undefined}
        productImages={(field) => (
          <ImagesField
            name="images"
            label="Product Images"
            multiple
            purpose="product"
            initial={product.images.map((image, index) => ({ id: image.id, url: image.url, alt: `Picture ${index + 1}` }))}
            {...field}
          />
        )}
        categoryImage={(field) => <ImagesField name="categoryImage" label="Category Image" purpose="category" {...field} />}
      />
    </section>
  );
}
