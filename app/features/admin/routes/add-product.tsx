import { redirect } from "react-router";
import { adminMessages } from "#common/admin/admin-messages.ts";
import { AdminNav } from "../components/admin-nav.tsx";
import { ImagesField } from "../components/images-field.tsx";
import { ProductForm, productInputFromForm } from "../components/product-form.tsx";
import { readForm } from "../../../shared/lib/forms.ts";
import { actionResult, loadOrRefuse } from "../../../shared/lib/service-errors.ts";
import { requireAdmin } from "../../../shared/lib/session.ts";
import { privatePageMeta } from "../../../shared/lib/seo.ts";
import type { Route } from "./+types/add-product";

export const meta: Route.MetaFunction = ({ matches }) => privatePageMeta(matches, adminMessages.productForm.addHeading);

// Admin only (docs/product.md, Product form): a visitor is sent to log in, a signed-in non-admin gets a 403 page.
export async function loader({ context, request }: Route.LoaderArgs) {
  const admin = requireAdmin(context, request);
  return { categoryNames: await loadOrRefuse(() => context.services.adminCatalog.categoryNames(admin)) };
}

export async function action({ context, request }: Route.ActionArgs) {
  const admin = requireAdmin(context, request);
  const input = productInputFromForm(await readForm(request));
  const result = await actionResult(() => context.services.adminCatalog.createProduct(admin, input));
  if ("ok" in result && result.ok) return redirect(`/product/${result.productId}`);
  return result;
}

export default function AddProduct({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <section className="container-page py-10">
      <AdminNav />
      <ProductForm
        heading={adminMessages.productForm.addHeading}
        creating
        values={null}
        categoryNames={loaderData.categoryNames}
        failure={actionData && !actionData.ok ? actionData : undefined}
        productImages={(field) => <ImagesField name="images" label="Product Images" multiple purpose="product" {...field} />}
        categoryImage={(field) => <ImagesField name="categoryImage" label="Category Image" purpose="category" {...field} />}
      />
    </section>
  );
}
