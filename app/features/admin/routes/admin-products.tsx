import { Form, Link, useNavigation } from "react-router";
import { adminMessages } from "#common/admin/admin-messages.ts";
import { catalogCsvMessages as csv } from "#common/admin/catalog-csv.ts";
import { formatPrice } from "#common/shared/money.ts";
import { sellableName } from "#common/catalog/variant-names.ts";
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
  const stockInput = { stock: form.get("stock"), stockBefore: form.get("stockBefore") ?? undefined };
  const variantId = form.get("variantId");
  // A product with several sizes posts the size whose stock is set: each size has its own field and its own answer.
  if (typeof variantId === "string" && variantId) {
    return actionResult(() => context.services.adminCatalog.setVariantStock(admin, { productId, variantId }, stockInput), { intent: "stock" as const, rowId: variantId });
  }
  return actionResult(() => context.services.adminCatalog.setStock(admin, target, stockInput), { intent: "stock" as const, rowId: String(productId) });
}

/** One stock field saved in place: the product's (one size) or a size's, named by its label. */
function StockField({
  productId,
  variantId,
  stock,
  label,
  result,
  saving,
}: {
  productId: string;
  variantId: string | undefined;
  stock: number;
  label: string;
  result: { ok: true } | { ok: false; message: string; fieldErrors: Record<string, string> } | undefined;
  saving: boolean;
}) {
  const fieldId = `stock-${variantId ?? productId}`;
  const stockError = result && !result.ok ? (result.fieldErrors.stock ?? result.message) : null;
  return (
    <div>
      <Form method="post" className="flex items-center gap-2">
        <input type="hidden" name="intent" value="stock" />
        <input type="hidden" name="stockBefore" value={stock} />
        <input type="hidden" name="productId" value={productId} />
        {variantId ? <input type="hidden" name="variantId" value={variantId} /> : null}
        <label className="sr-only" htmlFor={fieldId}>
          {label}
        </label>
        <input
          id={fieldId}
          name="stock"
          inputMode="numeric"
          defaultValue={stock}
          key={`${fieldId}-${stock}`}
          className="field-input w-24"
          aria-invalid={stockError ? true : undefined}
        />
        <button type="submit" className="btn-outline text-sm" aria-disabled={saving || undefined}>
          Save
        </button>
        {result?.ok ? <span role="status" className="text-sm text-leaf-800">{m.stockSaved}</span> : null}
      </Form>
      {stockError ? <p className="field-error">{stockError}</p> : null}
    </div>
  );
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
        <div className="flex flex-wrap gap-2">
          {/* A download, not a page: the browser saves the file the server writes as it reads the catalogue. */}
          <a href="/admin/products/export.csv" download className="btn-outline">
            {csv.exportButton}
          </a>
          <Link to="/admin/products/import" className="btn-outline">
            Import CSV
          </Link>
          <Link to="/add-product" className="btn-primary">
            Add Product
          </Link>
        </div>
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
              // The stock's answer is the row's (one size) or one size's: each field shows only its own.
              const stockResult = (rowId: string) => (actionData && actionData.intent === "stock" && actionData.rowId === rowId ? actionData : undefined);
              const savingStock = (rowId: string) =>
                navigation.formData?.get("intent") === "stock" && (navigation.formData.get("variantId") || navigation.formData.get("productId")) === rowId;
              const sizes = product.variants.length > 1 ? product.variants : [];
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
                    {sizes.length ? (
                      <ul className="grid gap-2">
                        {sizes.map((size) => (
                          <li key={size.id}>
                            <span className="block text-sm text-stone-700">{size.label}</span>
                            <StockField
                              productId={product.id}
                              variantId={size.id}
                              stock={size.stock}
                              label={`Stock of ${sellableName(product.name, size.label)}`}
                              result={stockResult(size.id)}
                              saving={savingStock(size.id)}
                            />
                          </li>
                        ))}
                      </ul>
                    ) : (
                      <StockField
                        productId={product.id}
                        variantId={undefined}
                        stock={product.stock}
                        label={`Stock of ${product.name}`}
                        result={stockResult(product.id)}
                        saving={savingStock(product.id)}
                      />
                    )}
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
