import { Form, Link, useNavigation } from "react-router";
import { adminMessages } from "#common/admin/admin-messages.ts";
import { formatPrice } from "#common/shared/money.ts";
import { AdminNav } from "../components/admin-nav.tsx";
import { ConfirmDelete } from "../components/confirm-delete.tsx";
import { readForm } from "../../../shared/lib/forms.ts";
import { actionResult, loadOrRefuse } from "../../../shared/lib/service-errors.ts";
import { requireAdmin } from "../../../shared/lib/session.ts";
import { privatePageMeta } from "../../../shared/lib/seo.ts";
import { FormMessage } from "../../../shared/ui/form-message.tsx";
import type { Route } from "./+types/admin-products";

const m = adminMessages.products;

export const meta: Route.MetaFunction = ({ matches }) => privatePageMeta(matches, `${m.heading} (admin)`);

export async function loader({ context, request }: Route.LoaderArgs) {
  const admin = requireAdmin(context, request);
  // A search that is too long or holds control characters is a 400 page with its message, not a 500.
  return loadOrRefuse(() => context.services.adminCatalog.listProducts(admin, Object.fromEntries(new URL(request.url).searchParams)));
}

/** Two small forms per row: the stock, and the delete behind its confirmation. */
export async function action({ context, request }: Route.ActionArgs) {
  const admin = requireAdmin(context, request);
  const form = await readForm(request);
  const productId = form.get("productId");
  const target = { productId };
  if (form.get("intent") === "delete") {
    return actionResult(() => context.services.adminCatalog.deleteProduct(admin, target), { intent: "delete" as const, rowId: String(productId) });
  }
  return actionResult(() => context.services.adminCatalog.setStock(admin, target, { stock: form.get("stock"), stockBefore: form.get("stockBefore") ?? undefined }), { intent: "stock" as const, rowId: String(productId) });
}

export default function AdminProducts({ loaderData, actionData }: Route.ComponentProps) {
  const { items, next, q } = loaderData;
  const navigation = useNavigation();
  const nextLink = next ? `?${new URLSearchParams({ ...(q ? { q } : {}), afterStock: String(next.afterStock), afterId: next.afterId })}` : null;
  return (
    <section className="container-page py-10">
      <AdminNav />
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h1 className="text-3xl font-bold text-stone-900">{m.heading}</h1>
        <Link to="/add-product" className="btn-primary">
          Add Product
        </Link>
      </div>
      <Form method="get" role="search" className="my-6 flex items-end gap-3">
        <div>
          <label htmlFor="product-search" className="field-label">
            Search by name
          </label>
          <input id="product-search" name="q" type="search" defaultValue={q ?? ""} className="field-input" />
        </div>
        <button type="submit" className="btn-outline">
          Search
        </button>
      </Form>
      {actionData?.intent === "delete" && actionData.ok ? <FormMessage tone="success" message={m.deleted} /> : null}
      {actionData && !actionData.ok && actionData.intent === "delete" ? <FormMessage message={actionData.message} /> : null}
      <p className="mt-2 text-sm text-stone-600">Lowest stock first.</p>
      {/* Positioned, so the table's sr-only labels (absolutely placed) stay inside it: they widened the page at 390 px. */}
      <div className="relative overflow-x-auto">
        <table className="data-table w-full min-w-2xl text-left">
          <thead className="border-b border-stone-300 text-sm text-stone-600">
            <tr>
              <th className="py-2 font-medium">Image</th>
              <th className="py-2 font-medium">Name</th>
              <th className="py-2 font-medium">Category</th>
              <th className="py-2 text-right font-medium">Price</th>
              <th className="py-2 font-medium">Stock</th>
              <th className="py-2 font-medium">
                <span className="sr-only">Delete</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-stone-200">
            {items.map((product) => {
              const rowResult = actionData && actionData.rowId === product.id ? actionData : undefined;
              const stockError = rowResult && !rowResult.ok && rowResult.intent === "stock" ? (rowResult.fieldErrors.stock ?? rowResult.message) : null;
              const savingStock = navigation.formData?.get("productId") === product.id && navigation.formData.get("intent") === "stock";
              return (
                <tr key={product.id} data-testid="admin-product-row">
                  <td className="py-2">
                    {product.image ? <img src={product.image.url} width={48} height={48} alt="" className="size-12 rounded object-cover" /> : <span className="text-stone-400">—</span>}
                  </td>
                  <td className="py-2">
                    <Link to={`/product/${product.id}/edit`} className="font-semibold text-leaf-800 underline underline-offset-4">
                      {product.name}
                    </Link>
                  </td>
                  <td className="py-2 text-stone-700">{product.categoryName}</td>
                  <td className="py-2 text-right">{formatPrice(product.pricePaise)}</td>
                  <td className="py-2">
                    <Form method="post" className="flex items-center gap-2">
                      <input type="hidden" name="intent" value="stock" />
                      <input type="hidden" name="stockBefore" value={product.stock} />
                      <input type="hidden" name="productId" value={product.id} />
                      <label className="sr-only" htmlFor={`stock-${product.id}`}>
                        Stock of {product.name}
                      </label>
                      <input
                        id={`stock-${product.id}`}
                        name="stock"
                        inputMode="numeric"
                        defaultValue={product.stock}
                        key={`${product.id}-${product.stock}`}
                        className="field-input w-24"
                        aria-invalid={stockError ? true : undefined}
                      />
                      <button type="submit" className="btn-outline text-sm" aria-disabled={savingStock || undefined}>
                        Save
                      </button>
                      {rowResult?.ok && rowResult.intent === "stock" ? <span role="status" className="text-sm text-leaf-800">{m.stockSaved}</span> : null}
                    </Form>
                    {stockError ? <p className="field-error">{stockError}</p> : null}
                  </td>
                  <td className="py-2">
                    <ConfirmDelete idField="productId" id={product.id} name={product.name} question={m.confirmDelete(product.name)} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {items.length === 0 ? <p className="mt-6 text-stone-700">{m.none}</p> : null}
      <nav aria-label="Pages" className="mt-6 flex justify-between">
        {q || loaderData.items.length ? <Link to={q ? `?q=${encodeURIComponent(q)}` : "?"}>First page</Link> : <span />}
        {nextLink ? <Link to={nextLink}>Next page →</Link> : <span />}
      </nav>
    </section>
  );
}
