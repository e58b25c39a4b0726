import { requireAdmin } from "../../../shared/lib/session.ts";
import type { Route } from "./+types/add-product";

// Admin only (decisions.md: a visitor is sent to log in, a signed-in non-admin gets a 403 page).
// The product form itself arrives with product management.
export function loader({ context, request }: Route.LoaderArgs) {
  requireAdmin(context, request);
  return null;
}

export default function AddProduct() {
  return (
    <section className="container-page py-12">
      <title>Add Product</title>
      <h1 className="text-3xl font-bold text-stone-900">Add Product</h1>
      <p className="mt-4 max-w-prose text-stone-700">
        Only shop admins can reach this page. The product form (name, description, price, images, category and
        stock) is the next piece of the shop to be built.
      </p>
    </section>
  );
}
