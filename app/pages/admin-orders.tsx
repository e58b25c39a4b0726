import { Form, Link, useSearchParams } from "react-router";
import { formatPriceExact } from "#common/shared/money.ts";
import { ORDER_STATUS_LABELS, ORDER_STATUSES } from "#common/orders/order-schemas.ts";
import { CustomerContact, StatusBadge } from "../features/orders/components/order-view.tsx";
import { ShopTime } from "../shared/ui/shop-time.tsx";
import { requireAdmin } from "../shared/lib/session.ts";
import { loadOrRefuse } from "../shared/lib/service-errors.ts";
import { AdminNav } from "../features/admin/components/admin-nav.tsx";
import type { Route } from "./+types/admin-orders";
import { privatePageMeta } from "../shared/lib/seo.ts";
import { catalogCsvMessages as csv } from "#common/admin/catalog-csv.ts";
import { shopDay } from "#common/shared/dates.ts";

export const meta: Route.MetaFunction = ({ matches }) => privatePageMeta(matches, "Orders (admin)");

export async function loader({ context, request }: Route.LoaderArgs) {
  const admin = requireAdmin(context, request);
  const page = await loadOrRefuse(() => context.services.orders.listAllOrders(admin, Object.fromEntries(new URL(request.url).searchParams)));
  // The export's range starts as this month so far, in the shop's days.
  const today = shopDay(new Date(), context.shop.timeZone);
  return { ...page, exportRange: { from: `${today.slice(0, 8)}01`, to: today } };
}


export default function AdminOrders({ loaderData }: Route.ComponentProps) {
  const { items, page, pageCount, status, total, exportRange } = loaderData;
  const [params] = useSearchParams();
  const pageLink = (to: number) => {
    const next = new URLSearchParams(params);
    next.set("page", String(to));
    return `?${next}`;
  };
  return (
    <section className="container-page py-10">
      <h1 className="text-3xl font-bold text-stone-900">Orders</h1>
      <AdminNav />
      {/* A plain GET to the CSV's address: the browser downloads it, with or without JavaScript. */}
      <form method="get" action="/admin/orders/export.csv" className="my-6 flex flex-wrap items-end gap-3" aria-label={csv.ordersExportHeading}>
        <div>
          <label htmlFor="export-from" className="field-label">
            {csv.from}
          </label>
          <input id="export-from" name="from" type="date" defaultValue={exportRange.from} className="field-input" required />
        </div>
        <div>
          <label htmlFor="export-to" className="field-label">
            {csv.to}
          </label>
          <input id="export-to" name="to" type="date" defaultValue={exportRange.to} className="field-input" required />
        </div>
        <button type="submit" className="btn-outline">
          {csv.exportButton}
        </button>
      </form>
      <Form method="get" className="my-6 flex items-end gap-3">
        <div>
          <label htmlFor="status-filter" className="field-label">
            Status
          </label>
          <select id="status-filter" name="status" defaultValue={status ?? ""} className="field-input">
            <option value="">All</option>
            {ORDER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {ORDER_STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn-outline">
          Filter
        </button>
        <span className="ml-auto text-sm text-stone-600">{total === 1 ? "1 order" : `${total} orders`}</span>
      </Form>
      {/* On a phone the table scrolls sideways inside its box, not the whole page. */}
      <div className="overflow-x-auto">
        <table className="data-table w-full min-w-xl text-left">
          <thead className="border-b border-stone-300 text-sm text-stone-600">
            <tr>
              <th className="py-2 font-medium">Order</th>
              <th className="py-2 font-medium">Customer</th>
              <th className="py-2 font-medium">Placed</th>
              <th className="py-2 font-medium">Status</th>
              <th className="py-2 text-right font-medium">Total</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-stone-200">
            {items.map((order) => (
              <tr key={order.id}>
                <td className="whitespace-nowrap py-3">
                  <Link to={`/admin/orders/${order.id}`} className="font-semibold text-leaf-800 underline underline-offset-4">
                    {order.number}
                  </Link>
                </td>
                <td className="py-3 text-stone-700">
                  <CustomerContact customer={order.customer} />
                </td>
                <td className="whitespace-nowrap py-3 text-stone-700"><ShopTime instant={order.createdAt} /></td>
                <td className="py-3">
                  <StatusBadge status={order.status} />
                  {/* The reference the owner looks for in their bank's list before marking the order paid. */}
                  {order.paymentReference ? <span className="mt-1 block text-sm text-stone-600">UTR {order.paymentReference}</span> : null}
                </td>
                <td className="py-3 text-right">{formatPriceExact(order.totalPaise)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pageCount > 1 ? (
        <nav aria-label="Pages" className="mt-6 flex justify-between">
          {page > 1 ? <Link to={pageLink(page - 1)}>← Newer</Link> : <span />}
          <span className="text-sm text-stone-600">
            Page {page} of {pageCount}
          </span>
          {page < pageCount ? <Link to={pageLink(page + 1)}>Older →</Link> : <span />}
        </nav>
      ) : null}
    </section>
  );
}
